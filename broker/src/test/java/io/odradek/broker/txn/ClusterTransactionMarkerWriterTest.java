package io.odradek.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.odradek.broker.coordinators.FakeCluster;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionMarkerWriter;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.WriteTxnMarkersApi;
import io.odradek.wire.api.WriteTxnMarkersApi.Request.WritableTxnMarker;
import io.odradek.wire.api.WriteTxnMarkersApi.Request.WritableTxnMarker.WritableTxnMarkerTopic;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult.WritableTxnMarkerPartitionResult;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The transaction coordinator's markers in a cluster: to each partition's leader, one request per broker. */
class ClusterTransactionMarkerWriterTest {
    private static final long PID = 4000;
    private static final short EPOCH = 3;
    private static final int COORDINATOR_EPOCH = 9;

    /** Broker 1's view: "orders" partitions led by 1, 2, 3, 2; "audit" 0 by 3, 1 by nobody. */
    private final FakeCluster cluster = new FakeCluster(1).withBrokers(1, 2, 3)
            .withTopic("orders", 1, 2, 3, 2)
            .withTopic("audit", 3, -1);
    private final List<Collection<TopicPartition>> localCalls = new ArrayList<>();
    private final TransactionMarkerWriter local = (pid, epoch, coordinatorEpoch, commit, partitions) -> {
        localCalls.add(List.copyOf(partitions));
        Map<TopicPartition, ErrorCode> out = new LinkedHashMap<>();
        partitions.forEach(tp -> out.put(tp, ErrorCode.NONE));
        return CompletableFuture.completedFuture(out);
    };

    private static TopicPartition tp(String topic, int partition) {
        return new TopicPartition(topic, partition);
    }

    /** A WriteTxnMarkers answer: every partition of the request with {@code error}, unless named in {@code errors}. */
    private static Function<Struct, Struct> answering(Map<TopicPartition, ErrorCode> errors) {
        return request -> {
            Struct response = WriteTxnMarkersApi.Response.SCHEMA.newStruct();
            for (Struct marker : request.get(WriteTxnMarkersApi.Request.MARKERS)) {
                Struct result = response.add(WriteTxnMarkersApi.Response.MARKERS)
                        .set(WritableTxnMarkerResult.PRODUCER_ID, marker.get(WritableTxnMarker.PRODUCER_ID));
                for (Struct topic : marker.get(WritableTxnMarker.TOPICS)) {
                    String name = topic.get(WritableTxnMarkerTopic.NAME);
                    Struct topicResult = result.add(WritableTxnMarkerResult.TOPICS).set(WritableTxnMarkerTopicResult.NAME, name);
                    for (int p : topic.get(WritableTxnMarkerTopic.PARTITION_INDEXES)) {
                        topicResult.add(WritableTxnMarkerTopicResult.PARTITIONS)
                                .set(WritableTxnMarkerPartitionResult.PARTITION_INDEX, p)
                                .set(WritableTxnMarkerPartitionResult.ERROR_CODE,
                                        errors.getOrDefault(tp(name, p), ErrorCode.NONE).code());
                    }
                }
            }
            return response;
        };
    }

