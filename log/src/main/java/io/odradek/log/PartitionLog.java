package io.odradek.log;

import io.odradek.log.checkpoint.LeaderEpochFile;
import io.odradek.log.checkpoint.PartitionMetadataFile;
import io.odradek.log.producer.ActiveProducer;
import io.odradek.log.producer.BatchMetadata;
import io.odradek.log.producer.ProducerEntry;
import io.odradek.log.producer.ProducerSnapshotFile;
import io.odradek.log.producer.ProducerStateManager;
import io.odradek.log.producer.VerificationGuard;
import io.odradek.log.segment.Segment;
import io.odradek.log.txn.AbortedTxn;
import io.odradek.log.txn.CompletedTxn;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.EndTxnMarker;
import io.odradek.wire.batch.RecordBatchHeader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * One partition's log in Kafka's on-disk format under {@code <log.dir>/<topic>-<partition>/}.
 *
 * <p>Appends, rolls and retention are serialised by one lock. Reads take no lock: they start from an
 * immutable {@link LogEnd} snapshot published (volatile) after each append is fully written and indexed,
 * so they never see a half-written batch. The snapshot carries the transaction state too, so a
 * read_committed read stops at the first unstable offset of the same moment, at the byte position the
 * append that opened the transaction recorded (no index lookup or header read per read or wake-up).
 *
 * <p>Followers ({@link #appendAsFollower}, {@link #truncateTo}, {@link #truncateFullyAndStartAt}) run on the
 * same writer and lock as appends; a truncation publishes the shorter log end before readers can reach the
 * cut, and never rewrites bytes a read of the older end may still be sending (see {@link #truncateTo}).
 *
 * <p>Transactions (Kafka's ProducerStateManager and TransactionIndex): a transactional batch opens its
 * producer's transaction, a marker ({@link #appendMarker}) ends it; an aborted one is recorded in the
 * {@code .txnindex} of the segment holding its marker, which read_committed fetches consult
 * ({@link #abortedTransactions}).
 */
public final class PartitionLog implements AutoCloseable {

    /**
     * How to open a log. {@code cleanShutdown} trusts the files (indexes are still sanity checked);
     * otherwise every segment from the one holding {@code recoveryPoint} on is validated batch by batch.
     * {@code scheduler} runs delayed deletes and async flushes (null: a shared daemon thread).
     */
    public record Options(UUID topicId, boolean cleanShutdown, long recoveryPoint, long logStartOffset,
                          Clock clock, ScheduledExecutorService scheduler) {
        public static Options defaults() {
            return new Options(null, false, 0L, 0L, Clock.systemUTC(), null);
        }

        public Options withTopicId(UUID id) {
            return new Options(id, cleanShutdown, recoveryPoint, logStartOffset, clock, scheduler);
        }

        public Options withCleanShutdown(boolean clean) {
            return new Options(topicId, clean, recoveryPoint, logStartOffset, clock, scheduler);
        }

        public Options withCheckpoints(long recovery, long logStart) {
            return new Options(topicId, cleanShutdown, recovery, logStart, clock, scheduler);
        }

        public Options withClock(Clock c) {
            return new Options(topicId, cleanShutdown, recoveryPoint, logStartOffset, c, scheduler);
        }

        public Options withScheduler(ScheduledExecutorService s) {
            return new Options(topicId, cleanShutdown, recoveryPoint, logStartOffset, clock, s);
        }
    }

    /**
     * Log end as readers see it: next offset, the active segment and its byte size at that point, and the
     * transaction state then: the first offset of the oldest open transaction (Long.MAX_VALUE none) and the
     * decided transactions whose markers may not be replicated yet ([first, marker] pairs by first offset),
     * so a read_committed read bounds itself by the same state it reads. {@code undecidedAt} and
     * {@code unreplicatedAt} (one per pair) say where those transactions' first batches lie, so the read
     * stops there without an index lookup or header read (Kafka's cached firstUnstableOffsetMetadata);
     * null where unknown.
     */
    private record LogEnd(long offset, Segment segment, int position, long firstUndecided, long[] unreplicated,
                          TxnStart undecidedAt, TxnStart[] unreplicatedAt) {
        LogEnd at(long newOffset, Segment newSegment, int newPosition) {
            return new LogEnd(newOffset, newSegment, newPosition, firstUndecided, unreplicated, undecidedAt,
                    unreplicatedAt);
        }

        /** Where the transaction starting at {@code firstOffset} (one this snapshot holds) begins, or null. */
        TxnStart startOf(long firstOffset) {
            if (firstOffset == firstUndecided) {
                return undecidedAt;
            }
            for (int i = 0; i < unreplicated.length; i += 2) {
                if (unreplicated[i] == firstOffset) {
                    return unreplicatedAt[i / 2];
                }
            }
            return null;
        }

        /**
         * Kafka's firstUnstableOffset: the first offset of the oldest open transaction, or of a decided one
         * whose marker is not below the high watermark, whichever is lower.
         */
        long firstUnstable(long highWatermark) {
            for (int i = 0; i < unreplicated.length; i += 2) {
                if (unreplicated[i + 1] >= highWatermark) {
                    return Math.min(firstUndecided, unreplicated[i]);
                }
            }
            return firstUndecided;
        }
    }

    /**
     * Where a transaction's first batch was written: its producer, segment and byte position. Positions in a
     * segment the cleaner or retention has since replaced are not trusted (see {@link #read}).
     */
    private record TxnStart(long producerId, Segment segment, int position) {
    }

    private static final TxnStart[] NO_STARTS = new TxnStart[0];

    /** How many producer snapshots to keep besides those needed for retention; Kafka keeps one per segment. */
    private static final int SNAPSHOTS_TO_KEEP = 3;

    private final Path dir;
    private final String topic;
    private final int partition;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;
    private final Object lock = new Object();
    private final ConcurrentSkipListMap<Long, Segment> segments = new ConcurrentSkipListMap<>();
    private final ProducerStateManager producers = new ProducerStateManager();
    /**
     * First offset -> where it lies, for each transaction still open or decided but unreplicated (what the
     * first unstable offset can be). Under the append lock.
     */
    private final Map<Long, TxnStart> txnStarts = new HashMap<>();
    private final LeaderEpochFile epochs;
    private final UUID topicId;

    private volatile LogConfig config;
    private volatile LogEnd end;
    /**
     * The high watermark as the replication layer last reported it ({@link #updateHighWatermark}); Long.MAX_VALUE
     * while this log alone decides (one node: every append is committed at once).
     */
    private volatile long committedUpTo = Long.MAX_VALUE;
    private volatile long logStartOffset;
    private volatile long recoveryPoint;
    private volatile long lastFlushMs;
    private long unflushedMessages;
    private volatile boolean closed;
    /**
     * A seqlock over truncations (written under the lock): odd while one is changing the segments and the log
     * end, incremented again once the new end is published. A lock-free read that saw it odd or changed reads
     * again; a cleaner pass or a background flush that began before or during one drops its result: they may
     * have seen bytes that are gone.
     */
    private volatile long truncations;
    /** Test hook: runs inside a truncation just before the new log end is published. */
    volatile Runnable beforeTruncationPublished = () -> { };
    /** Serialises cleaner passes of this log (the scheduler's and direct calls). */
    private final Object cleanerLock = new Object();
    /** Segments from here on have not been cleaned since the log was opened (Kafka's cleaner checkpoint, in memory). */
    private volatile long firstDirtyOffset;
    /** Earliest delete horizon of a tombstone the last clean kept: reaching it warrants another clean. */
    private volatile long nextTombstoneHorizonMs = Long.MAX_VALUE;
    /** Told after the log start offset moved forward (the LogManager checkpoints it). */
    private volatile Consumer<PartitionLog> logStartListener = log -> { };
    /** Why this log's dir is offline (every use then fails with KAFKA_STORAGE_ERROR), or null while online. */
    private volatile String offlineReason;
    /** Told about every I/O error of this log (the LogManager takes the dir offline, as Kafka's LogDirFailureChannel). */
    private volatile BiConsumer<String, IOException> storageErrorListener = (what, e) -> { };

    private PartitionLog(Path dir, String topic, int partition, LogConfig config, Options options, UUID topicId) {
        this.dir = dir;
        this.topic = topic;
        this.partition = partition;
        this.config = config;
        this.clock = options.clock();
        this.scheduler = options.scheduler() != null ? options.scheduler() : LogScheduler.SHARED;
        this.epochs = new LeaderEpochFile(dir);
        this.topicId = topicId;
        this.lastFlushMs = clock.millis();
    }

    /** Opens (creating if needed) the log of {@code topic}-{@code partition} under {@code logDir}, unclean-recovering it. */
    public static PartitionLog open(Path logDir, String topic, int partition, LogConfig config) {
        return open(logDir, topic, partition, config, Options.defaults());
    }

    /** Opens (creating if needed) and recovers the log of {@code topic}-{@code partition} under {@code logDir}. */
    public static PartitionLog open(Path logDir, String topic, int partition, LogConfig config, Options options) {
        Path dir = logDir.resolve(topic + "-" + partition);
        try {
            Files.createDirectories(dir);
            UUID id = resolveTopicId(dir, options.topicId());
            PartitionLog log = new PartitionLog(dir, topic, partition, config, options, id);
            try {
                new LogLoader(log, options).load();
            } catch (UncheckedIOException e) {
                log.releaseSegments();
                throw e.getCause();
            } catch (IOException | RuntimeException e) {
                log.releaseSegments(); // a failed open (a full disk, too many files) keeps no descriptors
                throw e;
            }
            return log;
        } catch (IOException e) {
            throw new LogException(ErrorCode.KAFKA_STORAGE_ERROR, "cannot open log " + dir + ": " + e.getMessage(), e);
        }
    }

    private static UUID resolveTopicId(Path dir, UUID requested) throws IOException {
        Optional<UUID> stored = PartitionMetadataFile.read(dir);
        if (stored.isPresent()) {
            if (requested != null && !requested.equals(stored.get())) {
                throw new LogException(ErrorCode.INCONSISTENT_TOPIC_ID, "log " + dir + " belongs to topic id "
                        + PartitionMetadataFile.toKafkaString(stored.get()) + ", not "
                        + PartitionMetadataFile.toKafkaString(requested));
            }
            return stored.get();
        }
        if (requested != null) {
            PartitionMetadataFile.write(dir, requested);
        }
        return requested;
    }

    /**
     * Loads segments, runs recovery and rebuilds in-memory state. Kept apart from the steady-state code
     * because it is the only place that trusts nothing.
     */
    private static final class LogLoader {
        private final PartitionLog log;
        private final Options options;
        /** Bases of the segments recovery rebuilt: their transaction indexes are written again by the replay. */
        private final Set<Long> recovered = new HashSet<>();
        /** The lowest of them, MAX_VALUE if none. */
        private long firstRecovered = Long.MAX_VALUE;

        LogLoader(PartitionLog log, Options options) {
            this.log = log;
            this.options = options;
        }

        /** For a log already open: rebuilds state after a truncation (nothing to recover). */
        LogLoader(PartitionLog log) {
            this(log, Options.defaults());
        }

        /**
         * Kafka's truncateAndReload: snapshots above {@code upTo} deleted, then the state of the newest one at or
         * below it plus the batches after it, built aside and swapped in; where open transactions start is
         * found again. The caller holds the lock and has cut the segments at {@code upTo} already.
         */
        void rebuildProducerState(long upTo) throws IOException {
            for (long offset : ProducerSnapshotFile.list(log.dir)) {
                if (offset > upTo) {
                    Files.deleteIfExists(ProducerSnapshotFile.path(log.dir, offset));
                }
            }
            ProducerStateManager rebuilt = new ProducerStateManager();
            replay(rebuilt, loadLatestSnapshot(rebuilt, upTo), upTo, false);
            log.producers.replaceWith(rebuilt);
            log.txnStarts.clear();
            locateOpenTransactions();
        }

        void load() throws IOException {
            completeCleanerSwaps();
            deleteLeftovers();
            List<Long> bases = segmentBaseOffsets();
            long now = log.clock.millis();
            if (bases.isEmpty()) {
                long start = Math.max(0L, options.logStartOffset());
                log.segments.put(start, Segment.create(log.dir, start, log.config, now));
                log.epochs.saveNow();
            } else {
                loadSegments(bases, now);
            }
            Segment active = log.segments.lastEntry().getValue();
            long leo = active.nextOffset();
            log.logStartOffset = Math.min(leo, Math.max(options.logStartOffset(), log.segments.firstKey()));
            log.recoveryPoint = leo;
            log.epochs.truncateFromEnd(leo);
            log.epochs.truncateFromStart(log.logStartOffset);
            loadProducerState(leo);
            log.producers.loaded();
            log.producers.onHighWatermarkUpdated(leo); // what survived a restart counts as replicated
            locateOpenTransactions();
            log.end = log.endAt(leo, active, active.size());
        }

        /** Finds where each open transaction's first batch lies (appends record it from then on). */
        private void locateOpenTransactions() throws IOException {
            for (ProducerEntry p : log.producers.producers().values()) {
                long first = p.currentTxnFirstOffset();
                Map.Entry<Long, Segment> entry = p.hasOpenTransaction() ? log.segments.floorEntry(first) : null;
                if (entry != null) {
                    Segment s = entry.getValue();
                    FileSlice at = s.read(first, 0, s.size(), s.nextOffset());
                    if (at != null && at.firstOffset() == first) {
                        log.txnStarts.put(first, new TxnStart(p.producerId(), s, (int) at.position()));
                    }
                }
            }
        }

        /**
         * A {@code <base>.log.swap} is a finished cleaned segment whose swap-in a crash interrupted: it
         * replaces the original (whose indexes go too; recovery rebuilds them, the transaction index
         * included). Index files named {@code .swap} are deleted rather than trusted, whether their log file
         * was renamed into place yet or not: the segment is then missing an index and recovery rebuilds it.
         * A {@code .cleaned} file is an unfinished clean: deleted.
         */
        private void completeCleanerSwaps() throws IOException {
            try (Stream<Path> files = Files.list(log.dir)) {
                for (Path p : files.toList()) {
                    String name = p.getFileName().toString();
                    if (name.endsWith(LogCleaner.CLEANED_SUFFIX)
                            || name.endsWith(Segment.INDEX_SUFFIX + LogCleaner.SWAP_SUFFIX)
                            || name.endsWith(Segment.TIME_INDEX_SUFFIX + LogCleaner.SWAP_SUFFIX)
                            || name.endsWith(Segment.TXN_INDEX_SUFFIX + LogCleaner.SWAP_SUFFIX)) {
                        Files.deleteIfExists(p);
                    } else if (name.endsWith(Segment.LOG_SUFFIX + LogCleaner.SWAP_SUFFIX) && name.length() > 20) {
                        long base = Long.parseLong(name.substring(0, 20));
                        deleteSegmentFiles(base);
                        Files.move(p, log.dir.resolve(Segment.fileName(base) + Segment.LOG_SUFFIX),
                                StandardCopyOption.ATOMIC_MOVE);
                    }
                }
            }
        }

        private void deleteLeftovers() throws IOException {
            try (Stream<Path> files = Files.list(log.dir)) {
                for (Path p : files.toList()) {
                    String name = p.getFileName().toString();
                    boolean orphanIndex = name.length() > 20 && (name.endsWith(Segment.INDEX_SUFFIX)
                            || name.endsWith(Segment.TIME_INDEX_SUFFIX) || name.endsWith(Segment.TXN_INDEX_SUFFIX))
                            && !Files.exists(log.dir.resolve(name.substring(0, 20) + Segment.LOG_SUFFIX));
                    if (name.endsWith(Segment.DELETED_SUFFIX) || name.endsWith(".tmp") || orphanIndex) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }

        private List<Long> segmentBaseOffsets() throws IOException {
            try (Stream<Path> files = Files.list(log.dir)) {
                return files.map(p -> p.getFileName().toString())
                        .filter(n -> n.endsWith(Segment.LOG_SUFFIX) && n.length() == 20 + Segment.LOG_SUFFIX.length())
                        .map(n -> Long.parseLong(n.substring(0, 20)))
                        .sorted(Comparator.naturalOrder())
                        .toList();
            }
        }

        /**
         * Segments below the recovery point of a clean shutdown are trusted if their indexes pass the sanity
         * checks, the transaction index's as Kafka's (whole version-0 entries whose markers increase within
         * the segment; a torn or out-of-range one makes the segment recovered, its index rebuilt by the
         * replay). As in Kafka, a missing {@code .txnindex} is not a failed check: a segment without aborted
         * transactions has none, so a lost one reads as "no aborted transactions" until a recovery covers
         * its segment.
         */
        private void loadSegments(List<Long> bases, long now) throws IOException {
            long recoverFrom = options.cleanShutdown() ? Long.MAX_VALUE : bases.get(0);
            if (!options.cleanShutdown()) {
                // Recover from the segment holding the recovery point; at least the last segment.
                for (long base : bases) {
                    if (base <= options.recoveryPoint()) {
                        recoverFrom = base;
                    }
                }
                recoverFrom = Math.min(recoverFrom, bases.get(bases.size() - 1));
            }
            long expectedNext = bases.get(0);
            for (int i = 0; i < bases.size(); i++) {
                long base = bases.get(i);
                boolean last = i == bases.size() - 1;
                Segment s = Segment.open(log.dir, base, log.config, last, now);
                boolean trusted = base < recoverFrom && s.loadFromIndexes();
                int truncated = trusted ? 0 : s.recover(expectedNext);
                if (!trusted) {
                    recovered.add(base);
                    firstRecovered = Math.min(firstRecovered, base);
                }
                if (!last && !trusted) {
                    s.onBecomeInactive();
                }
                log.segments.put(base, s);
                expectedNext = s.nextOffset();
                if (truncated > 0 && !last) {
                    // Anything after a corrupt batch is unreachable: drop the later segments, as Kafka does.
                    for (long later : bases.subList(i + 1, bases.size())) {
                        deleteSegmentFiles(later);
                    }
                    reopenAsActive(base, now);
                    return;
                }
            }
        }

        private void reopenAsActive(long base, long now) throws IOException {
            Segment s = log.segments.remove(base);
            s.close();
            Segment active = Segment.open(log.dir, base, log.config, true, now);
            if (!active.loadFromIndexes()) {
                active.recover(base);
            }
            log.segments.put(base, active);
        }

        private void deleteSegmentFiles(long base) throws IOException {
            String prefix = Segment.fileName(base);
            Files.deleteIfExists(log.dir.resolve(prefix + Segment.LOG_SUFFIX));
            Files.deleteIfExists(log.dir.resolve(prefix + Segment.INDEX_SUFFIX));
            Files.deleteIfExists(log.dir.resolve(prefix + Segment.TIME_INDEX_SUFFIX));
            Files.deleteIfExists(log.dir.resolve(prefix + Segment.TXN_INDEX_SUFFIX));
        }

        /**
         * Latest usable snapshot at or below the log end, then the batches after it. When recovery rebuilt
         * segments, their transaction indexes are written again from a replay that starts at a snapshot at
         * or below the first of them, into a scratch state if the latest snapshot lies above it (Kafka's
         * LogSegment.recover with the producer state rebuilt up to the segment).
         */
        private void loadProducerState(long leo) throws IOException {
            for (long offset : ProducerSnapshotFile.list(log.dir)) {
                if (offset > leo || offset < log.logStartOffset) {
                    Files.deleteIfExists(ProducerSnapshotFile.path(log.dir, offset));
                }
            }
            long replayFrom = loadLatestSnapshot(log.producers, leo);
            if (firstRecovered != Long.MAX_VALUE && replayFrom > firstRecovered) {
                ProducerStateManager scratch = new ProducerStateManager();
                replay(scratch, loadLatestSnapshot(scratch, firstRecovered), leo, true);
                replay(log.producers, replayFrom, leo, false);
            } else {
                replay(log.producers, replayFrom, leo, firstRecovered != Long.MAX_VALUE);
            }
        }

        /** Loads the newest readable snapshot at or below {@code upTo}; returns where the replay starts. */
        private long loadLatestSnapshot(ProducerStateManager into, long upTo) throws IOException {
            List<Long> snapshots = ProducerSnapshotFile.list(log.dir);
            for (int i = snapshots.size() - 1; i >= 0; i--) {
                long offset = snapshots.get(i);
                if (offset > upTo) {
                    continue;
                }
                Path file = ProducerSnapshotFile.path(log.dir, offset);
                if (ProducerSnapshotFile.load(file, into)) {
                    return offset;
                }
                Files.deleteIfExists(file);
            }
            return log.logStartOffset;
        }

        private void replay(ProducerStateManager state, long from, long leo, boolean rebuildTxnIndexes)
                throws IOException {
            if (from >= leo) {
                return;
            }
            Long first = log.segments.floorKey(from);
            for (Segment s : log.segments.tailMap(first == null ? log.segments.firstKey() : first).values()) {
                boolean rebuild = rebuildTxnIndexes && recovered.contains(s.baseOffset());
                s.forEachBatchFrom(Math.max(from, s.baseOffset()), h -> replayBatch(state, h, s, rebuild));
            }
        }

        private static void replayBatch(ProducerStateManager state, RecordBatchHeader h, Segment s,
                                        boolean rebuildTxnIndex) {
            CompletedTxn done = state.replay(h);
            if (done == null) {
                return;
            }
            if (done.aborted() && rebuildTxnIndex) {
                try {
                    s.txnIndex().append(new AbortedTxn(done.producerId(), done.firstOffset(), done.lastOffset(),
                            state.lastStableOffset(done)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            state.completeTxn(done);
        }
    }

    // ---------------------------------------------------------------- append

    /**
     * Appends whole v2 batches exactly as a producer sent them. Every batch is validated first; then each
     * header gets its offset and leader epoch stamped in place and the buffer is written with one positional
     * write. Throws {@link LogAppendException} (nothing written) on a bad batch or producer sequence.
     */
    public AppendResult append(ByteBuffer records, int leaderEpoch) {
        return append(records, leaderEpoch, true, (short) 0, null);
    }

    /**
     * As {@link #append(ByteBuffer, int)} for a client's batches whose transaction was verified (Kafka's
     * append with a requestVerificationGuard): a transactional batch that does not continue a transaction
     * open at its epoch is refused with INVALID_TXN_STATE unless {@code guard} is still its producer's
     * current guard (see {@link #startTransactionVerification}); {@code VerificationGuard.NONE} when the
     * transaction was found open and the coordinator was not asked.
     */
    public AppendResult append(ByteBuffer records, int leaderEpoch, VerificationGuard guard) {
        return append(records, leaderEpoch, true, (short) 0, guard);
    }

    /**
     * Kafka's hasOngoingTransaction: whether the producer has a transaction open on this partition at exactly
     * this epoch, so that its next batch needs no verification. Lock-free and allocation-free.
     */
    public boolean hasOngoingTransaction(long producerId, short producerEpoch) {
        return producers.hasOngoingTransaction(producerId, producerEpoch);
    }

    /**
     * Kafka's maybeStartTransactionVerification: {@code VerificationGuard.NONE} when the producer's
     * transaction is already open here at this epoch, else the guard its batch must bring back to
     * {@link #append(ByteBuffer, int, VerificationGuard)} once the coordinator has verified it.
     *
     * @param supportsEpochBump whether the producer uses transaction version 2 (Produce v12+)
     */
    public VerificationGuard startTransactionVerification(long producerId, short producerEpoch,
                                                          boolean supportsEpochBump) {
        if (producers.hasOngoingTransaction(producerId, producerEpoch)) {
            return VerificationGuard.NONE;
        }
        return producers.startVerification(producerId, producerEpoch, supportsEpochBump, clock.millis());
    }

    /**
     * Writes the control batch that commits or aborts producer {@code producerId}'s transaction on this
     * partition (Kafka's WriteTxnMarkers append), through the same path as {@link #append}, stamped with
     * {@code leaderEpoch}.
     *
     * @throws LogAppendException INVALID_PRODUCER_EPOCH when {@code producerEpoch} is older than the producer's,
     *         TRANSACTION_COORDINATOR_FENCED when {@code coordinatorEpoch} is older than the one of the
     *         producer's last marker
     */
    public AppendResult appendMarker(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit,
                                     int leaderEpoch) {
        return appendMarker(producerId, producerEpoch, coordinatorEpoch, commit, leaderEpoch, (short) 0);
    }

    /**
     * As {@link #appendMarker(long, short, int, boolean, int)} for WriteTxnMarkers v2's TransactionVersion
     * (KIP-1228): from 2 on the marker carries the epoch the coordinator bumped at EndTxn, and one that is not
     * newer than the producer's is refused (INVALID_PRODUCER_EPOCH) unless it retries a marker already written.
     */
    public AppendResult appendMarker(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit,
                                     int leaderEpoch, short transactionVersion) {
        ByteBuffer batch = new EndTxnMarker(commit, coordinatorEpoch).toBatch(producerId, producerEpoch, clock.millis());
        return append(batch, leaderEpoch, false, transactionVersion, null);
    }

    /**
     * Appends batches a coordinator built (Kafka's AppendOrigin.COORDINATOR): as {@link #append}, but they may
     * carry a producer id without sequence numbers (transactional offset commits) or the control flag.
     */
    public AppendResult appendAsCoordinator(ByteBuffer records, int leaderEpoch) {
        return append(records, leaderEpoch, false, (short) 0, null);
    }

    // ---------------------------------------------------------------- replication (follower side)

    /**
     * Appends batches fetched from the leader exactly as they are, offsets and leader epochs included
     * (Kafka's appendAsFollower): framing and CRC checked as for any append (not max.message.bytes, nor the
     * records one by one: the leader did), offsets increasing from batch to batch; the leader epoch cache
     * learns each batch's epoch; producer state follows the batches as Kafka's REPLICATION origin does (no
     * epoch, sequence or coordinator-epoch refusals, see {@link ProducerStateManager#beginReplication}); markers
     * index aborted transactions as on the leader; the log end is published as {@link #append} does. Segments
     * roll by this log's own config, so a follower fed batch by batch as the leader appended them has
     * byte-identical files.
     *
     * <p>The first batch must start at the log end or later (a gap is what a compacted leader log leaves);
     * one starting below it is refused with OFFSET_OUT_OF_RANGE (Kafka's UnexpectedAppendOffsetException),
     * except on an empty log whose start lies inside that batch: the log then starts at the batch (Kafka's
     * Partition does this when the leader's log start is mid-batch). Nothing is written when refused.
     *
     * @throws LogAppendException CORRUPT_MESSAGE (framing, CRC, offsets out of order), OFFSET_OUT_OF_RANGE,
     *         INVALID_TXN_STATE (a non-transactional batch of a producer whose transaction is open)
     */
    public AppendResult appendAsFollower(ByteBuffer records) {
        // Framing and CRC outside the lock, as for a leader append; the bytes are never changed.
        BatchValidator.validateReplicated(records, topic, partition);
        synchronized (lock) {
            ensureOpen();
            LogConfig cfg = config;
            RecordBatchHeader h = new RecordBatchHeader(records, records.position());
            long firstOffset = h.baseOffset();
            long logEnd = end.offset();
            if (firstOffset < logEnd) {
                if (logEnd == logStartOffset && h.lastOffset() >= logEnd) {
                    // Kafka's Partition.appendRecordsToFollowerOrFutureReplica: an empty log whose start lies
                    // inside the leader's first batch (DeleteRecords on the leader) starts at that batch.
                    truncateFullyAndStartAt(firstOffset);
                } else {
                    throw new LogAppendException(ErrorCode.OFFSET_OUT_OF_RANGE, "Unexpected offset in append to "
                            + topic + "-" + partition + ": first offset " + firstOffset
                            + " is less than the log end offset " + logEnd);
                }
            }
            ProducerStateManager.ProducerAppend producerAppend = producers.beginReplication();
            long lastOffset = firstOffset;
            long maxTimestamp = RecordBatchHeader.NO_TIMESTAMP;
            long messages = 0;
            List<long[]> txnBatches = null; // [base offset, producer id, position in records] of transactional data
            for (int p = records.position(); p < records.limit(); p += h.totalSize()) {
                h.wrap(records, p);
                producerAppend.validate(h, h.baseOffset());
                if (h.isTransactional() && !h.isControlBatch()) {
                    if (txnBatches == null) {
                        txnBatches = new ArrayList<>(1);
                    }
                    txnBatches.add(new long[] {h.baseOffset(), h.producerId(), p - records.position()});
                }
                lastOffset = h.lastOffset();
                maxTimestamp = Math.max(maxTimestamp, h.maxTimestamp());
                messages += h.recordsCount();
            }
            long now = clock.millis();
            try {
                Segment segment = end.segment();
                if (segment.shouldRoll(cfg, records.remaining(), maxTimestamp, lastOffset, now)) {
                    segment = roll(now);
                }
                // Kafka: each batch's epoch, recorded before the bytes are written (as UnifiedLog.append
                // does): a failed checkpoint write then leaves the segment as it was, so a retry cannot
                // write the batches twice.
                for (int p = records.position(); p < records.limit(); p += h.totalSize()) {
                    h.wrap(records, p);
                    epochs.assign(h.partitionLeaderEpoch(), h.baseOffset());
                }
                int writtenAt = segment.size();
                segment.append(records);
                publishAppended(segment, writtenAt, producerAppend, txnBatches, lastOffset);
            } catch (IOException e) {
                throw storageError("append", e);
            } catch (UncheckedIOException e) {
                throw storageError("append", e.getCause());
            }
            countUnflushed(messages, cfg);
            return new AppendResult(firstOffset, lastOffset, logStartOffset, -1L, false);
        }
    }

    /**
     * Removes every batch at or after {@code offset} (a follower's divergent tail), as Kafka's
     * UnifiedLog.truncateTo: the batch holding {@code offset} goes too, so the new log end is {@code offset}
     * or, when it fell inside a batch, that batch's base offset. Later segments go (renamed {@code .deleted},
     * unlinked after file.delete.delay.ms); the segment holding the cut is cut there with its offset, time
     * and transaction indexes; leader epochs starting at or after the new end are dropped; producer snapshots
     * above it are deleted and the producer state is rebuilt from the newest one left plus the batches after
     * it; the log start, recovery point, high watermark (if the replication layer set one) and the cleaner's
     * position are clamped to the new end. No-op when offset >= log end; at or below the first segment's base
     * this is {@link #truncateFullyAndStartAt}.
     *
     * <p>Appends go on in a new segment starting at the cut rather than into the cut one: a slice read before
     * the truncation may still be sent after it, and bytes past the cut must never be overwritten under it.
     * The cut file is shortened, so such a slice may come up short, even ending inside a batch (as in Kafka;
     * a client drops a partial trailing batch). Reads that overlap the truncation read again from the new end
     * ({@link #truncations} is a seqlock). The price is one extra, smaller segment per truncation.
     */
    public void truncateTo(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("cannot truncate " + topic + "-" + partition + " to " + offset);
        }
        synchronized (lock) {
            ensureOpen();
            if (offset >= end.offset()) {
                // As Kafka: nothing to cut, but an epoch a leadership assigned at the end without writing
                // (assignEpochStartOffset) goes, so this follower answers for epochs as its data does.
                try {
                    epochs.truncateFromEnd(end.offset());
                } catch (UncheckedIOException e) {
                    throw storageError("truncate", e.getCause());
                }
                return;
            }
            if (offset <= segments.firstKey()) {
                truncateFullyAndStartAt(offset); // as Kafka's UnifiedLog.truncateTo
                return;
            }
            truncations++; // odd: a truncation is under way
            try {
                // The batch holding the offset goes too: the log ends at a batch boundary (Kafka's
                // LogSegment.truncateTo cuts there as well).
                Segment holding = segments.floorEntry(offset).getValue();
                Segment.Cut cut = holding.cutAt(offset);
                long newEnd = cut.batchBaseOffset() < 0 ? offset : Math.min(offset, cut.batchBaseOffset());
                List<Segment> removed = new ArrayList<>(
                        segments.tailMap(holding.baseOffset(), cut.position() == 0).values());
                // Removed segments keep their bytes (renamed, deleted later) for reads still under way; the one
                // cut stops being written, and appends go on in a new segment at the cut, so no byte a reader
                // of the older log end may still send is ever rewritten.
                for (Segment s : removed) {
                    s.renameToDeleted();
                }
                if (cut.position() > 0) {
                    holding.truncateTo(cut.position(), newEnd);
                }
                Segment active = Segment.create(dir, newEnd, config, clock.millis());
                segments.put(newEnd, active);
                for (Segment s : removed) {
                    segments.remove(s.baseOffset(), s);
                }
                logStartOffset = Math.min(logStartOffset, newEnd);
                recoveryPoint = Math.min(recoveryPoint, newEnd);
                if (committedUpTo != Long.MAX_VALUE) {
                    committedUpTo = Math.min(committedUpTo, newEnd);
                }
                firstDirtyOffset = Math.min(firstDirtyOffset, newEnd);
                epochs.truncateFromEnd(newEnd);
                new LogLoader(this).rebuildProducerState(newEnd);
                producers.onHighWatermarkUpdated(Math.min(committedUpTo, newEnd));
                beforeTruncationPublished.run();
                end = endAt(newEnd, active, 0);
                deleteLater(removed);
            } catch (IOException e) {
                throw storageError("truncate", e);
            } catch (UncheckedIOException e) {
                throw storageError("truncate", e.getCause());
            } finally {
                truncations++; // even again: the new end (or, after a failure, whatever is left) is published
            }
        }
    }

    /**
     * Empties the log and starts it again at {@code offset} (a follower far behind the leader's log start),
     * as Kafka's truncateFullyAndStartAt: every segment goes (deleted after file.delete.delay.ms, so reads
     * under way finish), the epoch cache, producer state and snapshots are cleared, and log start, recovery
     * point and (when the replication layer set one) high watermark become {@code offset}.
     */
    public void truncateFullyAndStartAt(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("cannot start " + topic + "-" + partition + " at " + offset);
        }
        synchronized (lock) {
            ensureOpen();
            truncations++; // odd: a truncation is under way
            try {
                List<Segment> removed = new ArrayList<>(segments.values());
                for (Segment s : removed) {
                    s.renameToDeleted();
                }
                Segment active = Segment.create(dir, offset, config, clock.millis());
                segments.put(offset, active);
                for (Segment s : removed) {
                    segments.remove(s.baseOffset(), s);
                }
                epochs.clear();
                for (long snapshot : ProducerSnapshotFile.list(dir)) {
                    Files.deleteIfExists(ProducerSnapshotFile.path(dir, snapshot));
                }
                producers.replaceWith(new ProducerStateManager());
                txnStarts.clear();
                logStartOffset = offset;
                recoveryPoint = offset;
                if (committedUpTo != Long.MAX_VALUE) {
                    committedUpTo = offset;
                }
                firstDirtyOffset = offset;
                unflushedMessages = 0;
                end = endAt(offset, active, 0);
                deleteLater(removed);
            } catch (IOException e) {
                throw storageError("truncate", e);
            } catch (UncheckedIOException e) {
                throw storageError("truncate", e.getCause());
            } finally {
                truncations++; // even again
            }
        }
    }

    /**
     * Where leader epoch {@code epoch} ended in this log (Kafka's LeaderEpochFileCache.endOffsetFor, what
     * OffsetForLeaderEpoch and a fetch's DivergingEpoch answer): the latest epoch ends at the log end; another
     * known one at the next epoch's start; an unknown one between two known ones answers as the one below it;
     * one below every known epoch answers with itself and the first epoch's start; -1, one above the latest,
     * or a log without epochs: {@link EpochEndOffset#UNDEFINED}.
     */
    public EpochEndOffset endOffsetForEpoch(int epoch) {
        ensureOnline();
        return epochs.endOffsetFor(epoch, end.offset());
    }

    /**
     * Records that leader epoch {@code leaderEpoch} starts at {@code offset} (Kafka's
     * UnifiedLog.maybeAssignEpochStartOffset): a new leader calls it with its log end on election, so that
     * OffsetForLeaderEpoch and a fetch's DivergingEpoch answer the previous epoch's end at once, before the
     * first append of the new epoch. Same rules as an append's epoch (LeaderEpochFile.assign); an epoch
     * already latest and starting no later changes nothing.
     *
     * @throws LogException KAFKA_STORAGE_ERROR when the checkpoint cannot be written
     */
    public void assignEpochStartOffset(int leaderEpoch, long offset) {
        synchronized (lock) {
            ensureOpen();
            try {
                epochs.assign(leaderEpoch, offset);
            } catch (UncheckedIOException e) {
                throw storageError("leader epoch assignment", e.getCause());
            }
        }
    }

    /** The newest leader epoch in this log, or -1. */
    public int latestEpoch() {
        return epochs.latestEpoch();
    }

    private AppendResult append(ByteBuffer records, int leaderEpoch, boolean fromClient, short markerTxnVersion,
                                VerificationGuard guard) {
        // The record walk reads (and may correct) only the caller's buffer: outside the lock, so retention,
        // cleaner swaps and flushes never wait on a decompression.
        BatchValidator.validate(records, config, topic, partition, clock.millis(), fromClient);
        synchronized (lock) {
            ensureOpen();
            LogConfig cfg = config;
            long firstOffset = end.offset();
            ProducerStateManager.ProducerAppend producerAppend = guard != null ? producers.begin(guard)
                    : producers.begin(markerTxnVersion);
            RecordBatchHeader h = new RecordBatchHeader(records, records.position());
            long next = firstOffset;
            long maxTimestamp = RecordBatchHeader.NO_TIMESTAMP;
            long messages = 0;
            List<long[]> txnBatches = null; // [base offset, producer id, position in records] of transactional data
            for (int p = records.position(); p < records.limit(); p += h.totalSize()) {
                h.wrap(records, p);
                BatchMetadata duplicate = producerAppend.validate(h, next);
                if (duplicate != null) {
                    return new AppendResult(duplicate.firstOffset(), duplicate.lastOffset(), logStartOffset, -1L, true);
                }
                if (h.isTransactional() && !h.isControlBatch()) {
                    if (txnBatches == null) {
                        txnBatches = new ArrayList<>(1);
                    }
                    txnBatches.add(new long[] {next, h.producerId(), p - records.position()});
                }
                next += h.lastOffsetDelta() + 1L;
                maxTimestamp = Math.max(maxTimestamp, h.maxTimestamp());
                messages += h.recordsCount();
            }
            long lastOffset = next - 1;
            long now = clock.millis();
            long appendTime = cfg.isLogAppendTime() ? now : -1L;
            stamp(records, firstOffset, leaderEpoch, appendTime);
            if (appendTime >= 0) {
                maxTimestamp = appendTime;
            }
            try {
                Segment segment = end.segment();
                if (segment.shouldRoll(cfg, records.remaining(), maxTimestamp, lastOffset, now)) {
                    segment = roll(now);
                }
                // Before the write, as in Kafka: a failed checkpoint write leaves the segment untouched.
                epochs.assign(leaderEpoch, firstOffset);
                int writtenAt = segment.size();
                segment.append(records);
                publishAppended(segment, writtenAt, producerAppend, txnBatches, lastOffset);
            } catch (IOException e) {
                throw storageError("append", e);
            } catch (UncheckedIOException e) {
                throw storageError("append", e.getCause());
            }
            countUnflushed(messages, cfg);
            return new AppendResult(firstOffset, lastOffset, logStartOffset, appendTime, false);
        }
    }

    /**
     * After batches up to {@code lastOffset} were written to {@code segment} at {@code writtenAt}: commits their
     * producer state, indexes the transactions their markers aborted and publishes the new log end. Caller
     * holds the lock.
     */
    private void publishAppended(Segment segment, int writtenAt, ProducerStateManager.ProducerAppend producerAppend,
                                 List<long[]> txnBatches, long lastOffset) throws IOException {
        producerAppend.commit();
        if (txnBatches != null) {
            recordTxnStarts(txnBatches, segment, writtenAt);
        }
        List<CompletedTxn> decided = producerAppend.completedTxns();
        boolean txnsDecided = !decided.isEmpty();
        for (CompletedTxn done : decided) {
            // Kafka's order: index the abort with the LSO it leaves, then let it go from the open set.
            if (done.aborted()) {
                segment.txnIndex().append(new AbortedTxn(done.producerId(), done.firstOffset(),
                        done.lastOffset(), producers.lastStableOffset(done)));
            }
            producers.completeTxn(done);
        }
        boolean txnsPruned = producers.onHighWatermarkUpdated(Math.min(committedUpTo, lastOffset + 1));
        if (txnsPruned || txnsDecided) {
            forgetSettledTxnStarts();
        }
        if (txnBatches != null || txnsDecided || txnsPruned) {
            end = endAt(lastOffset + 1, segment, segment.size());
        } else {
            // Hot path: no transaction opened, ended or was pruned, so the snapshot's transactions stand.
            end = end.at(lastOffset + 1, segment, segment.size());
        }
    }

    /** flush.messages policy. Caller holds the lock. */
    private void countUnflushed(long messages, LogConfig cfg) {
        unflushedMessages += messages;
        if (unflushedMessages >= cfg.flushMessages()) {
            flush();
        }
    }

    private static void stamp(ByteBuffer records, long firstOffset, int leaderEpoch, long appendTime) {
        RecordBatchHeader h = new RecordBatchHeader(records, records.position());
        long offset = firstOffset;
        for (int p = records.position(); p < records.limit(); p += h.totalSize()) {
            h.wrap(records, p);
            h.setBaseOffset(offset);
            h.setPartitionLeaderEpoch(leaderEpoch);
            if (appendTime >= 0) {
                h.setLogAppendTime(appendTime);
            }
            offset += h.lastOffsetDelta() + 1L;
        }
    }

    /** Remembers where the transactions these appended batches opened begin. Caller holds the lock. */
    private void recordTxnStarts(List<long[]> txnBatches, Segment segment, int writtenAt) {
        for (long[] b : txnBatches) {
            ProducerEntry p = producers.entry(b[1]);
            if (p != null && p.hasOpenTransaction() && p.currentTxnFirstOffset() == b[0]) {
                txnStarts.put(b[0], new TxnStart(b[1], segment, writtenAt + (int) b[2]));
            }
        }
    }

    /** Drops the starts of transactions neither open nor holding the LSO any more. Caller holds the lock. */
    private void forgetSettledTxnStarts() {
        if (txnStarts.isEmpty()) {
            return;
        }
        long[] unreplicated = producers.unreplicatedTxns();
        txnStarts.entrySet().removeIf(t -> {
            ProducerEntry p = producers.entry(t.getValue().producerId());
            if (p != null && p.currentTxnFirstOffset() == t.getKey()) {
                return false;
            }
            for (int i = 0; i < unreplicated.length; i += 2) {
                if (unreplicated[i] == t.getKey()) {
                    return false;
                }
            }
            return true;
        });
    }

    /** The log end to publish, with the producer state's transactions as they are now. Caller holds the lock. */
    private LogEnd endAt(long offset, Segment segment, int position) {
        LogEnd previous = end;
        long[] unreplicated = producers.unreplicatedTxns();
        TxnStart[] unreplicatedAt = NO_STARTS;
        if (unreplicated.length > 0 && previous != null && Arrays.equals(previous.unreplicated(), unreplicated)) {
            unreplicated = previous.unreplicated();
            unreplicatedAt = previous.unreplicatedAt();
        } else if (unreplicated.length > 0) {
            unreplicatedAt = new TxnStart[unreplicated.length / 2];
            for (int i = 0; i < unreplicatedAt.length; i++) {
                unreplicatedAt[i] = txnStarts.get(unreplicated[2 * i]);
            }
        }
        long firstUndecided = producers.firstUndecidedOffset();
        return new LogEnd(offset, segment, position, firstUndecided, unreplicated, txnStarts.get(firstUndecided),
                unreplicatedAt);
    }

    /**
     * The replication layer's high watermark moved (a partition with followers): a decided transaction holds
     * the first unstable offset until the high watermark passes its marker, as in Kafka. Long.MAX_VALUE hands
     * the decision back to this log (one node). Lock-free.
     */
    public void updateHighWatermark(long highWatermark) {
        committedUpTo = highWatermark;
    }

    /** Starts a new active segment at the log end. Caller holds the lock. */
    private Segment roll(long now) throws IOException {
        LogEnd e = end;
        e.segment().onBecomeInactive();
        Segment next = Segment.create(dir, e.offset(), config, now);
        segments.put(e.offset(), next);
        end = e.at(e.offset(), next, 0);
        ProducerSnapshotFile.write(dir, e.offset(), producers, false);
        deleteSnapshots();
        long upTo = e.offset();
        // Kafka flushes a rolled segment in the background so the append path does not wait for fsync. The
        // truncation count is taken now: a truncation between queuing and running may have removed upTo.
        long truncationsAtRoll = truncations;
        scheduler.execute(() -> flushUpTo(upTo, truncationsAtRoll));
        return next;
    }

    /** Keeps the newest few producer snapshots and none below the log start offset. */
    private void deleteSnapshots() throws IOException {
        List<Long> snaps = ProducerSnapshotFile.list(dir);
        for (int i = 0; i < snaps.size(); i++) {
            if (snaps.get(i) < logStartOffset || i < snaps.size() - SNAPSHOTS_TO_KEEP) {
                Files.deleteIfExists(ProducerSnapshotFile.path(dir, snaps.get(i)));
            }
        }
    }

    // ---------------------------------------------------------------- read

    /**
     * A slice of one segment file starting at the batch that holds {@code offset}: up to {@code maxBytes},
     * but always the whole first batch (KIP-74). Empty at the log end offset.
     *
     * @throws OffsetOutOfRangeException when offset is below the log start or above the log end
     */
    public FileSlice read(long offset, int maxBytes) {
        return read(offset, maxBytes, Long.MAX_VALUE);
    }

    /**
     * As {@link #read(long, int)}, but nothing at or above {@code maxOffset} (a batch boundary such as the
     * high watermark): the slice ends at the batch starting there. Offsets from {@code maxOffset} up to the
     * log end read as empty; above the log end they are out of range.
     */
    public FileSlice read(long offset, int maxBytes, long maxOffset) {
        return read(offset, maxBytes, maxOffset, false);
    }

    /**
     * As {@link #read(long, int, long)}; with {@code readCommitted} the read also stops at the first offset
     * of the oldest open transaction, taken from the same log-end snapshot as the data (read_committed: a
     * transaction opened by an append racing this read is never half-seen).
     */
    public FileSlice read(long offset, int maxBytes, long maxOffset, boolean readCommitted) {
        while (true) {
            long truncationsBefore = truncations; // the seqlock: read first, checked again after
            if ((truncationsBefore & 1) != 0) {
                Thread.yield(); // a truncation is changing the segments and the end (rare, short): wait for it
                continue;
            }
            try {
                FileSlice slice = readOnce(offset, maxBytes, maxOffset, readCommitted);
                if (truncations == truncationsBefore) {
                    return slice;
                }
            } catch (OffsetOutOfRangeException e) {
                if (truncations == truncationsBefore) {
                    throw e;
                }
            }
            // A truncation raced this read (rare: a follower's divergent tail): read again from the new log end,
            // so the slice never reaches past it. A slice returned just before a truncation may still be sent
            // after it: bytes past a cut are never rewritten (see truncateTo), but the cut file is shortened,
            // so such a slice may come up short, ending inside a batch (Kafka's fetch behaves the same; the
            // client drops a partial trailing batch).
        }
    }

    private FileSlice readOnce(long offset, int maxBytes, long maxOffset, boolean readCommitted) {
        ensureOnline();
        LogEnd e = end;
        long start = logStartOffset;
        if (offset < start || offset > e.offset()) {
            throw outOfRange(offset, start, e.offset());
        }
        long unstable = readCommitted ? e.firstUnstable(committedUpTo) : Long.MAX_VALUE;
        long bound = readCommitted ? Math.min(maxOffset, Math.max(unstable, start)) : maxOffset;
        if (bound < e.offset()) {
            TxnStart at = bound == unstable ? e.startOf(unstable) : null;
            // The transaction's first batch, where its append wrote it: no I/O, unless the segment was
            // replaced since (cleaner, retention), when the lookup finds it afresh.
            e = at != null && segments.get(at.segment().baseOffset()) == at.segment()
                    ? e.at(bound, at.segment(), at.position()) : boundAt(bound, e);
        }
        if (offset >= e.offset()) {
            return new FileSlice(e.segment().channel(), e.position(), 0, offset, offset);
        }
        try {
            Map.Entry<Long, Segment> entry = segments.floorEntry(offset);
            while (entry != null) {
                Segment s = entry.getValue();
                FileSlice slice = s.read(offset, maxBytes, endPosition(s, e), endOffset(s, e));
                if (slice != null) {
                    return slice;
                }
                if (s == e.segment()) {
                    break;
                }
                entry = segments.higherEntry(entry.getKey());
            }
        } catch (ClosedChannelException deletedMeanwhile) {
            // retention removed the segment under us: the offset is gone now
        } catch (IOException ex) {
            throw storageError("read", ex);
        }
        throw outOfRange(offset, logStartOffset, end.offset());
    }

    /**
     * The log end as it stood when {@code maxOffset} was the end: the segment holding it and the position of
     * the batch starting there. Only reached while the high watermark lags the log end.
     */
    private LogEnd boundAt(long maxOffset, LogEnd e) {
        Map.Entry<Long, Segment> entry = segments.floorEntry(maxOffset);
        if (entry == null) {
            return e.at(maxOffset, e.segment(), 0);
        }
        Segment s = entry.getValue();
        try {
            FileSlice at = s.read(maxOffset, 0, endPosition(s, e), endOffset(s, e));
            return e.at(maxOffset, s, at == null ? endPosition(s, e) : (int) at.position());
        } catch (IOException ex) {
            throw storageError("read", ex);
        }
    }

    private static int endPosition(Segment s, LogEnd e) {
        return s == e.segment() ? e.position() : s.size();
    }

    /** The offset at {@link #endPosition}: the read's end, or the next segment's base (Kafka's fallback). */
    private long endOffset(Segment s, LogEnd e) {
        if (s == e.segment()) {
            return e.offset();
        }
        Long next = segments.higherKey(s.baseOffset());
        return next == null ? e.offset() : Math.min(next, e.offset());
    }

    private OffsetOutOfRangeException outOfRange(long offset, long start, long leo) {
        return new OffsetOutOfRangeException("offset " + offset + " is out of range for " + topic + "-" + partition
                + " [" + start + ", " + leo + "]");
    }

    // ---------------------------------------------------------------- list offsets

    /*
     * Both lookups answer per record, as Kafka does, yet stay off the hot path: appends track timestamps from
     * batch headers only, and a lookup finds its batch through the time index and a header scan before it
     * reads (and, if compressed, decompresses) that one batch to walk its records.
     */

    /**
     * The first record with a timestamp >= {@code timestamp} (at or above the log start offset): its offset
     * and timestamp. Empty when every record is older.
     */
    public Optional<OffsetAndTimestamp> offsetForTimestamp(long timestamp) {
        LogEnd e = end;
        long start = logStartOffset;
        try {
            for (Segment s : segments.values()) {
                if (s.maxTimestamp() >= timestamp) {
                    OffsetAndTimestamp found = s.findByTimestamp(timestamp, start, endPosition(s, e));
                    if (found != null) {
                        return Optional.of(found);
                    }
                }
                if (s == e.segment()) {
                    break;
                }
            }
        } catch (IOException ex) {
            throw storageError("timestamp lookup", ex);
        }
        return Optional.empty();
    }

    /**
     * The record with the largest timestamp (the first one carrying it, in the earliest segment holding it):
     * its offset and timestamp; empty for a log without timestamps.
     */
    public Optional<OffsetAndTimestamp> maxTimestampOffset() {
        LogEnd e = end;
        Segment best = null;
        for (Segment s : segments.values()) {
            if (s.maxTimestamp() >= 0 && (best == null || s.maxTimestamp() > best.maxTimestamp())) {
                best = s;
            }
            if (s == e.segment()) {
                break;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(best.maxTimestampRecord());
        } catch (IOException ex) {
            throw storageError("max timestamp lookup", ex);
        }
    }

    // ---------------------------------------------------------------- retention

    /**
     * Deletes the segments wholly below the log start offset (DeleteRecords moved it; whatever the cleanup
     * policy, as Kafka), then whole segments past retention.ms (their largest timestamp is older than now -
     * retention.ms), then while the log exceeds retention.bytes. The active segment goes too when everything expired,
     * after rolling a fresh one, as in Kafka. Files are renamed {@code .deleted} and unlinked after
     * file.delete.delay.ms. Returns the number of segments deleted.
     */
    public int deleteOldSegments(long nowMs) {
        synchronized (lock) {
            ensureOpen();
            LogConfig cfg = config;
            int deleted = 0;
            try {
                // As Kafka, for every cleanup policy: segments wholly below the log start (DeleteRecords) go.
                deleted += deleteSegmentsWhile(this::isBelowLogStart);
                if (!cfg.isDelete()) {
                    return deleted; // compact-only: the cleaner, not retention, bounds the log
                }
                if (cfg.retentionMs() >= 0) {
                    deleted += deleteSegmentsWhile(s -> {
                        try {
                            return nowMs - s.largestTimestamp() > cfg.retentionMs();
                        } catch (IOException e) {
                            return false;
                        }
                    });
                }
                if (cfg.retentionBytes() >= 0) {
                    long[] excess = {sizeInBytes() - cfg.retentionBytes()};
                    deleted += deleteSegmentsWhile(s -> {
                        if (excess[0] - s.size() >= 0) {
                            excess[0] -= s.size();
                            return true;
                        }
                        return false;
                    });
                }
            } catch (IOException e) {
                throw storageError("retention", e);
            } catch (UncheckedIOException e) {
                throw storageError("retention", e.getCause());
            }
            return deleted;
        }
    }

    private int deleteSegmentsWhile(Predicate<Segment> expired) throws IOException {
        List<Segment> deletable = new ArrayList<>();
        for (Segment s : segments.values()) {
            boolean active = s == end.segment();
            if ((active && s.size() == 0) || !expired.test(s)) {
                break;
            }
            deletable.add(s);
        }
        if (deletable.isEmpty()) {
            return 0;
        }
        if (deletable.size() == segments.size()) {
            roll(clock.millis());
        }
        for (Segment s : deletable) {
            segments.remove(s.baseOffset());
        }
        logStartOffset = Math.max(logStartOffset, segments.firstKey());
        epochs.truncateFromStart(logStartOffset);
        deleteSnapshots();
        for (Segment s : deletable) {
            s.renameToDeleted();
        }
        deleteLater(deletable);
        return deletable.size();
    }

    /**
     * Closes and unlinks segments already renamed {@code .deleted} after file.delete.delay.ms: a fetch may
     * still be sending from their channels, as in Kafka.
     */
    private void deleteLater(List<Segment> renamed) {
        long delay = config.fileDeleteDelayMs();
        for (Segment s : renamed) {
            scheduler.schedule(() -> {
                try {
                    s.closeAndDeleteFiles();
                } catch (IOException ignored) {
                    // the files are .deleted already; a restart removes them
                }
            }, delay, TimeUnit.MILLISECONDS);
        }
    }

    // ---------------------------------------------------------------- log start (DeleteRecords)

    /**
     * Moves the log start offset forward to {@code newLogStartOffset}, as Kafka's
     * UnifiedLog.maybeIncrementLogStartOffset: on a leader for DeleteRecords, on a follower to the log start
     * its leader reported in a fetch response. Offsets below it read as OFFSET_OUT_OF_RANGE and ListOffsets
     * earliest answers it. As in Kafka the leader epoch cache is truncated from the start (the epoch spanning
     * it now starts there), the producer state forgets decided transactions whose markers lie below it
     * (onLogStartOffsetIncremented), and the recovery point is raised to it; producers themselves stay, and a
     * {@code .txnindex} keeps its entries until its segment goes (read_committed reads start at or above the
     * log start and collect only what overlaps them). Segments wholly below the new start (the next segment
     * starts at or below it) are deleted at once, as retention would delete them on its next pass (Kafka
     * leaves that to the retention check), renamed {@code .deleted} and unlinked after file.delete.delay.ms.
     * The LogManager is told, so that {@code log-start-offset-checkpoint} holds it before this returns.
     *
     * @return true when the log start moved (false: it was at or past {@code newLogStartOffset} already)
     * @throws OffsetOutOfRangeException when {@code newLogStartOffset} is above the high watermark (the one the
     *         replication layer reported, else the log end)
     */
    public boolean maybeIncrementLogStartOffset(long newLogStartOffset) {
        synchronized (lock) {
            ensureOpen();
            long highWatermark = Math.min(committedUpTo, end.offset());
            if (newLogStartOffset > highWatermark) {
                throw new OffsetOutOfRangeException("Cannot increment the log start offset to " + newLogStartOffset
                        + " of partition " + topic + "-" + partition
                        + " since it is larger than the high watermark " + highWatermark);
            }
            if (newLogStartOffset <= logStartOffset) {
                return false;
            }
            try {
                logStartOffset = newLogStartOffset;
                recoveryPoint = Math.max(recoveryPoint, newLogStartOffset);
                firstDirtyOffset = Math.max(firstDirtyOffset, newLogStartOffset);
                epochs.truncateFromStart(newLogStartOffset);
                if (producers.onLogStartOffsetIncremented(newLogStartOffset)) {
                    forgetSettledTxnStarts();
                    LogEnd e = end;
                    end = endAt(e.offset(), e.segment(), e.position());
                }
                deleteSegmentsWhile(this::isBelowLogStart);
                deleteSnapshots();
            } catch (IOException e) {
                throw storageError("log start offset increment", e);
            } catch (UncheckedIOException e) {
                throw storageError("log start offset increment", e.getCause());
            }
        }
        logStartListener.accept(this);
        return true;
    }

    /** Kafka's deleteLogStartOffsetBreachedSegments test: the next segment starts at or below the log start. */
    private boolean isBelowLogStart(Segment s) {
        Long next = segments.higherKey(s.baseOffset());
        return next != null && next <= logStartOffset;
    }

    /** Sets who is told when the log start offset moved forward (the LogManager, which checkpoints it). */
    public void onLogStartOffsetIncremented(Consumer<PartitionLog> listener) {
        this.logStartListener = listener;
    }

    // ---------------------------------------------------------------- compaction

    /**
     * Cleans this log if it is compacted and worth it, as Kafka's LogCleanerManager decides: the dirty bytes
     * (segments overlapping [first dirty offset, first uncleanable offset)) make up at least
     * min.cleanable.dirty.ratio of the clean plus dirty bytes, or a tombstone's delete horizon has passed.
     * The first uncleanable offset is the least of the first unstable offset, the high watermark and the
     * active segment's base; segments from there on count as neither, so a long-open transaction does not
     * make every cleaner tick rewrite the same segments. After a restart every segment counts as dirty, so
     * the first pass cleans everything once. Returns the bytes reclaimed.
     */
    public long maybeClean(long nowMs) {
        LogConfig cfg = config;
        if (!cfg.isCompact() || closed || offlineReason != null) {
            return 0;
        }
        Segment active = end.segment();
        long firstUncleanable = Math.min(Math.min(firstUnstableOffset(), highWatermark()), active.baseOffset());
        long firstDirty = firstDirtyOffset;
        long dirty = 0;
        long clean = 0;
        for (Map.Entry<Long, Segment> entry : segments.headMap(active.baseOffset()).entrySet()) {
            Long next = segments.higherKey(entry.getKey());
            long segmentEnd = next == null ? Long.MAX_VALUE : next;
            long size = entry.getValue().size();
            if (segmentEnd <= firstDirty) {
                clean += size;
            } else if (firstDirty < firstUncleanable && entry.getKey() < firstUncleanable) {
                dirty += size;
            }
        }
        boolean ratio = dirty > 0 && (double) dirty / (clean + dirty) >= cfg.minCleanableDirtyRatio();
        return ratio || nowMs >= nextTombstoneHorizonMs ? clean(nowMs) : 0;
    }

    /** Tests only: runs on the cleaner thread with each cleaned segment once it is indexed and forced, before its swap-in. */
    volatile Consumer<Segment> beforeSwapIn = cleaned -> { };

    /**
     * One compaction pass over the inactive segments below the first uncleanable offset (the oldest open
     * transaction, the high watermark reported by {@link #updateHighWatermark}, the active segment; see
     * {@link LogCleaner}); appends and reads go on
     * meanwhile. Each cleaned segment is written, indexed and forced without the log lock, which is then
     * held only for the renames and the map update of its swap-in. Returns the bytes reclaimed.
     */
    public long clean(long nowMs) {
        synchronized (cleanerLock) {
            long truncationsBefore = truncations; // the seqlock first, then the end it guards
            if ((truncationsBefore & 1) != 0) {
                return 0; // a truncation is under way; the next pass starts from what it leaves
            }
            LogEnd e = end;
            Segment active = e.segment();
            List<Segment> all = new ArrayList<>(segments.headMap(active.baseOffset(), true).values());
            List<Segment> cleanable = all.subList(0, all.size() - 1);
            if (cleanable.isEmpty() || closed) {
                return 0;
            }
            long reclaimed = 0;
            long minHorizon = Long.MAX_VALUE;
            long firstUncleanable;
            try {
                LogConfig cfg = config;
                // Nothing from the high watermark on is stable: the one the replication layer reported
                // (updateHighWatermark), else the log end on one node. As in Kafka, which never cleans past
                // the last stable offset, the cleaner also finds open transactions (and those whose marker
                // is not below the high watermark) itself and stops before the oldest one. Producers that
                // expiry removed lose their last batch (a copy of the producer ids, safe to take lock-free).
                long stableEnd = Math.min(committedUpTo, e.offset());
                Set<Long> liveProducers = new HashSet<>(producers.producers().keySet());
                LogCleaner cleaner = LogCleaner.begin(all, active, e.position(), stableEnd, liveProducers::contains);
                firstUncleanable = cleaner.firstUncleanableOffset();
                for (Segment s : List.copyOf(cleanable)) {
                    if (!cleaner.cleans(s)) {
                        break;
                    }
                    LogCleaner.Rewritten r = cleaner.rewrite(s, dir, cfg, nowMs);
                    beforeSwapIn.accept(r.cleaned());
                    if (!swapIn(s, r.cleaned(), truncationsBefore)) {
                        return reclaimed; // retention or close got there first; the next pass starts over
                    }
                    reclaimed += r.bytesBefore() - r.bytesAfter();
                    minHorizon = Math.min(minHorizon, r.minDeleteHorizonMs());
                }
            } catch (ClosedChannelException closedMeanwhile) {
                return reclaimed;
            } catch (IOException ex) {
                if (truncations != truncationsBefore) {
                    return reclaimed; // a truncation cut a segment this pass was reading; the next pass starts over
                }
                throw storageError("clean", ex);
            }
            // Kafka's cleaner checkpoint: everything below the first uncleanable offset is clean now.
            firstDirtyOffset = Math.min(firstUncleanable, active.baseOffset());
            nextTombstoneHorizonMs = minHorizon;
            return reclaimed;
        }
    }

    /**
     * Replaces {@code old} by {@code cleaned} (indexed and forced already, its files named {@code .swap}):
     * under the lock only renames and the map update. The old files are renamed {@code .deleted} and
     * unlinked after file.delete.delay.ms, so fetches still sending from them finish. Refused when the log
     * was truncated since the pass began (it may have read bytes that are gone).
     */
    private boolean swapIn(Segment old, Segment cleaned, long truncationsBefore) throws IOException {
        long base = old.baseOffset();
        boolean current;
        synchronized (lock) {
            current = !closed && segments.get(base) == old && old != end.segment() && truncations == truncationsBefore;
            if (current) {
                old.renameToDeleted();
                cleaned.renameFiles("");
                segments.put(base, cleaned);
            }
        }
        if (!current) {
            cleaned.closeAndDeleteFiles(); // retention or close got there first
            return false;
        }
        scheduler.schedule(() -> {
            try {
                old.closeAndDeleteFiles();
            } catch (IOException ignored) {
                // the files are .deleted already; a restart removes them
            }
        }, config.fileDeleteDelayMs(), TimeUnit.MILLISECONDS);
        return true;
    }

    // ---------------------------------------------------------------- flush

    /** Forces data and indexes of everything appended so far and advances the recovery point. */
    public void flush() {
        long truncationsBefore = truncations;
        flushUpTo(end.offset(), truncationsBefore);
    }

    /** flush.ms policy: flushes when unflushed data is older than flush.ms. Called by the LogManager scheduler. */
    public void maybeFlushByTime(long nowMs) {
        long flushMs = config.flushMs();
        if (flushMs != Long.MAX_VALUE && nowMs - lastFlushMs >= flushMs && recoveryPoint < end.offset()) {
            flush();
        }
    }

    /**
     * Forces segments below {@code offset} and moves the recovery point there, unless a truncation happened
     * since {@code truncationsBefore} was read (when {@code offset} was chosen): it may be past the log end now.
     */
    private void flushUpTo(long offset, long truncationsBefore) {
        long from = recoveryPoint;
        if (offset <= from || closed) {
            return;
        }
        Long firstBase = segments.floorKey(from);
        try {
            for (Segment s : segments.subMap(firstBase == null ? Long.MIN_VALUE : firstBase, true, offset, false).values()) {
                s.flush();
            }
        } catch (ClosedChannelException deletedMeanwhile) {
            // retention or close got there first; nothing left to make durable
        } catch (IOException e) {
            throw storageError("flush", e);
        }
        synchronized (lock) {
            // A truncation since: offset may be gone. The clamp keeps the recovery point within the log anyway.
            long flushed = Math.min(offset, end.offset());
            if (flushed > recoveryPoint && truncations == truncationsBefore) {
                recoveryPoint = flushed;
            }
            unflushedMessages = 0;
            lastFlushMs = clock.millis();
        }
    }

    /** Unmaps the indexes of segments unused for {@code idleNanos}; see {@link Segment#unmapIdleIndexes}. */
    public int unmapIdleIndexes(long idleNanos) {
        int released = 0;
        for (Segment s : segments.values()) {
            released += s.unmapIdleIndexes(idleNanos);
        }
        return released;
    }

    // ---------------------------------------------------------------- state

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }

    public Path dir() {
        return dir;
    }

    /** The topic id from partition.metadata, or null if the log was created without one. */
    public UUID topicId() {
        return topicId;
    }

    public LogConfig config() {
        return config;
    }

    /** New settings apply to the next append/roll/retention pass; existing segments and indexes stay as they are. */
    public void updateConfig(LogConfig newConfig) {
        this.config = newConfig;
    }

    public long logStartOffset() {
        return logStartOffset;
    }

    public long logEndOffset() {
        ensureOnline();
        return end.offset();
    }

    /** On a single node every acknowledged append is committed. */
    public long highWatermark() {
        ensureOnline();
        return end.offset();
    }

    /** Offsets below this are known to be on disk; persisted by the LogManager's checkpoint. */
    public long recoveryPoint() {
        return recoveryPoint;
    }

    public long sizeInBytes() {
        long total = 0;
        for (Segment s : segments.values()) {
            total += s.size();
        }
        return total;
    }

    public int numberOfSegments() {
        return segments.size();
    }

    /** Base offsets of the live segments, ascending. */
    public List<Long> segmentBaseOffsets() {
        return List.copyOf(segments.keySet());
    }

    public List<LeaderEpochFile.EpochEntry> leaderEpochs() {
        return epochs.entries();
    }

    /**
     * Kafka's removeExpiredProducers: forgets producers whose last batch is {@code expirationMs} or more
     * older than {@code nowMs}, never one with an open transaction. Returns how many went; the next producer snapshot no longer carries them.
     */
    public int removeExpiredProducers(long nowMs, long expirationMs) {
        synchronized (lock) {
            return producers.removeExpiredProducers(nowMs, expirationMs);
        }
    }

    /**
     * First offset of the oldest open transaction on this partition, or of a decided one whose marker the
     * high watermark reported by {@link #updateHighWatermark} has not passed (Kafka's firstUnstableOffset;
     * never below the log start offset); Long.MAX_VALUE when none. Lock-free: read from the published log end.
     */
    public long firstUnstableOffset() {
        long unstable = end.firstUnstable(committedUpTo);
        return unstable == Long.MAX_VALUE ? unstable : Math.max(unstable, logStartOffset);
    }

    /**
     * The aborted transactions a read_committed fetch from {@code fetchOffset} up to {@code upperBoundOffset}
     * must know about: those with lastOffset >= fetchOffset and firstOffset < upperBoundOffset, in offset
     * order (Kafka's collectAbortedTransactions: the transaction indexes from the segment holding
     * fetchOffset on, until an entry's last stable offset reaches the upper bound). Lock-free.
     */
    public List<AbortedTxn> abortedTransactions(long fetchOffset, long upperBoundOffset) {
        ensureOnline();
        List<AbortedTxn> out = new ArrayList<>();
        Long from = segments.floorKey(fetchOffset);
        for (Segment s : (from == null ? segments : segments.tailMap(from)).values()) {
            try {
                if (s.txnIndex().collect(fetchOffset, upperBoundOffset, out)) {
                    break;
                }
            } catch (ClosedChannelException deletedMeanwhile) {
                // retention or the cleaner replaced the segment under us: nothing to add from it
            } catch (IOException e) {
                throw storageError("transaction index read", e);
            }
        }
        return out;
    }

    /**
     * The producers this partition knows (DescribeProducers): epoch, last sequence and timestamp, the
     * coordinator epoch of the last marker and the open transaction's first offset. A snapshot, lock-free.
     */
    public List<ActiveProducer> activeProducers() {
        List<ActiveProducer> out = new ArrayList<>();
        for (ProducerEntry e : producers.producers().values()) {
            out.add(new ActiveProducer(e.producerId(), e.epoch(), e.lastSeq(), e.lastTimestamp(),
                    e.coordinatorEpoch(), e.currentTxnFirstOffset()));
        }
        out.sort(Comparator.comparingLong(ActiveProducer::producerId));
        return out;
    }

    /** The idempotent-producer state (read it only from tests/tools; the log mutates it under its lock). */
    public ProducerStateManager producerState() {
        return producers;
    }

    private void ensureOpen() {
        if (closed) {
            throw new LogException(ErrorCode.KAFKA_STORAGE_ERROR, "log " + topic + "-" + partition + " is closed");
        }
        ensureOnline();
    }

    private void ensureOnline() {
        String reason = offlineReason;
        if (reason != null) {
            throw new LogException(ErrorCode.KAFKA_STORAGE_ERROR, "log " + topic + "-" + partition
                    + " is in an offline log dir: " + reason);
        }
    }

    /** Sets who is told about this log's I/O errors (the LogManager, which may take the dir offline). */
    public void onStorageError(BiConsumer<String, IOException> listener) {
        this.storageErrorListener = listener;
    }

    /** From now on every append, read and offset lookup fails with KAFKA_STORAGE_ERROR naming {@code reason}. */
    public void markOffline(String reason) {
        this.offlineReason = reason;
    }

    public boolean isOffline() {
        return offlineReason != null;
    }

    private LogException storageError(String what, IOException e) {
        storageErrorListener.accept(what, e);
        return new LogException(ErrorCode.KAFKA_STORAGE_ERROR, what + " failed on " + dir + ": " + e.getMessage(), e);
    }

    // ---------------------------------------------------------------- lifecycle

    /** Clean close: producer snapshot at the log end, indexes trimmed, everything forced. */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            try {
                ProducerSnapshotFile.write(dir, end.offset(), producers, true);
                deleteSnapshots();
                for (Segment s : segments.values()) {
                    s.close();
                }
                recoveryPoint = end.offset();
            } catch (IOException e) {
                throw storageError("close", e);
            } finally {
                closed = true;
            }
        }
    }

    /** Closes every segment's channel and index mappings without writing anything. */
    private void releaseSegments() {
        for (Segment s : segments.values()) {
            try {
                s.channel().close();
                s.offsetIndex().close();
                s.timeIndex().close();
                s.txnIndex().close();
            } catch (IOException ignored) {
                // closing only; nothing to recover
            }
        }
        segments.clear();
    }

    /** Closes the log and removes its directory with everything in it. */
    public void delete() {
        synchronized (lock) {
            closed = true;
            try {
                for (Segment s : segments.values()) {
                    s.closeAndDeleteFiles(); // releases the index mappings too
                }
                segments.clear();
                if (!Files.exists(dir)) {
                    return; // renamed away for deletion: the LogManager removes the files
                }
                try (Stream<Path> walk = Files.walk(dir)) {
                    for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            } catch (IOException e) {
                throw storageError("delete", e);
            }
        }
    }

    @Override
    public String toString() {
        return "PartitionLog(" + topic + "-" + partition + ", start=" + logStartOffset + ", end=" + end.offset() + ")";
    }
}
