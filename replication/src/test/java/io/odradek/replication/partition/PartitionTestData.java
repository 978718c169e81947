package io.odradek.replication.partition;

import io.odradek.wire.batch.RecordBatchBuilder;
import io.odradek.replication.cluster.PartitionRegistration;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Batches, registrations and waiting shared by the Partition tests. */
final class PartitionTestData {
    private PartitionTestData() {
    }

    /** A producer's batch at timestamp 1000: key "k-v" and value v per record. */
    static ByteBuffer batch(String... values) {
        RecordBatchBuilder b = new RecordBatchBuilder(1_000L);
        for (String v : values) {
            b.append(("k-" + v).getBytes(StandardCharsets.UTF_8), v.getBytes(StandardCharsets.UTF_8));
        }
        return b.build();
    }

    /** The partition replicated on brokers 1, 2 and 3, led by {@code leader}. */
    static PartitionRegistration onThreeBrokers(int leader, List<Integer> isr, int leaderEpoch, int partitionEpoch) {
        return new PartitionRegistration(List.of(1, 2, 3), isr, List.of(), List.of(), leader, leaderEpoch,
                partitionEpoch);
    }

    /** The future's value; fails the test after 5 s. */
    static <T> T await(CompletableFuture<T> future) {
        return future.orTimeout(5, TimeUnit.SECONDS).join();
    }
}
