package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The byte sequences of clients older than Kafka 2.1, written out by hand (Kafka 4's classes can no longer
 * build these versions): a 0.8-era client that never sends ApiVersions and speaks Metadata v0,
 * GroupCoordinator (FindCoordinator) v0, OffsetCommit v0 and OffsetFetch v0; a 0.9 consumer joining a
 * group at v0 and committing with OffsetCommit v1; and ApiVersions v0 as a 0.10 client opens with.
 */
class OldClientWireTest {
    private static final short METADATA = 3;
    private static final short OFFSET_COMMIT = 8;
    private static final short OFFSET_FETCH = 9;
    private static final short FIND_COORDINATOR = 10;
    private static final short JOIN_GROUP = 11;
    private static final short HEARTBEAT = 12;
    private static final short LEAVE_GROUP = 13;
    private static final short SYNC_GROUP = 14;
    private static final short API_VERSIONS = 18;
    private static final short COORDINATOR_LOAD_IN_PROGRESS = 14;
    private static final short COORDINATOR_NOT_AVAILABLE = 15;
    private static final short NOT_COORDINATOR = 16;

    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withConfig(Map.of("offsets.topic.num.partitions", "3",
            "group.initial.rebalance.delay.ms", "0"));

    @Test
    void aClientThatNeverSendsApiVersionsAutoCreatesATopicAndCommitsAndFetchesOffsetsAtVersionZero() throws Exception {
        try (RawConnection client = new RawConnection(BROKER.port())) {
            // Metadata v0 naming a topic that does not exist: created with num.partitions (v0-3 always allow it).
            ByteBuffer metadata = call(client, METADATA, 0, new Body().array(1).string("legacy-orders"));
            List<String> brokers = new ArrayList<>();
            for (int i = metadata.getInt(); i > 0; i--) {
                brokers.add(metadata.getInt() + "@" + string(metadata) + ":" + metadata.getInt());
            }
            assertThat(brokers).containsExactly("1@127.0.0.1:" + BROKER.port());
            assertThat(metadata.getInt()).as("topics").isEqualTo(1);
            assertThat(metadata.getShort()).as("topic error").isZero();
            assertThat(string(metadata)).isEqualTo("legacy-orders");
            assertThat(metadata.getInt()).as("partitions").isEqualTo(1);
            assertThat(metadata.getShort()).as("partition error").isZero();
            assertThat(metadata.getInt()).as("partition").isZero();
            assertThat(metadata.getInt()).as("leader").isEqualTo(1);
            assertThat(int32s(metadata)).as("replicas").containsExactly(1);
            assertThat(int32s(metadata)).as("isr").containsExactly(1);
            assertThat(metadata.remaining()).isZero();

            // GroupCoordinator v0 (FindCoordinator), retried while __consumer_offsets is being made.
            ByteBuffer coordinator = untilNoError(client, FIND_COORDINATOR, 0, new Body().string("zk-group"), 0);
            assertThat(coordinator.getInt()).as("coordinator node").isEqualTo(1);
            assertThat(string(coordinator)).isEqualTo("127.0.0.1");
            assertThat(coordinator.getInt()).isEqualTo(BROKER.port());

            // OffsetCommit v0: group, then topic -> partition, offset, metadata. No generation, no member.
            Body commit = new Body().string("zk-group").array(1).string("legacy-orders").array(1)
                    .int32(0).int64(42).string("from-0.8");
            ByteBuffer committed = untilNoError(client, OFFSET_COMMIT, 0, commit, -1);
            assertThat(committed.getInt()).isEqualTo(1);
            assertThat(string(committed)).isEqualTo("legacy-orders");
            assertThat(committed.getInt()).isEqualTo(1);
            assertThat(committed.getInt()).as("partition").isZero();
            assertThat(committed.getShort()).as("error").isZero();
            assertThat(committed.remaining()).isZero();

            // OffsetFetch v0 reads it back: partition, offset, metadata, error.
            ByteBuffer fetched = call(client, OFFSET_FETCH, 0, new Body().string("zk-group").array(1).string("legacy-orders")
                    .array(1).int32(0));
            assertThat(fetched.getInt()).isEqualTo(1);
            assertThat(string(fetched)).isEqualTo("legacy-orders");
            assertThat(fetched.getInt()).isEqualTo(1);
            assertThat(fetched.getInt()).isZero();
            assertThat(fetched.getLong()).as("offset").isEqualTo(42L);
            assertThat(string(fetched)).isEqualTo("from-0.8");
            assertThat(fetched.getShort()).as("error").isZero();
            assertThat(fetched.remaining()).isZero();
        }
        // Stored like any other commit: Kafka 4.4's admin client sees it.
        Map<TopicPartition, OffsetAndMetadata> offsets = BROKER.admin().listConsumerGroupOffsets("zk-group")
                .partitionsToOffsetAndMetadata().get();
        assertThat(offsets).containsOnlyKeys(new TopicPartition("legacy-orders", 0));
        assertThat(offsets.get(new TopicPartition("legacy-orders", 0)).offset()).isEqualTo(42L);
        assertThat(offsets.get(new TopicPartition("legacy-orders", 0)).metadata()).isEqualTo("from-0.8");
    }

