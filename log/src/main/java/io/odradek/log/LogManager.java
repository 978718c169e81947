package io.odradek.log;

import io.odradek.log.checkpoint.OffsetCheckpointFile;
import io.odradek.wire.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Every partition log under one or more {@code log.dirs}, like Kafka's LogManager: loads and recovers
 * them at start, places new partitions, runs retention, time-based flushes, checkpoints, producer expiry
 * and compaction on its own daemon threads (see {@link Background}), and writes the per-dir checkpoints
 * and the clean-shutdown marker on close.
 */
public final class LogManager implements AutoCloseable {
    public static final String CLEAN_SHUTDOWN_FILE = ".kafka_cleanshutdown";
    public static final long DEFAULT_RETENTION_CHECK_INTERVAL_MS = 300_000L;
    /** Kafka's log.flush.offset.checkpoint.interval.ms. */
    private static final long CHECKPOINT_INTERVAL_MS = 60_000L;
    /** Kafka's log.cleaner.backoff.ms: pause between cleaner passes over the compacted logs. */
    public static final long CLEANER_BACKOFF_MS = 15_000L;
    /** How often flush.ms is checked; Kafka's log.flush.scheduler.interval.ms is unbounded by default. */
    private static final long FLUSH_CHECK_INTERVAL_MS = 1_000L;

    /**
     * The background pools and periodic producer expiry, under Kafka's broker keys: {@code background.threads}
     * (retention, flushes, checkpoints, delayed deletes), {@code log.cleaner.threads} (compaction; 0 = none),
     * {@code num.recovery.threads.per.data.dir} (loading logs at start), {@code producer.id.expiration.ms} and
     * {@code producer.id.expiration.check.interval.ms}. None of this work ever runs on a network thread.
     */
    public record Background(int threads, int cleanerThreads, int recoveryThreadsPerDataDir,
                             long producerIdExpirationMs, long producerIdExpirationCheckIntervalMs) {
        /** Kafka 4's defaults. */
        public static final Background DEFAULTS = new Background(10, 1, 2, 86_400_000L, 600_000L);
    }

    private static final System.Logger LOG = System.getLogger(LogManager.class.getName());
    /** Default of odradek.index.idle.unmap.ms. */
    public static final long DEFAULT_INDEX_IDLE_UNMAP_MS = 60_000L;

    /** A partition's key: {@code <topic>-<partition>}, also its directory name. */
    private record Key(String topic, int partition) {
        String dirName() {
            return topic + "-" + partition;
        }
    }

    private final List<Path> dirs;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;
    private volatile boolean retentionHeld;
    private final Background background;
    /** log.cleaner.threads threads, each cleaning its share of the logs; null when compaction is off. */
    private final ScheduledExecutorService cleaner;
    private final Map<Key, PartitionLog> logs = new ConcurrentHashMap<>();
    private final Map<Key, Path> logDirOf = new ConcurrentHashMap<>();
    /** Emptied {@code -delete} dirs found at start, and the topic ids they name (see {@link #beginTopicDeletion}). */
    private final List<Path> pendingDeletionDirs = new ArrayList<>();
    private final Set<UUID> pendingDeletionIds = new java.util.HashSet<>();
    /** Log dirs taken offline by an I/O error (Kafka's LogDirFailureChannel); recovered by a restart. */
    private final Set<Path> offlineDirs = ConcurrentHashMap.newKeySet();
    private final StorageErrorLog storageErrorLog;
    private volatile LogConfig defaults;
    private volatile boolean closed;
    /** Serialises checkpoint writes: the periodic one and a log start's (each replaces the same files). */
    private final Object checkpointLock = new Object();

    private LogManager(List<Path> dirs, LogConfig defaults, Clock clock, Background background) {
        this.dirs = List.copyOf(dirs);
        this.defaults = defaults;
        this.clock = clock;
        this.background = background;
        this.storageErrorLog = new StorageErrorLog(clock);
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(background.threads(), r -> {
            Thread t = new Thread(r, "odradek-log-manager");
            t.setDaemon(true);
            return t;
        });
        // Pending .deleted unlinks are dropped on close: the next start removes those files anyway.
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.scheduler = executor;
        this.cleaner = background.cleanerThreads() == 0 ? null
                : Executors.newScheduledThreadPool(background.cleanerThreads(), r -> {
                    Thread t = new Thread(r, "odradek-log-cleaner");
                    t.setDaemon(true);
                    return t;
                });
    }

    /** Opens with the default retention check interval and the system clock. */
    public static LogManager open(List<Path> dirs, LogConfig defaults,
                                  Function<String, Map<String, String>> topicOverrides) {
        return open(dirs, defaults, topicOverrides, DEFAULT_RETENTION_CHECK_INTERVAL_MS, Clock.systemUTC());
    }

