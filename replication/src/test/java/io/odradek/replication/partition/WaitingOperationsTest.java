package io.odradek.replication.partition;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WaitingOperationsTest {
    private final WaitingOperations<String> waiting = new WaitingOperations<>("test");

    @AfterEach
    void tearDown() {
        waiting.close();
    }

    /** An operation that is ready once {@code ready} is set; records every completion. */
    private static final class Probe extends DelayedOperation {
        volatile boolean ready;
        final AtomicInteger completions = new AtomicInteger();
        final CompletableFuture<Outcome> outcome = new CompletableFuture<>();

        Probe(long timeoutMs) {
            super(timeoutMs, DelayedOperation.INLINE);
        }

        @Override
        protected boolean canComplete() {
            return ready;
        }

        @Override
        protected void onComplete(Outcome o) {
            completions.incrementAndGet();
            outcome.complete(o);
        }

        Outcome await() {
            return outcome.orTimeout(5, TimeUnit.SECONDS).join();
        }
    }

    @Test
    void anOperationWatchingSeveralPartitionsCompletesOnceOnTheFirstSufficientWake() {
        Probe op = new Probe(60_000);
        waiting.watch(op, List.of("orders-0", "orders-1"));
        assertThat(waiting.watching("orders-0")).isEqualTo(1);
        assertThat(waiting.watching("orders-1")).isEqualTo(1);

        waiting.wake("orders-0");
        assertThat(op.isDone()).isFalse();

        op.ready = true;
        waiting.wake("orders-1");
        waiting.wake("orders-0");

        assertThat(op.await()).isEqualTo(DelayedOperation.Outcome.SATISFIED);
        assertThat(op.completions).hasValue(1);
        assertThat(waiting.watching("orders-0")).isZero();
        assertThat(waiting.watching("orders-1")).isZero();
        assertThat(waiting.watchedKeys()).isZero();
    }

    @Test
    void anOperationAlreadyReadyWhenParkedCompletesAtOnce() {
        Probe op = new Probe(60_000);
        op.ready = true;
        waiting.watch(op, List.of("orders-0"));
        assertThat(op.await()).isEqualTo(DelayedOperation.Outcome.SATISFIED);
        assertThat(waiting.watchedKeys()).isZero();
    }

    @Test
    void aTimeoutExpiresTheOperationAndUnwatchesIt() {
        Probe op = new Probe(50);
        waiting.watch(op, List.of("orders-0", "orders-1"));
        assertThat(op.await()).isEqualTo(DelayedOperation.Outcome.EXPIRED);
        assertThat(waiting.watchedKeys()).isZero();

        op.ready = true;
        waiting.wake("orders-0");
        assertThat(op.completions).hasValue(1);
    }

    @Test
    void cancellingEndsTheOperationOnceAndRunsItsCleanup() {
        Probe op = new Probe(60_000);
        AtomicInteger cleanups = new AtomicInteger();
        waiting.watch(op, List.of("orders-0"));
        op.whenDone(cleanups::incrementAndGet);

        assertThat(op.cancel()).isTrue();
        assertThat(op.cancel()).isFalse();

        assertThat(op.await()).isEqualTo(DelayedOperation.Outcome.CANCELLED);
        assertThat(cleanups).hasValue(1);
        assertThat(waiting.watching("orders-0")).isZero();
    }

    @Test
    void aCleanupAddedAfterTheEndRunsAtOnce() {
        Probe op = new Probe(60_000);
        op.ready = true;
        waiting.watch(op, List.of("orders-0"));
        op.await();
        AtomicInteger cleanups = new AtomicInteger();
        op.whenDone(cleanups::incrementAndGet);
        assertThat(cleanups).hasValue(1);
    }

    @Test
    void aCheckThatThrowsFailsTheOperation() {
        DelayedOperation op = new DelayedOperation(60_000, DelayedOperation.INLINE) {
            @Override
            protected boolean canComplete() {
                throw new IllegalStateException("log closed");
            }

            @Override
            protected void onComplete(Outcome outcome) {
                assertThat(outcome).isEqualTo(Outcome.FAILED);
                assertThat(failure()).hasMessage("log closed");
            }
        };
        waiting.watch(op, List.of("orders-0"));
        assertThat(op.isDone()).isTrue();
        assertThat(waiting.watchedKeys()).isZero();
    }

    @Test
    void closingTheSetCancelsWhatIsStillParked() {
        Probe op = new Probe(-1);
        waiting.watch(op, List.of("orders-0"));
        waiting.close();
        assertThat(op.await()).isEqualTo(DelayedOperation.Outcome.CANCELLED);
    }
}
