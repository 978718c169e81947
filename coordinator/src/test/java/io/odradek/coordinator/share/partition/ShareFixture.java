package io.odradek.coordinator.share.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** One share partition over a manual clock and a recording persister, with small builders for batches and acks. */
final class ShareFixture {
    static final SharePartitionKey KEY = new SharePartitionKey("queue", new UUID(7, 9), 0);
    static final long LOCK_MS = 30_000;
    static final long NOW = 1_700_000_000_000L;
    static final long EARLIEST = 0;
    static final long LATEST = 100;

    final ManualTimers timers = new ManualTimers(NOW);
    final RecordingPersister persister = new RecordingPersister();
    final AtomicInteger wakeups = new AtomicInteger();
    final List<Long> resetLookups = new ArrayList<>();
    SharePartition partition;

    static SharePartitionSettings settings(int deliveryCountLimit, int maxInFlight, String reset) {
        return new SharePartitionSettings(LOCK_MS, deliveryCountLimit, maxInFlight, reset, false);
    }

    /** A partition initialized from a persisted start offset (no in-flight batches). */
    static ShareFixture startedAt(long startOffset) {
        return startedAt(startOffset, settings(5, 2000, "latest"));
    }

    static ShareFixture startedAt(long startOffset, SharePartitionSettings settings) {
        ShareFixture f = new ShareFixture();
        f.persister.readAnswer = new PersistedShareState(ErrorCode.NONE, null, 1, startOffset, 0, List.of());
        f.start(settings);
        return f;
    }

    ErrorCode start(SharePartitionSettings settings) {
        partition = new SharePartition(KEY, settings, persister, timers, ts -> {
            resetLookups.add(ts);
            if (ts == AutoOffsetReset.EARLIEST) {
                return EARLIEST;
            }
            return ts == AutoOffsetReset.LATEST ? LATEST : 42;
        }, wakeups::incrementAndGet);
        return partition.initialize(3).join();
    }

    /** Log batch headers from (base, last) pairs. */
    static List<LogBatch> batches(long... baseAndLast) {
        List<LogBatch> out = new ArrayList<>();
        for (int i = 0; i < baseAndLast.length; i += 2) {
            out.add(new LogBatch(baseAndLast[i], baseAndLast[i + 1]));
        }
        return out;
    }

    static Acknowledgement ack(long first, long last, AcknowledgeType... types) {
        return new Acknowledgement(first, last, Arrays.asList(types));
    }

    static AcquiredRecords acquired(long first, long last, int deliveryCount) {
        return new AcquiredRecords(first, last, (short) deliveryCount);
    }

    static StateBatch state(long first, long last, byte state, int deliveryCount) {
        return new StateBatch(first, last, state, (short) deliveryCount);
    }

    List<AcquiredRecords> fetch(String member, int maxRecords, long... baseAndLast) {
        return partition.acquire(member, batches(baseAndLast), maxRecords, Long.MAX_VALUE);
    }

    ErrorCode acknowledge(String member, Acknowledgement... acks) {
        return partition.acknowledge(member, List.of(acks)).join();
    }

    void assertLastWrite(long startOffset, StateBatch... batches) {
        RecordingPersister.Write w = persister.lastWrite();
        assertThat(w.startOffset()).isEqualTo(startOffset);
        assertThat(w.batches()).containsExactly(batches);
    }
}
