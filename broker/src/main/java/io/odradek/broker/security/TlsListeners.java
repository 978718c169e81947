package io.odradek.broker.security;

import io.odradek.broker.config.ListenerConfig;

/** TLS from a listener's ssl.* keys (issue 10, tls part): the server side, and the inter-broker client side. */
public final class TlsListeners {
    private TlsListeners() {
    }

    /** The TLS set-up of an SSL or SASL_SSL listener; ConfigException naming the key when a key is wrong. */
    public static ServerTls serverTls(ListenerConfig config) {
        throw new UnsupportedOperationException("tls part of issue 10: not written yet (" + config + ")");
    }

    /** A client to another broker's SSL / SASL_SSL listener, configured by the same listener's ssl.* keys. */
    public static TlsConnector connector(ListenerConfig config) {
        throw new UnsupportedOperationException("tls part of issue 10: not written yet (" + config + ")");
    }

    /** Opens TLS connections (handshake done, endpoint identification as configured). */
    public interface TlsConnector {
        java.net.Socket connect(String host, int port, int connectTimeoutMs) throws java.io.IOException;
    }
}
