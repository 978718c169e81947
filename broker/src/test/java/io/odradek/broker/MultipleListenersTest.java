package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.network.ListenerBindException;
import io.odradek.replication.fetcher.BrokerClient;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DescribeClusterApi;
import io.odradek.wire.api.FindCoordinatorApi;
import io.odradek.wire.api.MetadataApi;
import io.odradek.wire.schema.Struct;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several listeners served at once (issue 10): each answers with its own advertised endpoint. */
class MultipleListenersTest {
    @TempDir
    Path dir;
    private Broker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private Broker start(String... keyValues) throws InterruptedException {
        Map<String, String> settings = new HashMap<>(Map.of("node.id", "3", "log.dirs", dir.toString()));
        for (int i = 0; i < keyValues.length; i += 2) {
            settings.put(keyValues[i], keyValues[i + 1]);
        }
        broker = Broker.start(BrokerConfig.of(settings));
        return broker;
    }

    /** Client, internal and a third listener left out of advertised.listeners; every one on port 0. */
    private Broker startThreeListeners() throws InterruptedException {
        return start(
                "listeners", "CLIENT://127.0.0.1:0,INTERNAL://127.0.0.1:0,HIDDEN://127.0.0.1:0",
                "advertised.listeners", "CLIENT://localhost:0,INTERNAL://127.0.0.1:0",
                "listener.security.protocol.map", "CLIENT:PLAINTEXT,INTERNAL:PLAINTEXT,HIDDEN:PLAINTEXT",
                "inter.broker.listener.name", "INTERNAL");
    }

    private static Struct send(InetSocketAddress at, io.odradek.wire.api.ApiSpec api, int version, Struct body)
            throws Exception {
        try (BrokerClient client = new BrokerClient("127.0.0.1", at.getPort(), "listeners-test", 5_000, 5_000)) {
            return client.send(api, (short) version, body);
        }
    }

    private static Struct metadata(InetSocketAddress at) throws Exception {
        return send(at, MetadataApi.SPEC, 12, MetadataApi.Request.SCHEMA.newStruct()
                .set(MetadataApi.Request.TOPICS, List.of()));
    }

    private static List<String> brokers(Struct metadata) {
        return metadata.get(MetadataApi.Response.BROKERS).stream()
                .map(b -> b.get(MetadataApi.Response.MetadataResponseBroker.NODE_ID) + "@"
                        + b.get(MetadataApi.Response.MetadataResponseBroker.HOST) + ":"
                        + b.get(MetadataApi.Response.MetadataResponseBroker.PORT))
                .toList();
    }

    @Test
    void everyListenerIsBoundAndMetadataOnEachNamesItsOwnAdvertisedEndpoint() throws Exception {
        startThreeListeners();
        InetSocketAddress client = broker.address("CLIENT");
        InetSocketAddress internal = broker.address("INTERNAL");
        InetSocketAddress hidden = broker.address("HIDDEN");
        assertThat(List.of(client.getPort(), internal.getPort(), hidden.getPort())).doesNotHaveDuplicates()
                .doesNotContain(0);
        assertThat(broker.address()).isEqualTo(client);

        assertThat(brokers(metadata(client))).containsExactly("3@localhost:" + client.getPort());
        assertThat(brokers(metadata(internal))).containsExactly("3@127.0.0.1:" + internal.getPort());
        // Served, but not advertised: as Kafka, a broker without the request's listener is left out.
        assertThat(brokers(metadata(hidden))).isEmpty();
    }

    @Test
    void describeClusterAndFindCoordinatorAnswerWithTheRequestsListener() throws Exception {
        startThreeListeners();
        InetSocketAddress internal = broker.address("INTERNAL");
        Struct cluster = send(internal, DescribeClusterApi.SPEC, 1, DescribeClusterApi.Request.SCHEMA.newStruct());
        Struct only = cluster.get(DescribeClusterApi.Response.BROKERS).get(0);
        assertThat(only.get(DescribeClusterApi.Response.DescribeClusterBroker.HOST)).isEqualTo("127.0.0.1");
        assertThat(only.get(DescribeClusterApi.Response.DescribeClusterBroker.PORT)).isEqualTo(internal.getPort());
        assertThat(send(broker.address("HIDDEN"), DescribeClusterApi.SPEC, 1,
                DescribeClusterApi.Request.SCHEMA.newStruct()).get(DescribeClusterApi.Response.BROKERS)).isEmpty();

        InetSocketAddress client = broker.address("CLIENT");
        Struct coordinator = findGroupCoordinator(client);
        for (int i = 0; i < 50 && coordinator.get(FindCoordinatorApi.Response.ERROR_CODE) != ErrorCode.NONE.code(); i++) {
            Thread.sleep(100); // the first lookup creates __consumer_offsets
            coordinator = findGroupCoordinator(client);
        }
        assertThat(coordinator.get(FindCoordinatorApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(coordinator.get(FindCoordinatorApi.Response.HOST)).isEqualTo("localhost");
        assertThat(coordinator.get(FindCoordinatorApi.Response.PORT)).isEqualTo(client.getPort());
        assertThat(findGroupCoordinator(broker.address("HIDDEN")).get(FindCoordinatorApi.Response.ERROR_CODE))
                .isEqualTo(ErrorCode.COORDINATOR_NOT_AVAILABLE.code());
    }

    private static Struct findGroupCoordinator(InetSocketAddress at) throws Exception {
        return send(at, FindCoordinatorApi.SPEC, 3, FindCoordinatorApi.Request.SCHEMA.newStruct()
                .set(FindCoordinatorApi.Request.KEY, "orders-group").set(FindCoordinatorApi.Request.KEY_TYPE, (byte) 0));
    }

    @Test
    void aListenerThatCannotBindStopsTheStartAndNamesItself() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> start(
                    "listeners", "PLAINTEXT://127.0.0.1:0,INTERNAL://127.0.0.1:" + taken.getLocalPort(),
                    "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,INTERNAL:PLAINTEXT"))
                    .isInstanceOf(ListenerBindException.class)
                    .satisfies(e -> assertThat(((ListenerBindException) e).listenerName()).isEqualTo("INTERNAL"));
        }
        // Everything it opened was closed: the same log dir starts again.
        start("listeners", "PLAINTEXT://127.0.0.1:0");
        assertThat(brokers(metadata(broker.address()))).containsExactly("3@127.0.0.1:" + broker.port());
    }
}
