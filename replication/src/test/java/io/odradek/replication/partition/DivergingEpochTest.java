package io.odradek.replication.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.log.EpochEndOffset;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.wire.batch.RecordBatchBuilder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leader's DivergingEpoch answer (Kafka's Partition.fetchRecords check) over a log holding epoch 1 at
 * offsets 0-3 and epoch 3 at offsets 4-5.
 */
class DivergingEpochTest {
    private static final UUID TOPIC_ID = UUID.fromString("7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d");

    @TempDir
    Path dir;
    PartitionWriters writers;
    WaitingOperations<Partition> waiting;
    PartitionLog log;
    Partition leader;

    @BeforeEach
    void setUp() {
        writers = new PartitionWriters(1);
        waiting = new WaitingOperations<>("test");
        log = PartitionLog.open(dir.resolve("orders-0"), "orders", 0, LogConfig.defaults(),
                PartitionLog.Options.defaults().withTopicId(TOPIC_ID));
        leader = new Partition(log, TOPIC_ID, 1, new RecordingController(), () -> 1L, writers.writerFor("orders", 0),
                waiting);
        leader.makeLeader(registration(1, 1), 0);
        append("a", "b");
        append("c", "d");
        leader.makeLeader(registration(3, 2), 0);
        append("e", "f");
    }

    @AfterEach
    void tearDown() {
        writers.close();
        waiting.close();
        log.close();
    }

    private static PartitionRegistration registration(int leaderEpoch, int partitionEpoch) {
        return new PartitionRegistration(List.of(1), List.of(1), List.of(), List.of(), 1, leaderEpoch, partitionEpoch);
    }

    private void append(String... values) {
        RecordBatchBuilder b = new RecordBatchBuilder(1_000L);
        for (String v : values) {
            b.append(v.getBytes(StandardCharsets.UTF_8), v.getBytes(StandardCharsets.UTF_8));
        }
        ByteBuffer batch = b.build();
        leader.appendAsLeader(batch, (short) 1).orTimeout(5, TimeUnit.SECONDS).join();
    }

    @Test
    void aFollowerThatFetchedAnEpochTheLeaderNeverHadDivergesAtTheLargestEpochBelowIt() {
        assertThat(leader.divergingEpoch(2, 6)).contains(new EpochEndOffset(1, 4));
    }

    @Test
    void aFollowerPastTheEndOfItsLastEpochDivergesAtThatEnd() {
        assertThat(leader.divergingEpoch(1, 5)).contains(new EpochEndOffset(1, 4));
    }

    @Test
    void aFollowerConsistentWithTheLeaderDoesNotDiverge() {
        assertThat(leader.divergingEpoch(1, 4)).isEmpty();
        assertThat(leader.divergingEpoch(3, 6)).isEmpty();
        assertThat(leader.divergingEpoch(-1, 3)).isEmpty();
    }

    @Test
    void offsetForLeaderEpochAnswersWhereEachEpochEnded() {
        assertThat(leader.endOffsetForEpoch(1)).isEqualTo(new EpochEndOffset(1, 4));
        assertThat(leader.endOffsetForEpoch(2)).isEqualTo(new EpochEndOffset(1, 4));
        assertThat(leader.endOffsetForEpoch(3)).isEqualTo(new EpochEndOffset(3, 6));
    }
}
