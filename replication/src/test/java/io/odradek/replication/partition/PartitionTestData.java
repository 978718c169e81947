package io.odradek.replication.partition;

import io.odradek.wire.batch.RecordBatchBuilder;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import io.odradek.replication.cluster.PartitionRegistration;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Batches, registrations and waiting shared by the Partition tests. */
final class PartitionTestData {
    /** The id of the "orders" topic the tests' logs belong to. */
    static final UUID TOPIC_ID = UUID.fromString("5f0c6c3e-9a57-4a8e-8f0f-3d1c2b7a9e11");

    private PartitionTestData() {
    }

    /** Broker {@code broker}'s log of orders-0 under {@code dir}, with these topic configs over the defaults. */
    static PartitionLog openOrdersLog(Path dir, String broker, Map<String, String> topicConfig) {
        return PartitionLog.open(dir.resolve(broker).resolve("orders-0"), "orders", 0,
                LogConfig.defaults().with(topicConfig), PartitionLog.Options.defaults().withTopicId(TOPIC_ID));
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
