package io.odradek.replication.fetcher;

import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * How a {@link BrokerClient} reaches another broker's inter-broker listener: the socket (plain, or TLS with its
 * handshake done) and, for SASL listeners, the authentication run on each new connection before any request.
 * Built by the broker from the inter-broker listener's security protocol and keys; {@link #PLAINTEXT} otherwise.
 */
public interface ClientSecurity {
    ClientSecurity PLAINTEXT = new ClientSecurity() {
    };

    /** Sends one request on the connection being set up and returns the response body. */
    interface Exchange {
        Struct send(ApiSpec api, short version, Struct body) throws IOException;
    }

    /** A connected socket to {@code host:port}; for TLS, a socket whose handshake has completed. */
    default Socket connect(String host, int port, int connectTimeoutMs) throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(host, port), connectTimeoutMs);
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /**
     * Authenticates a new connection (SaslHandshake, SaslAuthenticate...) through {@code exchange}; returns the
     * session lifetime the server gave (KIP-368, ms; 0 for none), after which the client reconnects. An
     * IOException (authentication refused included) drops the connection; the caller retries later.
     */
    default long authenticate(Exchange exchange) throws IOException {
        return 0;
    }
}
