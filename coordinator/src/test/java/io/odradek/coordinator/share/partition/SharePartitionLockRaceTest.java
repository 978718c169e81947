package io.odradek.coordinator.share.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Locks timing out (on the real timer thread) while members acknowledge: never a record acknowledged twice. */
class SharePartitionLockRaceTest {
    private static final int RECORDS = 600;
    private static final int BATCH = 10;
    private static final long LOCK_MS = 5;

    @Test
    void recordsTimingOutWhileBeingAcknowledgedAreAcknowledgedAtMostOnceAndAllEndUpDone() throws Exception {
        RecordingPersister persister = new RecordingPersister();
        persister.readAnswer = new PersistedShareState(ErrorCode.NONE, null, 1, 0, 0, List.of());
        AtomicInteger refused = new AtomicInteger();
        try (ScheduledShareTimers timers = new ScheduledShareTimers("test-share-timers")) {
            SharePartition p = new SharePartition(ShareFixture.KEY, new SharePartitionSettings(LOCK_MS, 5, 300, "earliest", false),
                    persister, timers, ts -> 0, () -> { });
            assertThat(p.initialize(0).join()).isEqualTo(ErrorCode.NONE);

            ExecutorService pool = Executors.newFixedThreadPool(3);
            List<Future<?>> members = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (int m = 0; m < 3; m++) {
                String member = "member-" + m;
                members.add(pool.submit(() -> {
                    try {
                    while (p.startOffset() < RECORDS && System.nanoTime() < deadline) {
                        long from = p.nextFetchOffset();
                        List<LogBatch> log = new ArrayList<>();
                        for (long base = from - from % BATCH; base < Math.min(RECORDS, from + 50); base += BATCH) {
                            log.add(new LogBatch(base, base + BATCH - 1));
                        }
                        for (AcquiredRecords a : p.acquire(member, log, 30, RECORDS)) {
                            // Sometimes slower than the lock: the acknowledgement then races the timeout.
                            Thread.sleep(ThreadLocalRandom.current().nextInt(2 * (int) LOCK_MS));
                            List<Acknowledgement> acks = List.of(new Acknowledgement(a.firstOffset(), a.lastOffset(), List.of(AcknowledgeType.ACCEPT)));
                            if (p.acknowledge(member, acks).join() != ErrorCode.NONE) {
                                refused.incrementAndGet(); // the lock expired first: delivered again later
                            }
                            // NONE also when the records were meanwhile redelivered and finished by another
                            // member (acknowledgements below the start offset are ignored, as in Kafka).
                        }
                    }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            for (Future<?> f : members) {
                f.get(120, TimeUnit.SECONDS);
            }
            pool.shutdown();

            // What was persisted: every offset acknowledged at most once, and all of them done.
            Map<Long, Integer> acknowledged = new HashMap<>();
            synchronized (persister.writes) {
                for (RecordingPersister.Write w : persister.writes) {
                    for (StateBatch b : w.batches()) {
                        for (long o = b.firstOffset(); o <= b.lastOffset(); o++) {
                            if (b.deliveryState() == StateBatch.ACKNOWLEDGED) {
                                acknowledged.merge(o, 1, Integer::sum);
                            }
                        }
                    }
                }
            }
            assertThat(acknowledged.values()).allMatch(n -> n == 1);
            assertThat(p.startOffset()).as("every record acknowledged or archived at the delivery limit").isEqualTo(RECORDS);
        }
    }
}
