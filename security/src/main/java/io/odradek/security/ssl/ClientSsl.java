package io.odradek.security.ssl;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * The client side of Kafka's TLS for blocking sockets (a broker dialling another broker's SSL / SASL_SSL listener):
 * the JDK's engine with the {@code ssl.*} keys' stores, protocols and suites, and the server's host name checked
 * against its certificate unless {@code ssl.endpoint.identification.algorithm} is empty.
 *
 * <p>As the server side does, it follows its keystore and truststore files: before each new connection their
 * modification times are looked at (a stat each), and a changed file rebuilds the context for this and later
 * connections (open ones keep theirs). A changed file that cannot be used is logged once and the current context
 * stays. (Kafka also reconfigures its inter-broker client on a dynamic alter of the listener's keys; Odradek's
 * client keeps the keys it was created with.)
 */
public final class ClientSsl {
    private static final System.Logger LOG = System.getLogger(ClientSsl.class.getName());
    private final SslSettings settings;
    private volatile SSLContext context;
    /** The store files' modification times last looked at, so a change is tried once. */
    private final Map<Path, FileTime> seen = new LinkedHashMap<>();

    private ClientSsl(SslSettings settings, SSLContext context) {
        this.settings = settings;
        this.context = context;
        Stream.of(settings.keystoreLocation(), settings.truststoreLocation())
                .filter(f -> f != null && !f.isBlank()).map(Path::of)
                .forEach(file -> seen.put(file, modifiedTime(file)));
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
            SSLSocket socket = (SSLSocket) currentContext().getSocketFactory().createSocket(plain, host, port, true);
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

    /** The context for a new connection: rebuilt first when a store file changed since last looked at. */
    private synchronized SSLContext currentContext() {
        boolean changed = false;
        for (Map.Entry<Path, FileTime> file : seen.entrySet()) {
            FileTime now = modifiedTime(file.getKey());
            if (now != null && !now.equals(file.getValue())) {
                file.setValue(now);
                changed = true;
            }
        }
        if (changed) {
            try {
                context = SslContexts.client(settings);
                LOG.log(System.Logger.Level.INFO, "TLS client: reloaded its changed keystore / truststore "
                        + seen.keySet() + "; new connections use them");
            } catch (SslConfigException e) {
                LOG.log(System.Logger.Level.WARNING, "TLS client: keeping the current context, the changed keystore"
                        + " or truststore cannot be used: " + e.getMessage());
            }
        }
        return context;
    }

    private static FileTime modifiedTime(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return null; // being replaced: look again next time
        }
    }
}
