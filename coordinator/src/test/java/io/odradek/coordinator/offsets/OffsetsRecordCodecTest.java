package io.odradek.coordinator.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.runtime.CoordinatorLoader;
import io.odradek.coordinator.runtime.CoordinatorLog;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OffsetsRecordCodecTest {
    @TempDir
    Path dir;

    @Test
    void anOffsetCommitIsWrittenInKafkasLayout() {
        OffsetsRecord.OffsetCommit commit = new OffsetsRecord.OffsetCommit("g", new TopicPartition("t", 3),
                new OffsetAndMetadata(42L, 7, "m", 1000L, -1L));
        // OffsetCommitKey: type 1, then group, topic (int16-length strings) and partition.
        ByteBuffer key = ByteBuffer.allocate(2 + 3 + 3 + 4).putShort((short) 1)
                .putShort((short) 1).put((byte) 'g').putShort((short) 1).put((byte) 't').putInt(3);
        assertThat(OffsetsRecordCodec.key(commit)).isEqualTo(key.array());
        // OffsetCommitValue v3: offset, leaderEpoch, metadata, commitTimestamp.
        ByteBuffer value = ByteBuffer.allocate(2 + 8 + 4 + 3 + 8).putShort((short) 3)
                .putLong(42L).putInt(7).putShort((short) 1).put((byte) 'm').putLong(1000L);
        assertThat(OffsetsRecordCodec.value(commit)).isEqualTo(value.array());

        assertThat(OffsetsRecordCodec.decode(key.array(), value.array())).isEqualTo(commit);
        assertThat(OffsetsRecordCodec.decode(key.array(), null))
                .isEqualTo(new OffsetsRecord.OffsetCommit("g", new TopicPartition("t", 3), null));
    }

    @Test
    void anExplicitExpiryIsWrittenAsVersionOne() {
        OffsetsRecord.OffsetCommit commit = new OffsetsRecord.OffsetCommit("g", new TopicPartition("t", 0),
                new OffsetAndMetadata(1L, -1, "", 1000L, 5000L));
        byte[] value = OffsetsRecordCodec.value(commit);
        assertThat(ByteBuffer.wrap(value).getShort()).isEqualTo((short) 1);
        OffsetsRecord.OffsetCommit back = (OffsetsRecord.OffsetCommit) OffsetsRecordCodec.decode(OffsetsRecordCodec.key(commit), value);
        assertThat(back.value().expireTimestampMs()).isEqualTo(5000L);
        assertThat(back.value().leaderEpoch()).isEqualTo(-1);
    }

    @Test
    void groupMetadataRoundTripsWithStaticAndDynamicMembers() {
        StoredGroup group = new StoredGroup("consumer", 4, "range", "m1", 123L, List.of(
                new StoredGroup.StoredMember("m1", null, "c1", "/127.0.0.1", 30000, 10000, bytes("sub1"), bytes("as1")),
                new StoredGroup.StoredMember("m2", "instance-2", "c2", "/127.0.0.2", 30000, 10000, bytes("sub2"), bytes("as2"))));
        OffsetsRecord.GroupMetadata record = new OffsetsRecord.GroupMetadata("g", group);
        byte[] key = OffsetsRecordCodec.key(record);
        assertThat(key).isEqualTo(new byte[] {0, 2, 0, 1, 'g'});
        OffsetsRecord.GroupMetadata back = (OffsetsRecord.GroupMetadata) OffsetsRecordCodec.decode(key, OffsetsRecordCodec.value(record));
        assertThat(back.value().generation()).isEqualTo(4);
        assertThat(back.value().protocol()).isEqualTo("range");
        assertThat(back.value().leader()).isEqualTo("m1");
        assertThat(back.value().currentStateTimestamp()).isEqualTo(123L);
        assertThat(back.value().members()).extracting(StoredGroup.StoredMember::groupInstanceId).containsExactly(null, "instance-2");
        assertThat(back.value().members().get(1).assignment()).isEqualTo(bytes("as2"));

        StoredGroup empty = new StoredGroup("consumer", 5, null, null, 124L, List.of());
        OffsetsRecord.GroupMetadata emptyBack = (OffsetsRecord.GroupMetadata) OffsetsRecordCodec.decode(key,
                OffsetsRecordCodec.value(new OffsetsRecord.GroupMetadata("g", empty)));
        assertThat(emptyBack.value().protocol()).isNull();
        assertThat(emptyBack.value().members()).isEmpty();
    }

    @Test
    void recordsOfTypesWeDoNotKeepAreSkipped() {
        // 4: KIP-848 partition metadata (replaced by the group's metadata hash); 9: share group metadata.
        assertThat(OffsetsRecordCodec.decode(new byte[] {0, 4, 0, 1, 'g'}, new byte[] {0, 0})).isNull();
        assertThat(OffsetsRecordCodec.decode(new byte[] {0, 9, 0, 1, 'g'}, new byte[] {0, 0})).isNull();
    }

    @Test
    void theLogReplaysEveryAppendedRecordInOrder() {
        try (PartitionLog partition = PartitionLog.open(dir, OffsetsTopic.NAME, 0, LogConfig.defaults())) {
            CoordinatorLog log = new PartitionLogCoordinatorLog(partition);
            TopicPartition tp = new TopicPartition("t", 0);
            for (int i = 0; i < 500; i++) {
                append(log, List.of(new OffsetsRecord.OffsetCommit("g" + (i % 7), tp,
                        new OffsetAndMetadata(i, -1, "x".repeat(2000), i, -1))), i);
            }
            append(log, List.of(new OffsetsRecord.OffsetCommit("g0", tp, null), new OffsetsRecord.GroupMetadata("g0", null)), 600);
            List<OffsetsRecord> replayed = new ArrayList<>();
            assertThat(CoordinatorLoader.replay(log, OffsetsRecordCodec.SERDE, replayed::add, "t-0")).isEqualTo(502);
            assertThat(((OffsetsRecord.OffsetCommit) replayed.get(499)).value().offset()).isEqualTo(499L);
            assertThat(replayed.get(501)).isEqualTo(new OffsetsRecord.GroupMetadata("g0", null));
        }
    }

    @Test
    void groupsMapToPartitionsByJavaStringHashAsInKafka() {
        assertThat(OffsetsTopic.partitionFor("my-group", 50)).isEqualTo(Math.abs("my-group".hashCode()) % 50);
        // "polygenelubricants".hashCode() is Integer.MIN_VALUE: Kafka's Utils.abs maps it to 0.
        assertThat("polygenelubricants".hashCode()).isEqualTo(Integer.MIN_VALUE);
        assertThat(OffsetsTopic.partitionFor("polygenelubricants", 50)).isZero();
    }

    private static void append(CoordinatorLog log, List<OffsetsRecord> records, long nowMs) {
        log.append(CoordinatorLoader.batch(OffsetsRecordCodec.SERDE, records, nowMs)).join();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
