package io.odradek.coordinator.share.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Locks timing out (on the real timer thread) while members acknowledge: never a record accepted twice. */
class SharePartitionLockRaceTest {
    private static final int RECORDS = 600;
    private static final int BATCH = 10;
    private static final long LOCK_MS = 5;

    @Test
    void recordsTimingOutWhileBeingAcknowledgedAreAcceptedAtMostOnceAndAllEndUpDone() throws Exception {
        RecordingPersister persister = new RecordingPersister();
        persister.readAnswer = new PersistedShareState(ErrorCode.NONE, null, 1, 0, 0, List.of());
        Map<Long, String> acceptedBy = new ConcurrentHashMap<>();
        AtomicInteger doubleAccepts = new AtomicInteger();
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
                                continue;
                            }
                            for (long o = a.firstOffset(); o <= a.lastOffset(); o++) {
                                if (acceptedBy.putIfAbsent(o, member) != null) {
                                    doubleAccepts.incrementAndGet();
                                }
                            }
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

            assertThat(doubleAccepts).hasValue(0);
            assertThat(p.startOffset()).as("every record accepted or archived at the delivery limit").isEqualTo(RECORDS);
            assertThat(acceptedBy.size()).isLessThanOrEqualTo(RECORDS);
        }
    }
}
