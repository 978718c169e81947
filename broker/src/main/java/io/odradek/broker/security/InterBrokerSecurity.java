package io.odradek.broker.security;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.config.ConfigException;
import io.odradek.replication.fetcher.ClientSecurity;
import java.io.IOException;
import java.net.Socket;

/**
 * How this broker's fetchers and inter-broker senders reach the inter-broker listener, following the dynamic
 * broker configs: built from the config in force (a cluster broker learns its stored dynamic configs with its first
 * image) and rebuilt when the inter-broker listener's TLS or SASL keys change; new connections use the new set-up.
 * Keys that cannot be used are logged (never their values) and the current set-up stays.
 */
public final class InterBrokerSecurity implements ClientSecurity {
    private static final System.Logger LOG = System.getLogger(InterBrokerSecurity.class.getName());

    private volatile ClientSecurity current;

    /** From {@code config}; ConfigException when its inter-broker keys cannot work. */
    public InterBrokerSecurity(BrokerConfig config) {
        this.current = build(config);
    }

    private static ClientSecurity build(BrokerConfig config) {
        return SaslListeners.interBroker(config.listenerConfig(config.interBrokerListenerName()),
                config.saslMechanismInterBrokerProtocol());
    }

    /** The config in force changed: new connections use its inter-broker keys. */
    public void reconfigure(BrokerConfig config) {
        try {
            current = build(config);
        } catch (ConfigException e) {
            LOG.log(System.Logger.Level.WARNING, "keeping the current inter-broker client security, the new keys "
                    + "cannot be used: " + e.getMessage());
        }
    }

    @Override
    public Socket connect(String host, int port, int connectTimeoutMs) throws IOException {
        return current.connect(host, port, connectTimeoutMs);
    }

    @Override
    public long authenticate(Exchange exchange) throws IOException {
        return current.authenticate(exchange);
    }
}