    @Test
    void aV09ConsumerJoinsAtV0SyncsHeartbeatsAndCommitsWithV1() throws Exception {
        BROKER.createTopic("clicks", 2);
        try (RawConnection client = new RawConnection(BROKER.port())) {
            untilNoError(client, FIND_COORDINATOR, 0, new Body().string("v09-group"), 0);

            // JoinGroup v0: group, session timeout, member id "", protocol type, protocols (name, metadata).
            Body join = new Body().string("v09-group").int32(10_000).string("").string("consumer")
                    .array(1).string("range").bytes("clicks".getBytes(StandardCharsets.UTF_8));
            ByteBuffer joined = untilNoError(client, JOIN_GROUP, 0, join, 0);
            int generation = joined.getInt();
            assertThat(generation).isEqualTo(1);
            assertThat(string(joined)).as("protocol").isEqualTo("range");
            String leader = string(joined);
            String member = string(joined);
            assertThat(leader).isEqualTo(member).startsWith("compat-raw-");
            assertThat(joined.getInt()).as("members (the leader gets them)").isEqualTo(1);
            assertThat(string(joined)).isEqualTo(member);
            assertThat(new String(bytes(joined), StandardCharsets.UTF_8)).isEqualTo("clicks");

            // SyncGroup v0: the leader hands itself both partitions.
            Body sync = new Body().string("v09-group").int32(generation).string(member)
                    .array(1).string(member).bytes("clicks:0,1".getBytes(StandardCharsets.UTF_8));
            ByteBuffer synced = call(client, SYNC_GROUP, 0, sync);
            assertThat(synced.getShort()).isZero();
            assertThat(new String(bytes(synced), StandardCharsets.UTF_8)).isEqualTo("clicks:0,1");

            ByteBuffer heartbeat = call(client, HEARTBEAT, 0, new Body().string("v09-group").int32(generation).string(member));
            assertThat(heartbeat.getShort()).isZero();

            // OffsetCommit v1: group, generation, member, then partition, offset, commit timestamp, metadata.
            Body commit = new Body().string("v09-group").int32(generation).string(member).array(1).string("clicks").array(2)
                    .int32(0).int64(10).int64(-1).string("")
                    .int32(1).int64(20).int64(-1).string("p1");
            ByteBuffer committed = call(client, OFFSET_COMMIT, 1, commit);
            assertThat(committed.getInt()).isEqualTo(1);
            assertThat(string(committed)).isEqualTo("clicks");
            assertThat(committed.getInt()).isEqualTo(2);
            assertThat(committed.getInt() + ":" + committed.getShort() + " " + committed.getInt() + ":" + committed.getShort())
                    .isEqualTo("0:0 1:0");

            ByteBuffer left = call(client, LEAVE_GROUP, 0, new Body().string("v09-group").string(member));
            assertThat(left.getShort()).isZero();
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = BROKER.admin().listConsumerGroupOffsets("v09-group")
                .partitionsToOffsetAndMetadata().get();
        Map<String, String> seen = new LinkedHashMap<>();
        offsets.entrySet().stream().sorted(Map.Entry.comparingByKey((a, b) -> Integer.compare(a.partition(), b.partition())))
                .forEach(e -> seen.put(e.getKey().toString(), e.getValue().offset() + " '" + e.getValue().metadata() + "'"));
        assertThat(seen).containsExactly(Map.entry("clicks-0", "10 ''"), Map.entry("clicks-1", "20 'p1'"));
    }

    @Test
    void apiVersionsV0IsAnsweredWithoutThrottleTimeAndListsTheOldVersions() throws IOException {
        try (RawConnection client = new RawConnection(BROKER.port())) {
            ByteBuffer answer = call(client, API_VERSIONS, 0, new Body());
            assertThat(answer.getShort()).as("error").isZero();
            Map<Short, String> ranges = new LinkedHashMap<>();
            for (int i = answer.getInt(); i > 0; i--) {
                ranges.put(answer.getShort(), answer.getShort() + "-" + answer.getShort());
            }
            assertThat(answer.remaining()).as("nothing after the list at v0").isZero();
            assertThat(ranges).containsEntry((short) 0, "0-13").containsEntry((short) 1, "0-18")
                    .containsEntry(METADATA, "0-13").containsEntry(OFFSET_COMMIT, "0-10").containsEntry(OFFSET_FETCH, "0-10")
                    .containsEntry(FIND_COORDINATOR, "0-6").containsEntry(JOIN_GROUP, "0-9")
                    .containsEntry((short) 19, "0-7").containsEntry((short) 20, "0-6");
        }
    }

    @Test
    void metadataV0WithANullTopicListIsMalformedAndClosesTheConnection() throws IOException {
        try (RawConnection client = new RawConnection(BROKER.port())) {
            // Null (-1) means "all topics" only from v1; at v0 the array is not nullable (all topics is the empty list).
            Body frame = new Body().int16(METADATA).int16((short) 0).int32(RawConnection.nextCorrelationId()).string("compat-raw")
                    .array(-1);
            client.sendFrame(frame.bytes.toByteArray());
            assertThat(client.closedByBroker()).isTrue();
        }
        try (RawConnection client = new RawConnection(BROKER.port())) {
            ByteBuffer all = call(client, METADATA, 0, new Body().array(0));
            assertThat(all.getInt()).as("brokers").isEqualTo(1);
        }
    }

    // ------------------------------------------------------------------ helpers

    /** Sends a request (header v1: key, version, correlation id, client id) and returns the body of its answer. */
    private static ByteBuffer call(RawConnection client, short apiKey, int version, Body body) throws IOException {
        int correlationId = RawConnection.nextCorrelationId();
        Body frame = new Body().int16(apiKey).int16((short) version).int32(correlationId).string("compat-raw");
        frame.out.write(body.bytes.toByteArray());
        client.sendFrame(frame.bytes.toByteArray());
        ByteBuffer answer = ByteBuffer.wrap(client.readFrame());
        assertThat(answer.getInt()).as("correlation id").isEqualTo(correlationId);
        return answer;
    }

    /**
     * Repeats a request while the coordinator is being made or loaded (as an old client does); the error is
     * a top-level int16 at {@code errorAt} (0), or per partition (-1: OffsetCommit, checked on its first).
     */
    private static ByteBuffer untilNoError(RawConnection client, short apiKey, int version, Body body, int errorAt)
            throws IOException, InterruptedException {
        for (int attempt = 0; ; attempt++) {
            ByteBuffer answer = call(client, apiKey, version, body);
            short error = errorAt == 0 ? answer.getShort(answer.position()) : firstPartitionError(answer.duplicate());
            boolean retriable = error == COORDINATOR_NOT_AVAILABLE || error == COORDINATOR_LOAD_IN_PROGRESS || error == NOT_COORDINATOR;
            if (!retriable || attempt == 100) {
                assertThat(error).as("error of API %d v%d", apiKey, version).isZero();
                if (errorAt == 0) {
                    answer.getShort();
                }
                return answer;
            }
            Thread.sleep(100);
        }
    }

    private static short firstPartitionError(ByteBuffer commitV0) {
        commitV0.getInt();
        string(commitV0);
        commitV0.getInt();
        commitV0.getInt();
        return commitV0.getShort();
    }

    private static String string(ByteBuffer b) {
        short length = b.getShort();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] bytes = new byte[b.getInt()];
        b.get(bytes);
        return bytes;
    }

    private static List<Integer> int32s(ByteBuffer b) {
        List<Integer> out = new ArrayList<>();
        for (int i = b.getInt(); i > 0; i--) {
            out.add(b.getInt());
        }
        return out;
    }

    /** A request body in the classic (non-flexible) encoding. */
    private static final class Body {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream out = new DataOutputStream(bytes);

        Body int16(short v) throws IOException {
            out.writeShort(v);
            return this;
        }

        Body int32(int v) throws IOException {
            out.writeInt(v);
            return this;
        }

        Body int64(long v) throws IOException {
            out.writeLong(v);
            return this;
        }

        Body array(int count) throws IOException {
            return int32(count);
        }

        Body string(String s) throws IOException {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            out.writeShort(b.length);
            out.write(b);
            return this;
        }

        Body bytes(byte[] b) throws IOException {
            out.writeInt(b.length);
            out.write(b);
            return this;
        }
    }
}
