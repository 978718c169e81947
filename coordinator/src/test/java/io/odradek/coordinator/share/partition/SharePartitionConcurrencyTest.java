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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Three members fetching and acknowledging one partition at once, as three share consumers do. */
class SharePartitionConcurrencyTest {
    private static final int RECORDS = 3000;
    private static final int BATCH = 10;

    @Test
    void threeConcurrentMembersAcceptEveryRecordExactlyOnce() throws Exception {
        RecordingPersister persister = new RecordingPersister();
        persister.readAnswer = new PersistedShareState(ErrorCode.NONE, null, 1, 0, 0, List.of());
        AtomicInteger wakeups = new AtomicInteger();
        Map<Long, String> acceptedBy = new ConcurrentHashMap<>();
        Map<Long, Boolean> released = new ConcurrentHashMap<>();
        AtomicInteger doubleAccepts = new AtomicInteger();
        try (ScheduledShareTimers timers = new ScheduledShareTimers("test-share-timers")) {
            SharePartition p = new SharePartition(ShareFixture.KEY, new SharePartitionSettings(600_000, 5, 200, "earliest", false),
                    persister, timers, ts -> 0, wakeups::incrementAndGet);
            assertThat(p.initialize(0).join()).isEqualTo(ErrorCode.NONE);

            ExecutorService pool = Executors.newFixedThreadPool(3);
            List<Future<?>> members = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            AtomicBoolean failed = new AtomicBoolean();
            for (int m = 0; m < 3; m++) {
                String member = "member-" + m;
                members.add(pool.submit(() -> {
                    while (p.startOffset() < RECORDS && System.nanoTime() < deadline && !failed.get()) {
                        // Read where the partition says, as a broker does; other members move on meanwhile.
                        long from = p.nextFetchOffset();
                        List<LogBatch> log = new ArrayList<>();
                        for (long base = from - from % BATCH; base < Math.min(RECORDS, from + 50); base += BATCH) {
                            log.add(new LogBatch(base, base + BATCH - 1));
                        }
                        for (AcquiredRecords a : p.acquire(member, log, 30, RECORDS)) {
                            List<Acknowledgement> acks = new ArrayList<>();
                            for (long o = a.firstOffset(); o <= a.lastOffset(); o++) {
                                // Every 7th record is released once on its first delivery, then accepted.
                                boolean release = o % 7 == 0 && released.putIfAbsent(o, true) == null;
                                acks.add(new Acknowledgement(o, o, List.of(release ? AcknowledgeType.RELEASE : AcknowledgeType.ACCEPT)));
                            }
                            ErrorCode code = p.acknowledge(member, acks).join();
                            if (code != ErrorCode.NONE) {
                                failed.set(true);
                                throw new AssertionError(member + " acknowledging " + a + ": " + code);
                            }
                            for (Acknowledgement ack : acks) {
                                if (ack.types().get(0) == AcknowledgeType.ACCEPT && acceptedBy.putIfAbsent(ack.firstOffset(), member) != null) {
                                    doubleAccepts.incrementAndGet();
                                }
                            }
                        }
                    }
                }));
            }
            for (Future<?> f : members) {
                f.get(120, TimeUnit.SECONDS);
            }
            pool.shutdown();

            assertThat(doubleAccepts).hasValue(0);
            assertThat(acceptedBy).hasSize(RECORDS);
            assertThat(p.startOffset()).isEqualTo(RECORDS);
        }
    }
}