    @Test
    void markersGoToEachPartitionsLeaderInOneRequestPerBroker() {
        RecordingSender sender = new RecordingSender()
                .answering(2, answering(Map.of(tp("orders", 3), ErrorCode.NOT_LEADER_OR_FOLLOWER)))
                .answering(3, answering(Map.of()));
        ClusterTransactionMarkerWriter writer = new ClusterTransactionMarkerWriter(cluster, local, sender);

        Map<TopicPartition, ErrorCode> errors = writer.writeMarkers(PID, EPOCH, COORDINATOR_EPOCH, true,
                List.of(tp("orders", 0), tp("orders", 1), tp("orders", 2), tp("orders", 3), tp("audit", 0))).join();

        assertThat(errors).containsExactly(entry(tp("orders", 0), ErrorCode.NONE), entry(tp("orders", 1), ErrorCode.NONE),
                entry(tp("orders", 2), ErrorCode.NONE), entry(tp("orders", 3), ErrorCode.NOT_LEADER_OR_FOLLOWER),
                entry(tp("audit", 0), ErrorCode.NONE));
        assertThat(localCalls).containsExactly(List.of(tp("orders", 0)));
        assertThat(sender.sent).extracting(RecordingSender.Sent::brokerId).containsExactly(2, 3);
        assertThat(sender.sent).allSatisfy(s -> {
            assertThat(s.api()).isEqualTo(WriteTxnMarkersApi.SPEC);
            assertThat(s.version()).isEqualTo((short) 1);
        });

        List<Struct> toBroker2 = sender.sent.get(0).request().get(WriteTxnMarkersApi.Request.MARKERS);
        assertThat(toBroker2).hasSize(1);
        Struct marker = toBroker2.get(0);
        assertThat(marker.get(WritableTxnMarker.PRODUCER_ID)).isEqualTo(PID);
        assertThat(marker.get(WritableTxnMarker.PRODUCER_EPOCH)).isEqualTo(EPOCH);
        assertThat(marker.get(WritableTxnMarker.TRANSACTION_RESULT)).isTrue();
        assertThat(marker.get(WritableTxnMarker.COORDINATOR_EPOCH)).isEqualTo(COORDINATOR_EPOCH);
        assertThat(marker.get(WritableTxnMarker.TOPICS)).hasSize(1);
        assertThat(marker.get(WritableTxnMarker.TOPICS).get(0).get(WritableTxnMarkerTopic.NAME)).isEqualTo("orders");
        assertThat(marker.get(WritableTxnMarker.TOPICS).get(0).get(WritableTxnMarkerTopic.PARTITION_INDEXES)).containsExactly(1, 3);

        Struct toBroker3 = sender.sent.get(1).request().get(WriteTxnMarkersApi.Request.MARKERS).get(0);
        assertThat(toBroker3.get(WritableTxnMarker.TOPICS)).extracting(t -> t.get(WritableTxnMarkerTopic.NAME))
                .containsExactly("orders", "audit");
        assertThat(toBroker3.get(WritableTxnMarker.TOPICS)).extracting(t -> t.get(WritableTxnMarkerTopic.PARTITION_INDEXES))
                .containsExactly(List.of(2), List.of(0));
    }

    @Test
    void anUnreachableLeaderAndALeaderlessPartitionAreRetriedAndADeletedOneIsSkipped() {
        RecordingSender sender = new RecordingSender().answering(3, answering(Map.of())); // broker 2 is down
        ClusterTransactionMarkerWriter writer = new ClusterTransactionMarkerWriter(cluster, local, sender);

        Map<TopicPartition, ErrorCode> errors = writer.writeMarkers(PID, EPOCH, COORDINATOR_EPOCH, false,
                List.of(tp("orders", 1), tp("audit", 1), tp("gone", 0), tp("orders", 7))).join();

        assertThat(errors).containsExactly(entry(tp("orders", 1), ErrorCode.NOT_LEADER_OR_FOLLOWER),
                entry(tp("audit", 1), ErrorCode.NOT_LEADER_OR_FOLLOWER), entry(tp("gone", 0), ErrorCode.NONE),
                entry(tp("orders", 7), ErrorCode.NONE));
        assertThat(sender.sent).extracting(RecordingSender.Sent::brokerId).containsExactly(2);
        assertThat(sender.sent.get(0).request().get(WriteTxnMarkersApi.Request.MARKERS).get(0)
                .get(WritableTxnMarker.TRANSACTION_RESULT)).isFalse();
        assertThat(localCalls).isEmpty();
    }

    @Test
    void aLeaderThatMovedIsAskedOnTheRetry() {
        RecordingSender sender = new RecordingSender().answering(2, answering(Map.of())).answering(3, answering(Map.of()));
        ClusterTransactionMarkerWriter writer = new ClusterTransactionMarkerWriter(cluster, local, sender);
        writer.writeMarkers(PID, EPOCH, COORDINATOR_EPOCH, true, List.of(tp("orders", 1))).join();

        cluster.withTopic("orders", 1, 3, 3, 2); // orders-1 now led by broker 3
        writer.writeMarkers(PID, EPOCH, COORDINATOR_EPOCH, true, List.of(tp("orders", 1))).join();

        assertThat(sender.sent).extracting(RecordingSender.Sent::brokerId).containsExactly(2, 3);
    }
}
