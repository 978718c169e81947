package io.odradek.broker.config;

import io.odradek.security.SecurityProtocol;
import java.util.Locale;
import java.util.Map;

/**
 * One listener's view of the broker config, as Kafka resolves it: {@code listener.name.<listener>.<key>} (the
 * listener name in lower case) overrides {@code <key>}. Security keys (ssl.*, sasl.*) are read through it, so
 * every listener can have its own keystore, mechanisms and JAAS config.
 */
public final class ListenerConfig {
    private final Listener listener;
    private final SecurityProtocol protocol;
    private final Map<String, String> originals;

    public ListenerConfig(Listener listener, SecurityProtocol protocol, Map<String, String> originals) {
        this.listener = listener;
        this.protocol = protocol;
        this.originals = originals;
    }

    public Listener listener() {
        return listener;
    }

    /** The listener's name, upper case (PLAINTEXT, SASL_SSL, INTERNAL...). */
    public String name() {
        return listener.name();
    }

    public SecurityProtocol protocol() {
        return protocol;
    }

    /** The prefix of this listener's overrides: {@code listener.name.<name in lower case>.}. */
    public String prefix() {
        return "listener.name." + listener.name().toLowerCase(Locale.ROOT) + ".";
    }

    /** The value of {@code key} for this listener (its override, else the plain key), or null when neither is set. */
    public String get(String key) {
        String own = originals.get(prefix() + key);
        return own != null ? own : originals.get(key);
    }

    /** As {@link #get(String)}, with {@code defaultValue} when neither is set. */
    public String get(String key, String defaultValue) {
        String value = get(key);
        return value != null ? value : defaultValue;
    }

    /** Only the listener's own override of {@code key} (e.g. {@code plain.sasl.jaas.config}), or null. */
    public String own(String key) {
        return originals.get(prefix() + key);
    }

    @Override
    public String toString() {
        return listener + " (" + protocol + ")";
    }
}