    /**
     * Loads and recovers every {@code <topic>-<n>} directory under {@code dirs}, with each topic's config
     * being {@code defaults.with(topicOverrides.apply(topic))}, then starts the background tasks.
     */
    public static LogManager open(List<Path> dirs, LogConfig defaults,
                                  Function<String, Map<String, String>> topicOverrides,
                                  long retentionCheckIntervalMs, Clock clock) {
        return open(dirs, defaults, topicOverrides, retentionCheckIntervalMs, DEFAULT_INDEX_IDLE_UNMAP_MS, clock,
                Background.DEFAULTS);
    }

    /**
     * As above; indexes unused for {@code indexIdleUnmapMs} are unmapped ({@code odradek.index.idle.unmap.ms}),
     * and the background pools are sized and producer expiry timed by {@code background}.
     */
    public static LogManager open(List<Path> dirs, LogConfig defaults,
                                  Function<String, Map<String, String>> topicOverrides,
                                  long retentionCheckIntervalMs, long indexIdleUnmapMs, Clock clock,
                                  Background background) {
        LogManager manager = new LogManager(dirs, defaults, clock, background);
        try {
            for (Path dir : dirs) {
                manager.loadDir(dir, topicOverrides);
            }
        } catch (IOException e) {
            manager.abandonLoad();
            throw new LogException(ErrorCode.KAFKA_STORAGE_ERROR, "cannot load log dirs " + dirs + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            manager.abandonLoad();
            throw e;
        }
        manager.scheduler.scheduleWithFixedDelay(manager::runRetentionQuietly, retentionCheckIntervalMs,
                retentionCheckIntervalMs, TimeUnit.MILLISECONDS);
        manager.scheduler.scheduleWithFixedDelay(manager::flushByTimeQuietly, FLUSH_CHECK_INTERVAL_MS,
                FLUSH_CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
        for (int i = 0; manager.cleaner != null && i < background.cleanerThreads(); i++) {
            int share = i;
            manager.cleaner.scheduleWithFixedDelay(() -> manager.runCleaner(share, background.cleanerThreads()),
                    CLEANER_BACKOFF_MS, CLEANER_BACKOFF_MS, TimeUnit.MILLISECONDS);
        }
        manager.scheduler.scheduleWithFixedDelay(manager::removeExpiredProducersQuietly,
                background.producerIdExpirationCheckIntervalMs(), background.producerIdExpirationCheckIntervalMs(),
                TimeUnit.MILLISECONDS);
        manager.scheduler.scheduleWithFixedDelay(manager::checkpointQuietly, CHECKPOINT_INTERVAL_MS,
                CHECKPOINT_INTERVAL_MS, TimeUnit.MILLISECONDS);
        long unmapCheckMs = Math.max(100L, Math.min(indexIdleUnmapMs / 2, 10_000L));
        manager.scheduler.scheduleWithFixedDelay(() -> manager.unmapIdleIndexes(indexIdleUnmapMs), unmapCheckMs,
                unmapCheckMs, TimeUnit.MILLISECONDS);
        return manager;
    }

    /**
     * After a failed load: the partitions opened so far are closed and the pools stopped, so a start that ran into
     * the open-file limit has its descriptors back before it reports why (the JVM still has classes to load from
     * jars it has not opened yet, each one a file; without them the report itself failed with NoClassDefFoundError).
     */
    private void abandonLoad() {
        scheduler.shutdownNow();
        if (cleaner != null) {
            cleaner.shutdownNow();
        }
        logs.values().forEach(LogManager::closeQuietly);
        logs.clear();
        logDirOf.clear();
    }

    private static void closeQuietly(PartitionLog log) {
        try {
            log.close();
        } catch (RuntimeException e) {
            // already failing: the load's own error is the one to report
        }
    }

    private void loadDir(Path dir, Function<String, Map<String, String>> topicOverrides) throws IOException {
        Files.createDirectories(dir);
        Path marker = dir.resolve(CLEAN_SHUTDOWN_FILE);
        boolean clean = Files.exists(marker);
        Map<String, Long> recoveryPoints = OffsetCheckpointFile.read(dir.resolve(OffsetCheckpointFile.RECOVERY_POINT));
        Map<String, Long> logStarts = OffsetCheckpointFile.read(dir.resolve(OffsetCheckpointFile.LOG_START_OFFSET));
        List<Path> partitionDirs;
        try (Stream<Path> children = Files.list(dir)) {
            partitionDirs = children.filter(Files::isDirectory).sorted().toList();
        }
        Map<Key, Callable<PartitionLog>> toLoad = new LinkedHashMap<>();
        for (Path p : partitionDirs) {
            String name = p.getFileName().toString();
            if (name.endsWith(FUTURE_SUFFIX) || name.endsWith(MOVED_SUFFIX)) {
                // A moveLog a crash interrupted: an unfinished copy, or the old dir of a finished one.
                deleteRecursively(p);
                continue;
            }
            if (name.endsWith(DELETE_SUFFIX)) {
                // A deletion a crash interrupted: free the space now, keep the emptied dir as the marker
                // until the topic is out of the catalog (see beginTopicDeletion).
                deleteContents(p);
                pendingDeletionDirs.add(p);
                UUID id = deletedTopicId(name);
                if (id != null) {
                    pendingDeletionIds.add(id);
                }
                continue;
            }
            Key key = parse(name);
            if (key == null) {
                continue;
            }
            LogConfig config = defaults.with(topicOverrides.apply(key.topic()));
            PartitionLog.Options options = PartitionLog.Options.defaults()
                    .withCleanShutdown(clean)
                    .withCheckpoints(recoveryPoints.getOrDefault(name, 0L), logStarts.getOrDefault(name, 0L))
                    .withClock(clock)
                    .withScheduler(scheduler);
            toLoad.put(key, () -> openAtStart(dir, key, config, options));
        }
        loadAll(dir, toLoad);
        // Deleted only after recovery: a crash during it must recover fully next time.
        Files.deleteIfExists(marker);
    }

    /** Opens one partition at start; a failure names the partition and, if it is an OS limit, the limit. */
    private static PartitionLog openAtStart(Path dir, Key key, LogConfig config, PartitionLog.Options options) {
        try {
            return PartitionLog.open(dir, key.topic(), key.partition(), config, options);
        } catch (RuntimeException e) {
            throw cannotOpen(dir, key.topic(), key.partition(), e);
        }
    }

    /**
     * The error of a partition that cannot be opened: which topic and partition, where, and which OS limit
     * (ulimit -n, vm.max_map_count) stopped it, so a failed start says what to change.
     */
    public static LogException cannotOpen(Path dir, String topic, int partition, Throwable cause) {
        ErrorCode code = cause instanceof LogException le ? le.errorCode() : ErrorCode.KAFKA_STORAGE_ERROR;
        return new LogException(code, "cannot open partition " + partition + " of topic " + topic + " in " + dir
                + ": " + StorageLimits.describe(cause), cause);
    }

    /**
     * Opens the partitions of one dir on a few threads (Kafka's num.recovery.threads.per.data.dir): a
     * start with many partitions, e.g. the 50 of {@code __consumer_offsets}, is bound by CPU and syscalls,
     * not by one disk queue. The first failure fails the whole load, as it would sequentially: the opens not
     * started yet are cancelled, the ones under way awaited, and what they opened closed (the partitions opened
     * before are closed by the caller), so a failed load holds no file open.
     */
    private void loadAll(Path dir, Map<Key, Callable<PartitionLog>> toLoad) throws IOException {
        int threads = Math.min(toLoad.size(), background.recoveryThreadsPerDataDir());
        if (threads <= 1) {
            for (Map.Entry<Key, Callable<PartitionLog>> e : toLoad.entrySet()) {
                put(e.getKey(), dir, callUnchecked(e.getValue()));
            }
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "odradek-log-recovery");
            t.setDaemon(true);
            return t;
        });
        Map<Key, Future<PartitionLog>> opening = new LinkedHashMap<>();
        boolean loaded = false;
        try {
            toLoad.forEach((key, open) -> opening.put(key, pool.submit(open)));
            for (Map.Entry<Key, Future<PartitionLog>> e : opening.entrySet()) {
                put(e.getKey(), dir, e.getValue().get());
            }
            loaded = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while loading " + dir, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException(cause);
        } finally {
            pool.shutdown();
            if (!loaded) {
                closeOpenedMeanwhile(pool, opening);
            }
        }
    }

