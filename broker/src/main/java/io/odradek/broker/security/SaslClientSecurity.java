package io.odradek.broker.security;

import io.odradek.replication.fetcher.ClientSecurity;
import io.odradek.security.sasl.SaslAuthenticationException;
import io.odradek.security.sasl.SaslClientMechanism;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.SaslAuthenticateApi;
import io.odradek.wire.api.SaslHandshakeApi;
import io.odradek.wire.schema.Struct;
import java.io.IOException;
import java.net.Socket;
import java.util.function.Supplier;

/**
 * The broker's side of its own connections to another broker's SSL / SASL_PLAINTEXT / SASL_SSL listener: TLS
 * through the tls part's connector when the listener uses it, then (SASL) SaslHandshake v1 and SaslAuthenticate
 * v1 exchanges until the mechanism completes; the server's session lifetime (KIP-368) goes back to the caller,
 * which reconnects before it ends.
 */
final class SaslClientSecurity implements ClientSecurity {
    private final TlsListeners.TlsConnector tls;
    private final String mechanism;
    private final Supplier<SaslClientMechanism> clients;

    /** {@code tls} null for plain sockets; {@code mechanism} null for TLS only (SSL listeners). */
    SaslClientSecurity(TlsListeners.TlsConnector tls, String mechanism, Supplier<SaslClientMechanism> clients) {
        this.tls = tls;
        this.mechanism = mechanism;
        this.clients = clients;
    }

    @Override
    public Socket connect(String host, int port, int connectTimeoutMs) throws IOException {
        return tls != null ? tls.connect(host, port, connectTimeoutMs)
                : ClientSecurity.super.connect(host, port, connectTimeoutMs);
    }

    @Override
    public long authenticate(Exchange exchange) throws IOException {
        if (mechanism == null) {
            return 0;
        }
        Struct handshake = exchange.send(SaslHandshakeApi.SPEC, (short) 1,
                SaslHandshakeApi.Request.SCHEMA.newStruct().set(SaslHandshakeApi.Request.MECHANISM, mechanism));
        short error = handshake.get(SaslHandshakeApi.Response.ERROR_CODE);
        if (error != 0) {
            throw new IOException("SASL handshake with mechanism " + mechanism + " failed: " + ErrorCode.forCode(error)
                    + " (the broker offers " + handshake.get(SaslHandshakeApi.Response.MECHANISMS) + ")");
        }
        SaslClientMechanism client = clients.get();
        try {
            byte[] token = client.initialResponse();
            while (true) {
                Struct response = exchange.send(SaslAuthenticateApi.SPEC, (short) 1, SaslAuthenticateApi.Request.SCHEMA
                        .newStruct().set(SaslAuthenticateApi.Request.AUTH_BYTES, token));
                error = response.get(SaslAuthenticateApi.Response.ERROR_CODE);
                if (error != 0) {
                    throw new IOException("SASL authentication with mechanism " + mechanism + " failed: "
                            + ErrorCode.forCode(error) + ": " + response.get(SaslAuthenticateApi.Response.ERROR_MESSAGE));
                }
                token = client.evaluateChallenge(response.get(SaslAuthenticateApi.Response.AUTH_BYTES));
                if (client.isComplete()) {
                    return response.get(SaslAuthenticateApi.Response.SESSION_LIFETIME_MS);
                }
            }
        } catch (SaslAuthenticationException e) {
            throw new IOException("SASL authentication with mechanism " + mechanism + " failed: " + e.getMessage(), e);
        }
    }
}
