package io.odradek.broker.security;

import io.odradek.security.sasl.SaslServerMechanism;
import java.util.List;

/** SASL for one listener (SASL_PLAINTEXT, SASL_SSL): its enabled mechanisms and a server per exchange. */
public interface SaslServerSettings {
    /** {@code sasl.enabled.mechanisms} for this listener, in the order SaslHandshake lists them. */
    List<String> enabledMechanisms();

    /** A server for one exchange on one connection; null when {@code mechanism} is not enabled here. */
    SaslServerMechanism newServer(String mechanism);

    /** {@code connections.max.reauth.ms} for this listener (KIP-368): 0 when sessions do not expire. */
    long maxReauthMs();

    /**
     * {@code connections.max.reauth.ms} for {@code mechanism} on this listener: Kafka also reads
     * {@code listener.name.<l>.<mechanism>.connections.max.reauth.ms}. Default: the listener's value.
     */
    default long maxReauthMs(String mechanism) {
        return maxReauthMs();
    }

    /**
     * {@code sasl.server.max.receive.size}: the largest frame a client may send before it is authenticated
     * (Kafka's default 524288); a larger one fails authentication and closes the connection.
     */
    default int maxReceiveSize() {
        return 524288;
    }
}
