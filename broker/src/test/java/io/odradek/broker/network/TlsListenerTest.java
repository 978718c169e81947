package io.odradek.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.api.BrokerFeatures;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.config.Listener;
import io.odradek.broker.config.ListenerConfig;
import io.odradek.broker.fetch.FileSliceRecords;
import io.odradek.broker.handlers.ApiVersionsHandler;
import io.odradek.broker.quota.ClientQuotas;
import io.odradek.broker.quota.QuotaWindows;
import io.odradek.broker.quota.RequestThrottler;
import io.odradek.broker.security.ListenerSecurity;
import io.odradek.broker.security.TlsListeners;
import io.odradek.log.FileSlice;
import io.odradek.security.KafkaPrincipal;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.TestCertificates;
import io.odradek.security.acl.Authorizer;
import io.odradek.security.ssl.ClientSsl;
import io.odradek.security.ssl.SslSettings;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.schema.Struct;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.record.internal.BaseRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An SSL listener served by the real pipeline (SslHandler, file-region stage, frames, requests) with stub handlers
 * that note each request's session, reached by a JDK SSLSocket.
 */
class TlsListenerTest {
    private static final TestCertificates CERTS = TestCertificates.shared();

    private final List<KafkaPrincipal> principals = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private KafkaServer server;
    private FileSlice fetched;

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void start(Map<String, String> listenerSettings) throws Exception {
        Map<String, String> originals = new HashMap<>(listenerSettings);
        originals.put("odradek.ssl.store.reload.interval.ms", "0");
        ListenerConfig config = new ListenerConfig(new Listener("SSL", "127.0.0.1", 0), SecurityProtocol.SSL, originals);
        ListenerSecurity security = new ListenerSecurity("SSL", SecurityProtocol.SSL, TlsListeners.serverTls(config), null);
        ApiRegistry registry = new ApiRegistry();
        ApiVersionsHandler versions = new ApiVersionsHandler(registry, BrokerFeatures.kafka44(0));
        registry.register(new ApiHandler() {
            @Override
            public ApiSpec api() {
                return versions.api();
            }

            @Override
            public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
                principals.add(context.session().principal());
                return versions.handle(context, request);
            }
        });
        registry.register(new ApiHandler() {
            @Override
            public ApiSpec api() {
                return FetchApi.SPEC;
            }

            @Override
            public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
                Struct response = FetchApi.Response.SCHEMA.newStruct();
                Struct topic = response.add(FetchApi.Response.RESPONSES)
                        .set(FetchApi.Response.FetchableTopicResponse.TOPIC, "t");
                for (int p = 0; p < 2; p++) { // two regions in one response, bytes around them
                    topic.add(FetchApi.Response.FetchableTopicResponse.PARTITIONS)
                            .set(FetchApi.Response.FetchableTopicResponse.PartitionData.PARTITION_INDEX, p)
                            .set(FetchApi.Response.FetchableTopicResponse.PartitionData.HIGH_WATERMARK, 10L + p)
                            .set(FetchApi.Response.FetchableTopicResponse.PartitionData.RECORDS,
                                    new FileSliceRecords(fetched));
                }
                return CompletableFuture.completedFuture(response);
            }
        });
        server = KafkaServer.bind(new InetSocketAddress("127.0.0.1", 0), registry, NetworkSettings.defaults(100 << 20),
                new RequestThrottler(new ClientQuotas(QuotaWindows.KAFKA_DEFAULTS), System::currentTimeMillis),
                security, Authorizer.ALLOW_ALL);
    }

    private static Map<String, String> serverStores() {
        Map<String, String> config = new HashMap<>(CERTS.server().keystoreConfig("PKCS12"));
        config.putAll(CERTS.truststoreConfig("PKCS12"));
        return config;
    }

    private SSLSocket connect(Map<String, String> clientSettings) throws IOException {
        SSLSocket socket = ClientSsl.create(SslSettings.from(clientSettings))
                .connect("localhost", server.address().getPort(), 10_000);
        socket.setSoTimeout(20_000);
        closeables.add(socket);
        return socket;
    }

    private static Map<String, String> clientOf(String commonName) {
        Map<String, String> config = new HashMap<>(CERTS.truststoreConfig("JKS"));
        if (commonName != null) {
            config.putAll(CERTS.client(commonName).keystoreConfig("JKS"));
        }
        return config;
    }

    /** ApiVersions v3 over the socket; the error code of the answer. */
    private static short apiVersions(Socket socket, int correlationId) throws IOException {
        socket.getOutputStream().write(RawClient.apiVersionsFrame(correlationId));
        socket.getOutputStream().flush();
        ByteBuffer answer = readFrame(socket.getInputStream());
        assertThat(answer.getInt(0)).isEqualTo(correlationId);
        RequestHeader header = new RequestHeader(ApiKeys.API_VERSIONS, (short) 3, "raw-client", correlationId);
        return ((ApiVersionsResponse) AbstractResponse.parseResponse(answer, header)).data().errorCode();
    }

    private static ByteBuffer readFrame(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        byte[] frame = new byte[data.readInt()];
        data.readFully(frame);
        return ByteBuffer.wrap(frame);
    }

    @Test
    void oneWayTlsServesRequestsToAnAnonymousClient() throws Exception {
        start(serverStores());
        SSLSocket socket = connect(clientOf(null));
        assertThat(apiVersions(socket, 7)).isZero();
        assertThat(principals).containsExactly(KafkaPrincipal.ANONYMOUS);
        assertThat(socket.getSession().getProtocol()).isEqualTo("TLSv1.3");
    }

    @Test
    void mutualTlsClientIsKnownByItsMappedCertificateName() throws Exception {
        Map<String, String> config = serverStores();
        config.put("ssl.client.auth", "required");
        config.put("ssl.principal.mapping.rules", "RULE:^CN=([^,]+),OU=Test,O=Odradek$/$1/L,DEFAULT");
        start(config);
        assertThat(apiVersions(connect(clientOf("Alice")), 1)).isZero();
        assertThat(principals).containsExactly(KafkaPrincipal.user("alice"));
    }

    @Test
    void requestedClientAuthServesClientsWithAndWithoutCertificates() throws Exception {
        Map<String, String> config = serverStores();
        config.put("listener.name.ssl.ssl.client.auth", "requested");
        start(config);
        assertThat(apiVersions(connect(clientOf(null)), 1)).isZero();
        assertThat(apiVersions(connect(clientOf("bob")), 2)).isZero();
        assertThat(principals).containsExactly(KafkaPrincipal.ANONYMOUS,
                KafkaPrincipal.user("CN=bob,OU=Test,O=Odradek"));
    }

    @Test
    void requiredClientAuthRefusesAClientWithoutCertificate() throws Exception {
        Map<String, String> config = serverStores();
        config.put("ssl.client.auth", "required");
        start(config);
        // TLS 1.3: the client learns of the refusal on its first read after the handshake.
        assertThatThrownBy(() -> apiVersions(connect(clientOf(null)), 1))
                .isInstanceOfAny(SSLException.class, SocketException.class, EOFException.class);
        assertThat(principals).isEmpty();
    }

    @Test
    void clientCertificateFromAnUntrustedCaIsRefused(@TempDir Path dir) throws Exception {
        Map<String, String> config = serverStores();
        config.put("ssl.client.auth", "required");
        start(config);
        Map<String, String> client = clientOf(null);
        client.putAll(TestCertificates.create(dir).client("eve").keystoreConfig("PKCS12"));
        assertThatThrownBy(() -> apiVersions(connect(client), 1))
                .isInstanceOfAny(SSLException.class, SocketException.class, EOFException.class);
        assertThat(principals).isEmpty();
    }

    @Test
    void clientNoMappingRuleAppliesToIsDisconnected() throws Exception {
        Map<String, String> config = serverStores();
        config.put("ssl.client.auth", "required");
        config.put("ssl.principal.mapping.rules", "RULE:^CN=(.*),OU=Operators,O=Odradek$/$1/");
        start(config);
        SSLSocket socket = connect(clientOf("carol"));
        assertThatThrownBy(() -> apiVersions(socket, 1))
                .isInstanceOfAny(SSLException.class, SocketException.class, EOFException.class);
        assertThat(principals).isEmpty();
    }

    @Test
    void interBrokerConnectorSpeaksMutualTlsWithTheListenersOwnKeys() throws Exception {
        Map<String, String> config = serverStores();
        config.put("ssl.client.auth", "required");
        config.put("ssl.principal.mapping.rules", "RULE:^CN=([^,]+),.*$/$1/,DEFAULT");
        start(config);
        // The broker's own listener keys: its server certificate is also its client certificate, as in Kafka.
        ListenerConfig own = new ListenerConfig(new Listener("SSL", "127.0.0.1", 0), SecurityProtocol.SSL, config);
        Socket socket = TlsListeners.connector(own).connect("localhost", server.address().getPort(), 10_000);
        closeables.add(socket);
        assertThat(apiVersions(socket, 3)).isZero();
        assertThat(principals).containsExactly(KafkaPrincipal.user("localhost"));
    }

    @Test
    void interBrokerConnectorPicksUpATruststoreReplacedOnDisk(@TempDir Path dir) throws Exception {
        start(serverStores());
        // The connector first trusts another CA only: the listener's certificate is refused.
        Path truststore = dir.resolve("inter-broker-trust.jks");
        Files.copy(TestCertificates.create(dir.resolve("other-ca")).truststore("JKS"), truststore);
        Map<String, String> client = new HashMap<>(CERTS.truststoreConfig("JKS"));
        client.put("ssl.truststore.location", truststore.toString());
        ListenerConfig own = new ListenerConfig(new Listener("SSL", "127.0.0.1", 0), SecurityProtocol.SSL, client);
        TlsListeners.TlsConnector connector = TlsListeners.connector(own);
        assertThatThrownBy(() -> connector.connect("localhost", server.address().getPort(), 10_000))
                .isInstanceOf(SSLException.class);

        // The file is replaced by one trusting the listener's CA: the same connector's next connection is trusted.
        java.nio.file.attribute.FileTime before = Files.getLastModifiedTime(truststore);
        Files.copy(CERTS.truststore("JKS"), truststore, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(truststore, java.nio.file.attribute.FileTime.fromMillis(before.toMillis() + 2_000));
        Socket socket = connector.connect("localhost", server.address().getPort(), 10_000);
        closeables.add(socket);
        assertThat(apiVersions(socket, 5)).isZero();
    }

    @Test
    void connectorChecksTheBrokersHostNameUnlessEndpointIdentificationIsOff() throws Exception {
        Map<String, String> config = new HashMap<>(CERTS.identity("elsewhere", "CN=elsewhere,OU=Test,O=Odradek",
                "DNS:elsewhere.example").keystoreConfig("JKS"));
        start(config);
        Map<String, String> client = new HashMap<>(CERTS.truststoreConfig("JKS"));
        ListenerConfig checking = new ListenerConfig(new Listener("SSL", "127.0.0.1", 0), SecurityProtocol.SSL, client);
        assertThatThrownBy(() -> TlsListeners.connector(checking).connect("localhost", server.address().getPort(), 10_000))
                .isInstanceOf(SSLException.class)
                .hasMessageContaining("No subject alternative DNS name matching localhost found");
        client.put("ssl.endpoint.identification.algorithm", "");
        ListenerConfig trusting = new ListenerConfig(new Listener("SSL", "127.0.0.1", 0), SecurityProtocol.SSL, client);
        Socket socket = TlsListeners.connector(trusting).connect("localhost", server.address().getPort(), 10_000);
        closeables.add(socket);
        assertThat(apiVersions(socket, 4)).isZero();
    }

    @Test
    void clientInitiatedRenegotiationOnTheJdkEngineClosesTheConnection() throws Exception {
        // OpenSSL refuses renegotiation itself; the JDK engine would accept it (Kafka's SslTransportLayer closes).
        Map<String, String> config = serverStores();
        config.put("odradek.ssl.engine", "jdk");
        config.put("ssl.enabled.protocols", "TLSv1.2,TLSv1.3");
        start(config);
        Map<String, String> client = clientOf(null);
        client.put("ssl.protocol", "TLSv1.2");
        client.put("ssl.enabled.protocols", "TLSv1.2");
        SSLSocket socket = connect(client);
        assertThat(socket.getSession().getProtocol()).isEqualTo("TLSv1.2");
        assertThat(apiVersions(socket, 1)).isZero(); // the first handshake serves requests

        assertThatThrownBy(() -> {
            socket.startHandshake(); // a second handshake on the same connection
            apiVersions(socket, 2);
        }).isInstanceOfAny(SSLException.class, SocketException.class, EOFException.class);
        assertThat(principals).hasSize(1);
    }

    @Test
    void plaintextClientOnATlsListenerIsDisconnected() throws Exception {
        start(serverStores());
        try (Socket plain = new Socket("127.0.0.1", server.address().getPort())) {
            plain.setSoTimeout(20_000);
            plain.getOutputStream().write(RawClient.apiVersionsFrame(1));
            assertThat(plain.getInputStream().readAllBytes().length).isLessThan(100); // at most a TLS alert
        }
    }

    @Test
    void fetchedFileRegionsArriveExactlyOverTls(@TempDir Path dir) throws Exception {
        byte[] content = new byte[3 * 1024 * 1024 + 123];
        new Random(42).nextBytes(content);
        Path segment = dir.resolve("00000000000000000000.log");
        Files.write(segment, content);
        FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ);
        closeables.add(channel);
        fetched = new FileSlice(channel, 100, content.length - 200, 0);
        start(serverStores());

        Socket socket = connect(clientOf(null));
        for (int correlationId = 1; correlationId <= 2; correlationId++) {
            FetchRequest request = FetchRequest.Builder.forConsumer((short) 12, 500, 1, new java.util.LinkedHashMap<>())
                    .build((short) 12);
            socket.getOutputStream().write(RawClient.frame(request, "raw-client", correlationId));
        }
        for (int correlationId = 1; correlationId <= 2; correlationId++) {
            ByteBuffer answer = readFrame(socket.getInputStream());
            RequestHeader header = new RequestHeader(ApiKeys.FETCH, (short) 12, "raw-client", correlationId);
            FetchResponse response = (FetchResponse) AbstractResponse.parseResponse(answer, header);
            List<FetchResponseData.PartitionData> partitions = response.data().responses().get(0).partitions();
            assertThat(partitions).extracting(FetchResponseData.PartitionData::highWatermark).containsExactly(10L, 11L);
            byte[] expected = java.util.Arrays.copyOfRange(content, 100, content.length - 100);
            for (FetchResponseData.PartitionData p : partitions) {
                BaseRecords records = p.records();
                ByteBuffer bytes = ((MemoryRecords) records).buffer();
                byte[] got = new byte[bytes.remaining()];
                bytes.get(got);
                assertThat(got).isEqualTo(expected);
            }
        }
    }
}
