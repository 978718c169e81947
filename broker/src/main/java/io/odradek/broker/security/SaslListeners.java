package io.odradek.broker.security;

import io.odradek.broker.config.ListenerConfig;
import io.odradek.replication.fetcher.ClientSecurity;
import io.odradek.replication.security.SecurityMetadataStore;

/** SASL for listeners (issue 10, sasl part): the server side per listener, the inter-broker client side. */
public final class SaslListeners {
    private SaslListeners() {
    }

    /**
     * The SASL set-up of a SASL_PLAINTEXT or SASL_SSL listener from its keys ({@code sasl.enabled.mechanisms},
     * per-mechanism JAAS configs, {@code connections.max.reauth.ms}...), SCRAM credentials read from {@code store}.
     */
    public static SaslServerSettings serverSettings(ListenerConfig config, SecurityMetadataStore store) {
        throw new UnsupportedOperationException("sasl part of issue 10: not written yet (" + config + ")");
    }

    /**
     * How this broker connects to other brokers' inter-broker listener {@code interBroker}: TLS for SSL and
     * SASL_SSL, SASL with {@code sasl.mechanism.inter.broker.protocol} and the listener's JAAS client credentials.
     */
    public static ClientSecurity interBroker(ListenerConfig interBroker, String saslMechanism) {
        if (interBroker.protocol() == io.odradek.security.SecurityProtocol.PLAINTEXT) {
            return ClientSecurity.PLAINTEXT;
        }
        throw new UnsupportedOperationException("sasl part of issue 10: not written yet (" + interBroker + ")");
    }
}
