package io.odradek.log;

import static io.odradek.log.Batches.idempotent;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProducerExpiryTest {
    private static final long EXPIRATION_MS = 86_400_000L; // Kafka's producer.id.expiration.ms
    private static final long IDLE = 1000L;
    private static final long ACTIVE = 2000L;
    private static final short EPOCH = 0;

    @TempDir
    Path logDir;

    private final LogFixture.ManualClock clock = new LogFixture.ManualClock(0L);

    private PartitionLog open() {
        return PartitionLog.open(logDir, "t", 0, LogConfig.defaults(), PartitionLog.Options.defaults().withClock(clock));
    }

    @Test
    void producersIdleForTheExpirationAreForgottenAndTheOthersKept() {
        try (PartitionLog log = open()) {
            log.append(idempotent(IDLE, EPOCH, 0, 1_000L, "a"), 0);
            log.append(idempotent(ACTIVE, EPOCH, 0, 5_000L, "b"), 0);

            assertThat(log.removeExpiredProducers(1_000L + EXPIRATION_MS - 1, EXPIRATION_MS)).isZero();
            assertThat(log.removeExpiredProducers(1_000L + EXPIRATION_MS, EXPIRATION_MS)).isEqualTo(1);

            assertThat(log.producerState().producers().keySet()).containsExactly(ACTIVE);
            // The forgotten producer is a new one now: any sequence is accepted, as Kafka does after expiry.
            clock.set(1_000L + EXPIRATION_MS); // a day later, so the record's timestamp is not in the future
            assertThat(log.append(idempotent(IDLE, EPOCH, 7, 1_000L + EXPIRATION_MS, "c"), 0).baseOffset()).isEqualTo(2L);
        }
    }

    @Test
    void theNextSnapshotNoLongerCarriesAnExpiredProducer() {
        try (PartitionLog log = open()) {
            log.append(idempotent(IDLE, EPOCH, 0, 1_000L, "a"), 0);
            log.append(idempotent(ACTIVE, EPOCH, 0, 5_000L, "b"), 0);
            log.removeExpiredProducers(3_000L + EXPIRATION_MS, EXPIRATION_MS);
        } // a clean close writes the snapshot
        try (PartitionLog log = open()) {
            assertThat(log.producerState().producers().keySet()).containsExactly(ACTIVE);
            assertThat(log.producerState().entry(ACTIVE).lastTimestamp()).isEqualTo(5_000L);
        }
    }

    @Test
    void eachBatchOfAProducerRestartsItsIdleTime() {
        try (PartitionLog log = open()) {
            log.append(idempotent(ACTIVE, EPOCH, 0, 1_000L, "a"), 0);
            log.append(idempotent(ACTIVE, EPOCH, 1, 9_000L, "b"), 0);

            assertThat(log.removeExpiredProducers(1_000L + EXPIRATION_MS, EXPIRATION_MS)).isZero();
            assertThat(log.producerState().entry(ACTIVE).lastTimestamp()).isEqualTo(9_000L);
        }
    }

    @Test
    void theLogManagerChecksEveryIntervalWithItsClock() throws Exception {
        LogManager.Background background = new LogManager.Background(1, 0, 1, 60_000L, 20L);
        try (LogManager manager = LogManager.open(List.of(logDir), LogConfig.defaults(), topic -> Map.of(),
                300_000L, LogManager.DEFAULT_INDEX_IDLE_UNMAP_MS, clock, background)) {
            PartitionLog log = manager.create("t", 0, UUID.randomUUID(), Map.of());
            log.append(idempotent(IDLE, EPOCH, 0, 0L, "a"), 0);
            Thread.sleep(100); // several checks pass: the producer is not idle long enough yet
            assertThat(log.producerState().producers()).containsOnlyKeys(IDLE);

            clock.set(60_000L);

            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!log.producerState().producers().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(log.producerState().producers()).isEmpty();
        }
    }
}
