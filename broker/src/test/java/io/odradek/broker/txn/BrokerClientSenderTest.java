package io.odradek.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.cluster.TestClusterView;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.WriteTxnMarkersApi;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult.WritableTxnMarkerPartitionResult;
import io.odradek.wire.schema.Struct;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inter-broker sender over BrokerClient, against a real broker on a loopback port. */
class BrokerClientSenderTest {
    @TempDir
    Path dir;
    private Broker broker;
    private BrokerClientSender sender;

    @AfterEach
    void stop() {
        if (sender != null) {
            sender.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    /** Broker 7 at {@code port} on 127.0.0.1 (its INTERNAL listener), seen from broker 1. */
    private static ClusterView clusterWithBroker7At(int port) {
        TreeMap<Integer, BrokerRegistration> brokers = new TreeMap<>();
        brokers.put(7, new BrokerRegistration(7, 1, new UUID(0, 7), List.of(new Endpoint("PLAINTEXT", "192.0.2.1", 9092),
                new Endpoint("INTERNAL", "127.0.0.1", port)), null, false, false));
        ClusterImage image = new ClusterImage(5, "cluster", brokers, new TreeMap<>(), 0);
        return TestClusterView.of(image, 1, null);
    }

    @Test
    void aMarkerReachesTheOtherBrokerAtItsInterBrokerEndpointAndItsAnswerComesBack() throws Exception {
        broker = Broker.start(BrokerConfig.of(Map.of("node.id", "7", "listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", dir.toString())));
        sender = new BrokerClientSender(clusterWithBroker7At(broker.port()), "INTERNAL", "broker-1-txn-markers", 5_000, 10_000);

        Struct request = ClusterTransactionMarkerWriter.request(11L, (short) 0, 3, true, List.of(new TopicPartition("absent", 2)));
        Struct response = sender.send(7, WriteTxnMarkersApi.SPEC, (short) 1, request).join();

        Struct marker = response.get(WriteTxnMarkersApi.Response.MARKERS).get(0);
        assertThat(marker.get(WritableTxnMarkerResult.PRODUCER_ID)).isEqualTo(11L);
        Struct topic = marker.get(WritableTxnMarkerResult.TOPICS).get(0);
        assertThat(topic.get(WritableTxnMarkerTopicResult.NAME)).isEqualTo("absent");
        Struct partition = topic.get(WritableTxnMarkerTopicResult.PARTITIONS).get(0);
        assertThat(partition.get(WritableTxnMarkerPartitionResult.PARTITION_INDEX)).isEqualTo(2);
        assertThat(partition.get(WritableTxnMarkerPartitionResult.ERROR_CODE)).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code());
    }

    @Test
    void anUnreachableOrUnknownBrokerFailsTheCallSoTheCallerRetries() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        sender = new BrokerClientSender(clusterWithBroker7At(closedPort), "INTERNAL", "broker-1-txn-markers", 2_000, 2_000);
        Struct request = ClusterTransactionMarkerWriter.request(11L, (short) 0, 3, true, List.of(new TopicPartition("t", 0)));

        assertThatThrownBy(() -> sender.send(7, WriteTxnMarkersApi.SPEC, (short) 1, request).join())
                .hasRootCauseInstanceOf(java.net.ConnectException.class);
        assertThatThrownBy(() -> sender.send(8, WriteTxnMarkersApi.SPEC, (short) 1, request).join())
                .hasRootCauseMessage("broker 8 has no INTERNAL endpoint in the metadata");
    }
}
