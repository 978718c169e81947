package io.odradek.broker.security;

import io.odradek.broker.config.ConfigException;
import io.odradek.broker.config.ListenerConfig;
import io.odradek.replication.security.SecurityMetadataStore;
import io.odradek.security.sasl.SaslServerMechanism;
import java.util.List;

/**
 * A listener's SASL set-up that follows the dynamic broker configs: when {@code sasl.enabled.mechanisms},
 * {@code listener.name.<l>.<mechanism>.sasl.jaas.config} or another SASL key changes, new exchanges use settings
 * rebuilt from the new keys (a rotated PLAIN password holds for the next login; connections already
 * authenticated stay). Keys that cannot be used are logged (never their values) and the current settings stay.
 */
public final class ReconfigurableSasl implements SaslServerSettings {
    private static final System.Logger LOG = System.getLogger(ReconfigurableSasl.class.getName());

    private final String listenerName;
    private final SecurityMetadataStore store;
    private volatile SaslServerSettings current;

    /** Built from {@code config}; ConfigException (as {@link SaslListeners#serverSettings}) when it cannot work. */
    public ReconfigurableSasl(ListenerConfig config, SecurityMetadataStore store) {
        this.listenerName = config.name();
        this.store = store;
        this.current = SaslListeners.serverSettings(config, store);
    }

    /** The listener's keys in the new dynamic config: later exchanges use them. */
    public void reconfigure(ListenerConfig config) {
        try {
            current = SaslListeners.serverSettings(config, store);
        } catch (ConfigException e) {
            LOG.log(System.Logger.Level.WARNING, "Listener " + listenerName + ": keeping the current SASL settings,"
                    + " the new ones cannot be used: " + e.getMessage());
        }
    }

    @Override
    public List<String> enabledMechanisms() {
        return current.enabledMechanisms();
    }

    @Override
    public SaslServerMechanism newServer(String mechanism) {
        return current.newServer(mechanism);
    }

    @Override
    public long maxReauthMs() {
        return current.maxReauthMs();
    }

    @Override
    public long maxReauthMs(String mechanism) {
        return current.maxReauthMs(mechanism);
    }

    @Override
    public int maxReceiveSize() {
        return current.maxReceiveSize();
    }
}
