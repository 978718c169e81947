package io.odradek.replication.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.runtime.CoordinatorLoader;
import io.odradek.coordinator.runtime.CoordinatorLog;
import io.odradek.coordinator.runtime.RecordSerde;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import io.odradek.wire.batch.RecordBatchHeader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A coordinator's transactional writes and markers through the replicated Partition, read back as load does. */
class PartitionCoordinatorLogTest {
    private static final int LEADER_EPOCH = 4;

    /** Records as plain strings: key "k", value the string. */
    private static final RecordSerde<String> SERDE = new RecordSerde<>() {
        @Override
        public byte[] key(String record) {
            return "k".getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public byte[] value(String record) {
            return record.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] key, byte[] value) {
            return new String(value, StandardCharsets.UTF_8);
        }
    };

    @TempDir
    Path dir;
    PartitionLog log;
    PartitionWriters writers;
    WaitingOperations<Partition> waiting;
    CoordinatorLog coordinatorLog;

    @BeforeEach
    void setUp() {
        log = PartitionLog.open(dir, "__consumer_offsets", 0, LogConfig.defaults());
        writers = new PartitionWriters(1);
        waiting = new WaitingOperations<>("test");
        coordinatorLog = new PartitionCoordinatorLog(new Partition(log, LEADER_EPOCH, Set.of(),
                writers.writerFor("__consumer_offsets", 0), waiting));
    }

    @AfterEach
    void tearDown() {
        writers.close();
        waiting.close();
        log.close();
    }

    private static <T> T await(CompletableFuture<T> future) {
        return future.orTimeout(5, TimeUnit.SECONDS).join();
    }

    @Test
    void aTransactionalBatchAndItsMarkerAreWrittenWithTheLeaderEpochAndLoadBackInOrder() {
        assertThat(await(coordinatorLog.append(CoordinatorLoader.transactionalBatch(SERDE, List.of("a", "b"), 1_000L, 9L, (short) 2))))
                .isEqualTo(2L);
        assertThat(await(coordinatorLog.append(CoordinatorLoader.batch(SERDE, List.of("plain"), 1_000L)))).isEqualTo(3L);
        assertThat(await(coordinatorLog.appendMarker(9L, (short) 2, 7, true))).isEqualTo(4L);

        ByteBuffer marker = log.read(3, 1 << 16).readIntoHeap();
        RecordBatchHeader h = new RecordBatchHeader(marker, marker.position());
        assertThat(h.isControlBatch()).isTrue();
        assertThat(h.producerId()).isEqualTo(9L);
        assertThat(h.partitionLeaderEpoch()).isEqualTo(LEADER_EPOCH);

        List<String> events = new ArrayList<>();
        CoordinatorLoader.replay(coordinatorLog, SERDE, new CoordinatorLoader.Sink<String>() {
            @Override
            public void record(long offset, long producerId, short producerEpoch, String record) {
                events.add(record + "@" + offset + (producerId < 0 ? "" : " of " + producerId + "/" + producerEpoch));
            }

            @Override
            public void endTransaction(long producerId, short producerEpoch, boolean commit) {
                events.add((commit ? "commit " : "abort ") + producerId + "/" + producerEpoch);
            }
        }, "__consumer_offsets-0");
        assertThat(events).containsExactly("a@0 of 9/2", "b@1 of 9/2", "plain@2", "commit 9/2");
    }
}
