package io.odradek.coordinator.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.runtime.CoordinatorLoader;
import io.odradek.coordinator.runtime.CoordinatorLog;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OffsetsLogCompactionTest {
    @TempDir
    Path logDir;

    private PartitionLog open() {
        return PartitionLog.open(logDir, OffsetsTopic.NAME, 0, LogConfig.defaults().with(Map.of(
                LogConfig.CLEANUP_POLICY, "compact", LogConfig.RETENTION_MS, "-1",
                LogConfig.SEGMENT_BYTES, "4096", LogConfig.FILE_DELETE_DELAY_MS, "0")));
    }

    /** group/topic-partition -> committed offset, as the coordinator's replay leaves it. */
    private static Map<String, Long> committed(CoordinatorLog log) {
        Map<String, Long> state = new HashMap<>();
        CoordinatorLoader.replay(log, OffsetsRecordCodec.SERDE, r -> {
            if (r instanceof OffsetsRecord.OffsetCommit c) {
                String key = c.groupId() + "/" + c.partition().topic() + "-" + c.partition().partition();
                if (c.value() == null) {
                    state.remove(key);
                } else {
                    state.put(key, c.value().offset());
                }
            }
        }, OffsetsTopic.NAME + "-0");
        return state;
    }

    /** One batch, as the coordinator runtime writes a write operation's records. */
    private static void append(CoordinatorLog log, List<? extends OffsetsRecord> records, long nowMs) {
        log.append(CoordinatorLoader.batch(OffsetsRecordCodec.SERDE, List.copyOf(records), nowMs)).join();
    }

    @Test
    void replayAfterCompactionYieldsTheSameCommittedOffsets() {
        Map<String, Long> before;
        try (PartitionLog partition = open()) {
            CoordinatorLog log = new PartitionLogCoordinatorLog(partition);
            for (int round = 0; round < 60; round++) {
                List<OffsetsRecord> commits = new ArrayList<>();
                for (int g = 0; g < 5; g++) {
                    for (int p = 0; p < 4; p++) {
                        commits.add(new OffsetsRecord.OffsetCommit("group-" + g, new TopicPartition("orders", p),
                                new OffsetAndMetadata(round * 100L + p, -1, "", 1_000L + round, -1L)));
                    }
                }
                append(log, commits, 1_000L + round);
            }
            // group-4 deletes its offsets of partition 0 (a tombstone)
            append(log, List.of(new OffsetsRecord.OffsetCommit("group-4", new TopicPartition("orders", 0), null)), 2_000L);
            for (int round = 0; round < 20; round++) { // more commits of group-0, so the tombstone leaves the active segment
                append(log, List.of(new OffsetsRecord.OffsetCommit("group-0", new TopicPartition("orders", 1),
                        new OffsetAndMetadata(10_000L + round, -1, "", 3_000L, -1L))), 3_000L);
            }
            before = committed(log);
            assertThat(before).hasSize(19).containsEntry("group-0/orders-1", 10_019L)
                    .containsEntry("group-3/orders-2", 5_902L).doesNotContainKey("group-4/orders-0");
            long size = partition.sizeInBytes();
            long leo = partition.logEndOffset();

            assertThat(partition.clean(5_000L)).isPositive();

            assertThat(partition.sizeInBytes()).isLessThan(size / 3);
            assertThat(partition.logEndOffset()).isEqualTo(leo);
            assertThat(committed(log)).isEqualTo(before);
        }
        try (PartitionLog reopened = open()) {
            assertThat(committed(new PartitionLogCoordinatorLog(reopened))).isEqualTo(before);
        }
    }
}
