package io.odradek.coordinator.share.partition;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ScheduledShareTimersTest {
    @Test
    void aTimerRunsOnTheDaemonTimerThread() throws InterruptedException {
        try (ScheduledShareTimers timers = new ScheduledShareTimers("test-share-timers")) {
            CountDownLatch ran = new CountDownLatch(1);
            AtomicReference<Thread> on = new AtomicReference<>();
            timers.schedule(20, () -> {
                on.set(Thread.currentThread());
                ran.countDown();
            });

            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(on.get().getName()).isEqualTo("test-share-timers");
            assertThat(on.get().isDaemon()).isTrue();
        }
    }

    @Test
    void aCancelledTimerLeavesTheQueueAtOnce() {
        try (ScheduledShareTimers timers = new ScheduledShareTimers("test-share-timers")) {
            ShareTimers.Timer kept = timers.schedule(600_000, () -> { });
            ShareTimers.Timer cancelled = timers.schedule(600_000, () -> { });

            cancelled.cancel();

            assertThat(timers.pending()).isEqualTo(1);
            kept.cancel();
            assertThat(timers.pending()).isZero();
        }
    }

    @Test
    void schedulingAfterCloseIsANoOp() {
        ScheduledShareTimers timers = new ScheduledShareTimers();
        timers.close();

        ShareTimers.Timer t = timers.schedule(1, () -> { });
        t.cancel();
        assertThat(timers.nowMs()).isPositive();
    }
}
