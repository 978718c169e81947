package io.odradek.security.ssl;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * The client side of Kafka's TLS for blocking sockets (a broker dialling another broker's SSL / SASL_SSL listener):
 * the JDK's engine with the {@code ssl.*} keys' stores, protocols and suites, and the server's host name checked
 * against its certificate unless {@code ssl.endpoint.identification.algorithm} is empty.
 */
public final class ClientSsl {
    private final SslSettings settings;
    private final SSLContext context;

    private ClientSsl(SslSettings settings, SSLContext context) {
        this.settings = settings;
        this.context = context;
    }

    public static ClientSsl create(SslSettings settings) {
        return new ClientSsl(settings, SslContexts.client(settings));
    }

    /** A connected socket with its handshake done; IOException (an SSLException) when the server is not trusted. */
    public SSLSocket connect(String host, int port, int connectTimeoutMs) throws IOException {
        Socket plain = new Socket();
        try {
            plain.connect(new InetSocketAddress(host, port), connectTimeoutMs);
            plain.setTcpNoDelay(true);
            SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true);
            SSLParameters params = socket.getSSLParameters();
            if (!settings.enabledProtocols().isEmpty()) {
                params.setProtocols(settings.enabledProtocols().toArray(String[]::new));
            }
            if (!settings.cipherSuites().isEmpty()) {
                params.setCipherSuites(settings.cipherSuites().toArray(String[]::new));
            }
            params.setEndpointIdentificationAlgorithm(settings.verifiesHostName()
                    ? settings.endpointIdentificationAlgorithm() : null);
            socket.setSSLParameters(params);
            socket.setSoTimeout(connectTimeoutMs); // the handshake must not hang past the connect timeout
            socket.startHandshake();
            socket.setSoTimeout(0);
            return socket;
        } catch (IOException | RuntimeException e) {
            plain.close();
            throw e;
        }
    }

    public SSLContext context() {
        return context;
    }
}