    /**
     * After a failed load: cancels the opens not started, waits for the running ones (not interrupted: an open
     * may be recovering a segment) and closes what they opened.
     */
    private void closeOpenedMeanwhile(ExecutorService pool, Map<Key, Future<PartitionLog>> opening) {
        opening.values().forEach(f -> f.cancel(false));
        try {
            pool.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        opening.forEach((key, future) -> {
            if (!logs.containsKey(key) && future.isDone() && !future.isCancelled()) {
                try {
                    closeQuietly(future.get());
                } catch (ExecutionException | InterruptedException failed) {
                    // this one did not open
                }
            }
        });
    }

    private void put(Key key, Path dir, PartitionLog log) {
        log.onStorageError((what, e) -> storageError(dir, log, what, e));
        log.onLogStartOffsetIncremented(moved -> checkpointLogStartOffsets(dir));
        logs.put(key, log);
        logDirOf.put(key, dir);
    }

    /**
     * Kafka's handling of an I/O error in a log dir. A full disk (ENOSPC) or an exhausted OS limit (open
     * files, memory maps) only fails the operation, with one rate-limited line, so deleting topics or records frees space and the dir works again. Any other I/O
     * error takes the whole dir offline: one ERROR line naming the dir and the cause, then every partition
     * in it answers KAFKA_STORAGE_ERROR while the other dirs keep serving; a restart loads it afresh.
     */
    private void storageError(Path dir, PartitionLog log, String what, IOException e) {
        String where = log.topic() + "-" + log.partition();
        String limit = StorageLimits.explain(e);
        if (StorageLimits.isDiskFull(e)) {
            storageErrorLog.diskFull(dir, what + " on " + where);
        } else if (limit != null) {
            // Out of file descriptors or map entries is the process's limit, not the disk's (a flood of client
            // connections can cause it): fail the operation, keep the dir.
            storageErrorLog.osLimit(dir, what + " on " + where, limit);
        } else {
            markOffline(dir, what + " on " + where + " failed: " + e);
        }
    }

    /** Takes {@code dir} offline (once): its partitions fail every use with KAFKA_STORAGE_ERROR. */
    public void markOffline(Path dir, String cause) {
        if (!offlineDirs.add(dir)) {
            return;
        }
        List<PartitionLog> affected = new ArrayList<>();
        logDirOf.forEach((key, d) -> {
            PartitionLog log = logs.get(key);
            if (d.equals(dir) && log != null) {
                affected.add(log);
            }
        });
        String reason = dir + " failed (" + cause + ")";
        affected.forEach(l -> l.markOffline(reason));
        LOG.log(System.Logger.Level.ERROR, "Log directory " + dir + " is offline: " + cause + ". Its "
                + affected.size() + " partition(s) answer KAFKA_STORAGE_ERROR"
                + (offlineDirs.size() < dirs.size() ? "; the other log dirs keep serving" : "; no log dir is left online")
                + ". Fix the disk and restart the broker to recover it.");
    }

    /** Log dirs taken offline since start. */
    public Set<Path> offlineDirs() {
        return Set.copyOf(offlineDirs);
    }

    /** Whether the partition's log lives in an offline dir. */
    public boolean isOffline(String topic, int partition) {
        Path dir = logDirOf.get(new Key(topic, partition));
        return dir != null && offlineDirs.contains(dir);
    }

    private static PartitionLog callUnchecked(Callable<PartitionLog> open) throws IOException {
        try {
            return open.call();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /** {@code <topic>-<n>} with the partition after the LAST '-', since topic names may contain '-'. */
    private static Key parse(String dirName) {
        int dash = dirName.lastIndexOf('-');
        if (dash <= 0 || dash == dirName.length() - 1) {
            return null;
        }
        try {
            int partition = Integer.parseInt(dirName.substring(dash + 1));
            return partition < 0 ? null : new Key(dirName.substring(0, dash), partition);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Creates the partition's log in the dir holding the fewest partitions, or returns the existing one
     * (as Kafka's getOrCreateLog does). Throws IllegalArgumentException for a bad config.
     */
    public synchronized PartitionLog create(String topic, int partition, UUID topicId, Map<String, String> topicConfig) {
        ensureOpen();
        Key key = new Key(topic, partition);
        PartitionLog existing = logs.get(key);
        if (existing != null) {
            return existing;
        }
        LogConfig config = defaults.with(topicConfig);
        Path dir = leastLoadedDir();
        PartitionLog log;
        try {
            log = PartitionLog.open(dir, topic, partition, config, PartitionLog.Options.defaults()
                    .withTopicId(topicId).withCleanShutdown(true).withClock(clock).withScheduler(scheduler));
        } catch (RuntimeException e) {
            throw cannotOpen(dir, topic, partition, e);
        }
        put(key, dir, log);
        return log;
    }

    private Path leastLoadedDir() {
        Map<Path, Integer> counts = new HashMap<>();
        dirs.forEach(d -> counts.put(d, 0));
        logDirOf.values().forEach(d -> counts.merge(d, 1, Integer::sum));
        return dirs.stream().filter(d -> !offlineDirs.contains(d)).min(Comparator.comparingInt(counts::get))
                .orElseThrow(() -> new LogException(ErrorCode.KAFKA_STORAGE_ERROR,
                        "every log dir is offline: " + offlineDirs));
    }

    public Optional<PartitionLog> get(String topic, int partition) {
        return Optional.ofNullable(logs.get(new Key(topic, partition)));
    }

    public Collection<PartitionLog> allLogs() {
        return List.copyOf(logs.values());
    }

    /** Partition logs of one topic, by partition number. */
    public List<PartitionLog> topicLogs(String topic) {
        return logs.values().stream().filter(l -> l.topic().equals(topic))
                .sorted(Comparator.comparingInt(PartitionLog::partition)).toList();
    }

    /** Suffix of a partition's copy being written into another log dir by {@link #moveLog} (Kafka's future replica). */
    public static final String FUTURE_SUFFIX = "-future";
    /** Suffix of a moved partition's old dir, removed once the copy is live (or at the next start). */
    public static final String MOVED_SUFFIX = "-moved";

    /**
     * Moves a partition's log to another of this broker's log dirs (AlterReplicaLogDirs), while nothing is
     * appended to it (the caller runs this on the partition's writer). Kafka copies into a future replica that a
     * fetcher thread keeps up with the current one until it swaps them; this copies at once instead: the log
     * is closed (producer snapshot, trimmed indexes), its files copied and forced into
     * {@code <dest>/<topic>-<p>.<id>-future}, which is renamed {@code <topic>-<p>}; the old dir is renamed
     * {@code .<id>-moved} and deleted, and the log is opened again from its new place with its log start and
     * recovery point. A crash before the rename into place leaves the old dir live (the {@code -future} copy is
     * deleted at the next start); after it, the new one (a leftover {@code -moved} dir is deleted); a crash
     * between the two renames leaves two identical copies of the partition. Reads still sending from the
     * old files fail (their channels are closed), and the caller's Partition must be replaced: the returned
     * log is a new object.
     *
     * @param destDir one of {@code log.dirs}, as an absolute path
     * @return the log in its new dir, or the same log when it already lives in {@code destDir}
     * @throws LogException LOG_DIR_NOT_FOUND (not one of log.dirs), KAFKA_STORAGE_ERROR (either dir offline, or
     *         the copy failed: the log stays where it was), REPLICA_NOT_AVAILABLE (no such log here)
     */
    public synchronized PartitionLog moveLog(String topic, int partition, Path destDir) {
        ensureOpen();
        Path to = dirs.stream().filter(d -> d.toAbsolutePath().normalize().equals(destDir.toAbsolutePath().normalize()))
                .findFirst().orElseThrow(() -> new LogException(ErrorCode.LOG_DIR_NOT_FOUND,
                        "Log dir " + destDir + " is not found in the config."));
        if (offlineDirs.contains(to)) {
            throw new LogException(ErrorCode.KAFKA_STORAGE_ERROR, "Log directory " + destDir + " is offline");
        }
        Key key = new Key(topic, partition);
        PartitionLog old = logs.get(key);
        Path from = logDirOf.get(key);
        if (old == null || from == null) {
            throw new LogException(ErrorCode.REPLICA_NOT_AVAILABLE, "Replica of " + key.dirName() + " is not here");
        }
        if (offlineDirs.contains(from)) {
            throw new LogException(ErrorCode.KAFKA_STORAGE_ERROR, "Partition " + key.dirName() + " is offline");
        }
        if (from.equals(to)) {
            return old;
        }
        String unique = UUID.randomUUID().toString().replace("-", "");
        Path future = to.resolve(key.dirName() + "." + unique + FUTURE_SUFFIX);
        PartitionLog.Options reopen = PartitionLog.Options.defaults().withTopicId(old.topicId()).withCleanShutdown(true)
                .withClock(clock).withScheduler(scheduler);
        LogConfig config = old.config();
        long logStart = old.logStartOffset();
        old.onStorageError((what, e) -> { });
        old.close();
        reopen = reopen.withCheckpoints(old.recoveryPoint(), logStart);
        try {
            copyForced(old.dir(), future);
            Files.move(future, to.resolve(key.dirName()), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            io.odradek.log.checkpoint.AtomicFile.syncDirectory(to);
        } catch (IOException e) {
            try {
                deleteRecursively(future);
            } catch (IOException ignored) {
                // a -future leftover is deleted at the next start
            }
            put(key, from, PartitionLog.open(from, topic, partition, config, reopen)); // back where it was
            throw new LogException(ErrorCode.KAFKA_STORAGE_ERROR, "cannot move " + old.dir() + " to " + to + ": "
                    + e.getMessage(), e);
        }
        PartitionLog moved = PartitionLog.open(to, topic, partition, config, reopen);
        put(key, to, moved);
        Path retired = from.resolve(key.dirName() + "." + unique + MOVED_SUFFIX);
        try {
            Files.move(old.dir(), retired, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            io.odradek.log.checkpoint.AtomicFile.syncDirectory(from);
            deleteRecursively(retired);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Moved " + key.dirName() + " to " + to + " but cannot remove "
                    + old.dir() + " (" + e.getMessage() + "); remove it before the next start");
        }
        checkpointQuietly();
        return moved;
    }

    /** Copies a partition dir's files (not {@code .deleted} or temp files) and forces each, and the dir. */
    private static void copyForced(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (!Files.isRegularFile(f) || name.endsWith(".deleted") || name.endsWith(".tmp")) {
                    continue;
                }
                Path target = to.resolve(name);
                Files.copy(f, target);
                try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(target,
                        java.nio.file.StandardOpenOption.WRITE)) {
                    ch.force(true);
                }
            }
        }
        io.odradek.log.checkpoint.AtomicFile.syncDirectory(to);
    }

    /** Kafka's suffix of a partition dir being deleted: {@code <topic>-<p>.<32 hex>-delete}. */
    public static final String DELETE_SUFFIX = "-delete";

    /** Closes and removes every partition directory of the topic. */
    public synchronized void deleteTopic(String topic) {
        finishTopicDeletion(beginTopicDeletion(topic, null));
    }

    /**
     * The first half of a topic deletion, needing no free disk space and safe against a crash at any
     * point: each partition dir is renamed (atomically) to {@code <topic>-<p>.<topic id in hex>-delete},
     * as Kafka names it, its log closed and its files deleted, which frees the space. The emptied dirs stay
     * as markers: the caller removes the topic from the catalog (which needs space, now freed) and then
     * calls {@link #finishTopicDeletion}. A start that finds such a marker knows from the topic id that
     * this topic's deletion was under way and completes it ({@link #pendingTopicDeletions}) rather than
     * re-creating empty partitions for a catalog entry that was not yet removed.
     */
    public synchronized List<Path> beginTopicDeletion(String topic, UUID topicId) {
        String id = (topicId != null ? topicId : UUID.randomUUID()).toString().replace("-", "");
        List<Path> markers = new ArrayList<>();
        for (PartitionLog log : topicLogs(topic)) {
            Key key = new Key(topic, log.partition());
            Path logDir = logDirOf.get(key);
            log.onStorageError((what, e) -> { }); // errors while it goes away say nothing about the dir
            Path marker = logDir.resolve(deleteDirName(key, id));
            try {
                Files.move(log.dir(), marker, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new LogException(ErrorCode.KAFKA_STORAGE_ERROR, "cannot rename " + log.dir() + " for deletion: "
                        + e.getMessage(), e);
            }
            logs.remove(key);
            logDirOf.remove(key);
            log.delete(); // closes channels and index mappings; the files are under the marker now
            try {
                deleteContents(marker);
            } catch (IOException e) {
                throw new LogException(ErrorCode.KAFKA_STORAGE_ERROR, "cannot delete the files of " + marker + ": "
                        + e.getMessage(), e);
            }
            markers.add(marker);
        }
        checkpointQuietly();
        return markers;
    }

    /**
     * Closes and removes one partition's directory (a cluster replica assigned elsewhere now), renamed to
     * Kafka's {@code -delete} name first so a crash leaves a marker, not a half-deleted log. No-op if absent.
     */
    public synchronized void deletePartition(String topic, int partition) {
        Key key = new Key(topic, partition);
        PartitionLog log = logs.get(key);
        if (log == null) {
            return;
        }
        Path logDir = logDirOf.get(key);
        UUID topicId = log.topicId();
        String id = (topicId != null ? topicId : UUID.randomUUID()).toString().replace("-", "");
        log.onStorageError((what, e) -> { });
        Path marker = logDir.resolve(deleteDirName(key, id));
        try {
            Files.move(log.dir(), marker, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            logs.remove(key);
            logDirOf.remove(key);
            log.delete();
            deleteRecursively(marker);
        } catch (IOException e) {
            throw new LogException(ErrorCode.KAFKA_STORAGE_ERROR, "cannot delete " + log.dir() + ": " + e.getMessage(), e);
        }
        checkpointQuietly();
    }

    /** Removes the emptied marker dirs of {@link #beginTopicDeletion} once the catalog no longer names the topic. */
    public void finishTopicDeletion(List<Path> markers) {
        for (Path marker : markers) {
            try {
                deleteRecursively(marker);
            } catch (IOException e) {
                // an empty dir left behind; the next start removes it
            }
        }
    }

    /** Topic ids whose deletion a crash interrupted: the caller takes them out of the catalog, then calls {@link #finishPendingDeletions}. */
    public synchronized Set<UUID> pendingTopicDeletions() {
        return Set.copyOf(pendingDeletionIds);
    }

    public synchronized void finishPendingDeletions() {
        finishTopicDeletion(pendingDeletionDirs);
        pendingDeletionDirs.clear();
        pendingDeletionIds.clear();
    }

    /** Kafka's rule: the topic part is cut so the name stays within 255 bytes; the id is what counts. */
    private static String deleteDirName(Key key, String id) {
        String suffix = "-" + key.partition() + "." + id + DELETE_SUFFIX;
        String topic = key.topic().substring(0, Math.min(key.topic().length(), 255 - suffix.length()));
        return topic + suffix;
    }

    /** The id in {@code <topic>-<p>.<32 hex>-delete}, or null for a name that carries none. */
    private static UUID deletedTopicId(String dirName) {
        String base = dirName.substring(0, dirName.length() - DELETE_SUFFIX.length());
        int dot = base.lastIndexOf('.');
        String hex = dot < 0 ? "" : base.substring(dot + 1);
        if (hex.length() != 32) {
            return null;
        }
        try {
            return new UUID(Long.parseUnsignedLong(hex.substring(0, 16), 16), Long.parseUnsignedLong(hex.substring(16), 16));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Applies new topic-level overrides to every partition of the topic; validates before changing anything. */
    public synchronized void updateConfig(String topic, Map<String, String> topicConfig) {
        LogConfig config = defaults.with(topicConfig);
        topicLogs(topic).forEach(l -> l.updateConfig(config));
    }

    /**
     * New broker-wide defaults (dynamic broker configs, issue 9 "configs"): logs made from now on use them, and
     * every open log gets them under its topic's overrides ({@code topicOverrides}), so a topic without an
     * override follows the broker's value at once.
     */
    public synchronized void updateDefaults(LogConfig newDefaults,
            java.util.function.Function<String, Map<String, String>> topicOverrides) {
        this.defaults = newDefaults;
        for (PartitionLog log : logs.values()) {
            log.updateConfig(newDefaults.with(topicOverrides.apply(log.topic())));
        }
    }

    public LogConfig defaults() {
        return defaults;
    }

    /**
     * Holds retention and cleaning (their passes do nothing) until {@link #releaseRetention()}: in cluster mode
     * the topic overrides and dynamic defaults arrive with the first metadata image, and a pass before it would
     * judge segments by the static defaults (a shorter retention, or compaction of a log that is now delete-only)
     * and remove data for good.
     */
    public void holdRetention() {
        retentionHeld = true;
    }

    /** Lets retention and cleaning run from their next pass. */
    public void releaseRetention() {
        retentionHeld = false;
    }

    /** One retention pass over every log; returns how many segments were deleted (none while held). */
    public int runRetention() {
        if (retentionHeld) {
            return 0;
        }
        long now = clock.millis();
        int deleted = 0;
        for (PartitionLog log : logs.values()) {
            deleted += log.deleteOldSegments(now);
        }
        if (deleted > 0) {
            checkpointQuietly();
        }
        return deleted;
    }

    /**
     * Unmaps every index not used for {@code idleMs} (Kafka keeps inactive segments' indexes lazy too), so
     * the mappings held follow the partitions in use, not the partitions on disk. Returns how many went.
     */
    public int unmapIdleIndexes(long idleMs) {
        long idleNanos = TimeUnit.MILLISECONDS.toNanos(idleMs);
        int released = 0;
        for (PartitionLog log : logs.values()) {
            try {
                released += log.unmapIdleIndexes(idleNanos);
            } catch (RuntimeException e) {
                // a closing log; the next pass sees the rest
            }
        }
        return released;
    }

    private void runRetentionQuietly() {
        try {
            runRetention();
        } catch (RuntimeException e) {
            // A failing log must not stop the scheduler; the next pass retries.
        }
    }

    /**
     * One cleaner pass: each compacted log in turn (one partition at a time, on the calling thread)
     * is cleaned if its dirty ratio or an expired tombstone warrants it. Returns the bytes reclaimed.
     */
    public long runCleaner() {
        return runCleaner(0, 1);
    }

    /** A cleaner thread's pass over its share of the logs: those whose key hashes to {@code share} of {@code shares}. */
    private long runCleaner(int share, int shares) {
        if (retentionHeld) {
            return 0;
        }
        long reclaimed = 0;
        for (Map.Entry<Key, PartitionLog> entry : logs.entrySet()) {
            if (Math.floorMod(entry.getKey().hashCode(), shares) != share) {
                continue;
            }
            PartitionLog log = entry.getValue();
            try {
                reclaimed += log.maybeClean(clock.millis());
            } catch (RuntimeException e) {
                // a failing log must not starve the others; the next pass retries it
            }
        }
        return reclaimed;
    }

    /**
     * Kafka's periodic producer expiration check: producers whose last batch is older than
     * producer.id.expiration.ms leave the in-memory state of every log (and so its next snapshot).
     */
    public int removeExpiredProducers() {
        long now = clock.millis();
        int removed = 0;
        for (PartitionLog log : logs.values()) {
            removed += log.removeExpiredProducers(now, background.producerIdExpirationMs());
        }
        return removed;
    }

    private void removeExpiredProducersQuietly() {
        try {
            removeExpiredProducers();
        } catch (RuntimeException e) {
            // a closed or failing log; the next check retries
        }
    }

    private void flushByTimeQuietly() {
        long now = clock.millis();
        for (PartitionLog log : logs.values()) {
            try {
                log.maybeFlushByTime(now);
            } catch (RuntimeException e) {
                // retried on the next tick
            }
        }
    }

    /**
     * Writes {@code log-start-offset-checkpoint} of {@code dir} now: a log's start moved forward (DeleteRecords,
     * or a follower taking its leader's), and it must survive an unclean restart, which otherwise brings back
     * the records of every segment still on disk. Kafka writes it every
     * log.flush.start.offset.checkpoint.interval.ms only; a failure here is left to that periodic write.
     */
    private void checkpointLogStartOffsets(Path dir) {
        if (offlineDirs.contains(dir) || closed) {
            return;
        }
        synchronized (checkpointLock) {
            Map<String, Long> starts = new HashMap<>();
            logDirOf.forEach((key, d) -> {
                PartitionLog log = logs.get(key);
                if (d.equals(dir) && log != null) {
                    starts.put(key.dirName(), log.logStartOffset());
                }
            });
            try {
                OffsetCheckpointFile.write(dir.resolve(OffsetCheckpointFile.LOG_START_OFFSET), starts);
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "Cannot write the log start offsets of " + dir + " now ("
                        + e.getMessage() + "); the periodic checkpoint retries");
            }
        }
    }

    /** Writes recovery-point and log-start-offset checkpoints of every log dir. */
    public void checkpoint() throws IOException {
        synchronized (checkpointLock) {
            checkpointAllDirs();
        }
    }

    private void checkpointAllDirs() throws IOException {
        for (Path dir : dirs) {
            if (offlineDirs.contains(dir)) {
                continue; // nothing more is written to a failed dir; the next start recovers it
            }
            Map<String, Long> recovery = new HashMap<>();
            Map<String, Long> starts = new HashMap<>();
            logDirOf.forEach((key, d) -> {
                PartitionLog log = logs.get(key);
                if (d.equals(dir) && log != null) {
                    recovery.put(key.dirName(), log.recoveryPoint());
                    starts.put(key.dirName(), log.logStartOffset());
                }
            });
            OffsetCheckpointFile.write(dir.resolve(OffsetCheckpointFile.RECOVERY_POINT), recovery);
            OffsetCheckpointFile.write(dir.resolve(OffsetCheckpointFile.LOG_START_OFFSET), starts);
        }
    }

    private void checkpointQuietly() {
        try {
            checkpoint();
        } catch (IOException | RuntimeException e) {
            // the next checkpoint (or recovery) makes up for it
        }
    }

    /**
     * Stops the background tasks, closes every log (snapshots, trimmed indexes, fsync), writes the
     * checkpoints and finally the clean-shutdown marker of each dir.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (cleaner != null) {
            cleaner.shutdown();
            try {
                cleaner.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        scheduler.shutdown();
        try {
            scheduler.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<RuntimeException> failures = new ArrayList<>();
        Set<Path> failedDirs = new java.util.HashSet<>(offlineDirs);
        logDirOf.forEach((key, dir) -> {
            PartitionLog log = logs.get(key);
            if (log == null) {
                return;
            }
            try {
                log.close();
            } catch (RuntimeException e) {
                failedDirs.add(dir);
                if (!offlineDirs.contains(dir)) {
                    failures.add(e);
                }
            }
        });
        try {
            checkpoint();
            // A dir whose logs did not all close cleanly gets no marker: the next start recovers it.
            for (Path dir : dirs) {
                if (!failedDirs.contains(dir)) {
                    Files.write(dir.resolve(CLEAN_SHUTDOWN_FILE), new byte[0]);
                }
            }
        } catch (IOException e) {
            throw new LogException(ErrorCode.KAFKA_STORAGE_ERROR, "cannot write checkpoints: " + e.getMessage(), e);
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new LogException(ErrorCode.KAFKA_STORAGE_ERROR, "log manager is closed");
        }
    }

    /** Deletes everything inside {@code root}, keeping {@code root} itself. */
    private static void deleteContents(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.equals(root)) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
