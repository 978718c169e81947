package io.odradek.broker.security;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslHandler;
import io.odradek.broker.config.ConfigException;
import io.odradek.broker.config.ListenerConfig;
import io.odradek.security.KafkaPrincipal;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.ssl.ClientSsl;
import io.odradek.security.ssl.ServerSsl;
import io.odradek.security.ssl.SslConfigException;
import io.odradek.security.ssl.SslSettings;
import javax.net.ssl.SSLSession;

/**
 * TLS from a listener's ssl.* keys (issue 10, tls part): the server side, and the inter-broker client side.
 *
 * <p>Each key is read per listener ({@code listener.name.<l>.ssl.keystore.location} over
 * {@code ssl.keystore.location}), as Kafka's {@code valuesWithPrefixOverride}. As in Kafka, a SASL_SSL listener asks
 * for client certificates only when its own {@code listener.name.<l>.ssl.client.auth} says so; the plain
 * {@code ssl.client.auth} applies to SSL listeners. The keystore and truststore files are checked for changes every
 * {@code odradek.ssl.store.reload.interval.ms} (new connections use the reloaded stores).
 */
public final class TlsListeners {
    private static final System.Logger LOG = System.getLogger(TlsListeners.class.getName());
    /** Odradek's own key: how often a TLS listener's store files are checked for changes; 0 turns it off. */
    public static final String RELOAD_INTERVAL_KEY = "odradek.ssl.store.reload.interval.ms";
    public static final long DEFAULT_RELOAD_INTERVAL_MS = 10_000L;

    private TlsListeners() {
    }

    /** The TLS set-up of an SSL or SASL_SSL listener; ConfigException naming the key when a key is wrong. */
    public static ServerTls serverTls(ListenerConfig config) {
        try {
            return new ListenerTls(ServerSsl.create(config.name(), settings(config, true), reloadIntervalMs(config)));
        } catch (SslConfigException e) {
            throw new ConfigException("Listener " + config.name() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The listener's keys changed (a dynamic broker config such as {@code listener.name.ssl.ssl.keystore.location}):
     * new connections use a context built from them, checked as a keystore reload is. Keys that cannot be used were
     * refused in the AlterConfigs answer ({@link #validateReconfiguration}); should the files change in between,
     * they are logged and the current context stays.
     */
    public static void reconfigure(ServerTls tls, ListenerConfig config) {
        if (tls instanceof ListenerTls listener) {
            try {
                listener.ssl.reconfigure(settings(config, false));
            } catch (SslConfigException e) {
                LOG.log(System.Logger.Level.WARNING, "Listener " + config.name() + ": keeping the current TLS "
                        + "context, the new ssl settings cannot be used: " + e.getMessage());
            }
        }
    }

    /**
     * Checks that the listener's new keys make a usable context compatible with the current keystore, before they
     * are stored (Kafka's SslFactory.validateReconfiguration, with its message); ConfigException when not. Builds
     * the context, so it reads the store files: call it off the event loop.
     */
    public static void validateReconfiguration(ServerTls tls, ListenerConfig config) {
        if (tls instanceof ListenerTls listener) {
            try {
                listener.ssl.validateReconfiguration(settings(config, false));
            } catch (SslConfigException e) {
                throw new ConfigException("Validation of dynamic config update of SSLFactory failed: "
                        + e.getMessage(), e);
            }
        }
    }

    /** The listener's ssl.* keys; SASL_SSL asks for client certificates only with its own ssl.client.auth. */
    private static SslSettings settings(ListenerConfig config, boolean warn) {
        SslSettings settings = SslSettings.from(config::get);
        if (config.protocol() == SecurityProtocol.SASL_SSL && config.own("ssl.client.auth") == null) {
            String global = config.get("ssl.client.auth");
            if (warn && global != null && !global.equalsIgnoreCase("none")) {
                LOG.log(System.Logger.Level.WARNING, "Broker configuration 'ssl.client.auth' is applied only to "
                        + "SSL listeners. Listener-prefixed configuration can be used to enable SSL client "
                        + "authentication for SASL_SSL listeners (" + config.prefix() + "ssl.client.auth).");
            }
            settings = settings.withClientAuth(SslSettings.ClientAuth.NONE);
        }
        return settings;
    }

    /** A client to another broker's SSL / SASL_SSL listener, configured by the same listener's ssl.* keys. */
    public static TlsConnector connector(ListenerConfig config) {
        try {
            ClientSsl client = ClientSsl.create(SslSettings.from(config::get));
            return client::connect;
        } catch (SslConfigException e) {
            throw new ConfigException("Listener " + config.name() + " (inter-broker client): " + e.getMessage(), e);
        }
    }

    /** Opens TLS connections (handshake done, endpoint identification as configured). */
    public interface TlsConnector {
        java.net.Socket connect(String host, int port, int connectTimeoutMs) throws java.io.IOException;
    }

    private static long reloadIntervalMs(ListenerConfig config) {
        String value = config.get(RELOAD_INTERVAL_KEY);
        if (value == null) {
            return DEFAULT_RELOAD_INTERVAL_MS;
        }
        try {
            long ms = Long.parseLong(value.trim());
            if (ms < 0) {
                throw ConfigException.invalid(RELOAD_INTERVAL_KEY, value, "Value must be at least 0");
            }
            return ms;
        } catch (NumberFormatException e) {
            throw ConfigException.invalid(RELOAD_INTERVAL_KEY, value, "Not a number of type LONG");
        }
    }

    /** A listener's {@link ServerTls} over its {@link ServerSsl}. */
    static final class ListenerTls implements ServerTls, AutoCloseable {
        private final ServerSsl ssl;

        ListenerTls(ServerSsl ssl) {
            this.ssl = ssl;
        }

        @Override
        public SslHandler newHandler(ByteBufAllocator alloc) {
            return ssl.newHandler(alloc);
        }

        @Override
        public KafkaPrincipal principal(SSLSession session) {
            return ssl.principal(session);
        }

        /** Stops watching the store files. */
        @Override
        public void close() {
            ssl.close();
        }
    }
}
