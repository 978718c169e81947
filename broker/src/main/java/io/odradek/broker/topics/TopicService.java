package io.odradek.broker.topics;

import io.odradek.broker.BrokerConfig;
import io.odradek.log.LogConfig;
import io.odradek.log.LogException;
import io.odradek.log.LogManager;
import io.odradek.log.PartitionLog;
import io.odradek.log.StorageLimits;
import io.odradek.replication.metadata.ClusterMetadata;
import io.odradek.replication.metadata.Ids;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Topics of this broker: the cluster metadata catalog and the partition logs behind it. Lookups are
 * lock-free and safe from any thread (produce and fetch use them on the event loops). Changes are
 * synchronised. A creation makes the partition logs first (removing them again if any fails) and records
 * the topic in the catalog last; a deletion renames and empties the partition dirs first (freeing space
 * before it needs any) and leaves the catalog last, the renamed dirs marking it as under way. So after a
 * crash the catalog is the truth, never names a topic whose logs could not be made, and a half-done
 * deletion is completed rather than undone: missing partition dirs are created and dirs of topics not in
 * the catalog are removed at start.
 *
 * <p>Limits, as Kafka's controller answers them: at most {@link #MAX_PARTITIONS_PER_REQUEST} partitions
 * per request and at most {@code odradek.max.partitions} on this broker, both POLICY_VIOLATION.
 * Handlers run changes through {@link #async} so disk syncs stay off the event loops.
 */
public final class TopicService implements AutoCloseable {
    private final List<Consumer<String>> deletionListeners = new CopyOnWriteArrayList<>();
    private static final System.Logger LOG = System.getLogger(TopicService.class.getName());

    /** What the service needs from the broker config; a record so tests can build one without a BrokerConfig. */
    public record Settings(List<Path> logDirs, int nodeId, LogConfig logDefaults, int numPartitions,
                           short defaultReplicationFactor, boolean autoCreateTopicsEnable,
                           boolean deleteTopicEnable, long retentionCheckIntervalMs, int maxPartitions,
                           long indexIdleUnmapMs) {
        /** Without a partition cap beyond the default {@link #DEFAULT_MAX_PARTITIONS}. */
        public Settings(List<Path> logDirs, int nodeId, LogConfig logDefaults, int numPartitions,
                        short defaultReplicationFactor, boolean autoCreateTopicsEnable,
                        boolean deleteTopicEnable, long retentionCheckIntervalMs) {
            this(logDirs, nodeId, logDefaults, numPartitions, defaultReplicationFactor, autoCreateTopicsEnable,
                    deleteTopicEnable, retentionCheckIntervalMs, DEFAULT_MAX_PARTITIONS,
                    LogManager.DEFAULT_INDEX_IDLE_UNMAP_MS);
        }

        public static Settings from(BrokerConfig config) {
            return new Settings(config.logDirs(), config.nodeId(), config.logDefaults(), config.numPartitions(),
                    config.defaultReplicationFactor(), config.autoCreateTopicsEnable(), config.deleteTopicEnable(),
                    config.logRetentionCheckIntervalMs(), config.maxPartitions(), config.indexIdleUnmapMs());
        }
    }

    /**
     * Kafka's QuorumController.MAX_RECORDS_PER_USER_OP: a CreateTopics asking for more partitions than this
     * in total is refused whole with POLICY_VIOLATION.
     */
    public static final int MAX_PARTITIONS_PER_REQUEST = 10_000;

    /**
     * Default of {@code odradek.max.partitions}. Each partition holds at least one open file (its active
     * segment) plus one per inactive segment, and two memory mappings while its indexes are in use; with
     * the usual ulimit -n of 20,000 to 65,536 and vm.max_map_count 65,530 this leaves room for segments,
     * connections and the JVM. Raise it together with those limits.
     */
    public static final int DEFAULT_MAX_PARTITIONS = 10_000;

    private final Settings settings;
    private final ClusterMetadata metadata;
    private final LogManager logs;
    private final ExecutorService metadataThread;

    private TopicService(Settings settings, ClusterMetadata metadata, LogManager logs) {
        this.settings = settings;
        this.metadata = metadata;
        this.logs = logs;
        this.metadataThread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "odradek-metadata");
            t.setDaemon(true);
            return t;
        });
    }

    /** Opens (or creates) the metadata and the logs in the broker's log dirs. */
    public static TopicService open(BrokerConfig config) {
        return open(Settings.from(config), config.logBackground());
    }

    public static TopicService open(Settings settings) {
        return open(settings, LogManager.Background.DEFAULTS);
    }

    /** As {@link #open(Settings)}, with the log manager's background pools and producer expiry as given. */
    public static TopicService open(Settings settings, LogManager.Background background) {
        ClusterMetadata metadata = ClusterMetadata.open(settings.logDirs(), settings.nodeId());
        LogManager logs = LogManager.open(settings.logDirs(), settings.logDefaults(),
                topic -> metadata.topic(topic).map(TopicInfo::configs).orElse(Map.of()),
                settings.retentionCheckIntervalMs(), settings.indexIdleUnmapMs(), Clock.systemUTC(), background);
        try {
            reconcile(metadata, logs);
        } catch (RuntimeException e) {
            logs.close();
            throw e;
        }
        warnAboutLimits(settings, metadata);
        return new TopicService(settings, metadata, logs);
    }

    /** Makes the partition dirs on disk match the catalog (see the class comment). */
    private static void reconcile(ClusterMetadata metadata, LogManager logs) {
        if (!metadata.catalogExisted()) {
            restoreCatalogFromDisk(metadata, logs);
        }
        metadata.ensureCatalogWritten();
        for (UUID id : logs.pendingTopicDeletions()) {
            metadata.topic(id).ifPresent(t -> {
                LOG.log(System.Logger.Level.WARNING, "completing the deletion of topic " + t.name()
                        + ", which the last shutdown interrupted");
                metadata.deleteTopic(t.name());
            });
        }
        Set<String> orphans = new TreeSet<>();
        for (PartitionLog log : logs.allLogs()) {
            TopicInfo topic = metadata.topic(log.topic()).orElse(null);
            if (topic == null) {
                orphans.add(log.topic());
            } else if (log.partition() >= topic.partitions()) {
                throw new LogException(ErrorCode.INCONSISTENT_TOPIC_ID, log.dir() + " is partition " + log.partition()
                        + " but the catalog's " + topic.name() + " has " + topic.partitions()
                        + " partition(s); move the directory away to start");
            } else if (log.topicId() != null && !log.topicId().equals(topic.id())) {
                throw new LogException(ErrorCode.INCONSISTENT_TOPIC_ID, log.dir() + " belongs to topic id "
                        + Ids.toBase64(log.topicId()) + " but the catalog's " + topic.name() + " has id "
                        + Ids.toBase64(topic.id()) + "; move the directory away to start");
            }
        }
        for (String topic : orphans) {
            LOG.log(System.Logger.Level.WARNING, "deleting the directories of topic " + topic
                    + ": it is not in the catalog (deleted before the last shutdown finished)");
            logs.deleteTopic(topic);
        }
        metadata.topics().forEach(t -> createPartitions(logs, t));
        logs.finishPendingDeletions();
    }

    /** A lost catalog is rebuilt from partition dirs carrying a topic id, rather than deleting their data. */
    private static void restoreCatalogFromDisk(ClusterMetadata metadata, LogManager logs) {
        Map<String, List<PartitionLog>> byTopic = new TreeMap<>();
        logs.allLogs().forEach(l -> byTopic.computeIfAbsent(l.topic(), t -> new ArrayList<>()).add(l));
        byTopic.forEach((name, parts) -> {
            UUID id = parts.stream().map(PartitionLog::topicId).filter(Objects::nonNull).findFirst()
                    .orElse(Ids.randomId());
            int count = parts.stream().mapToInt(PartitionLog::partition).max().orElse(0) + 1;
            LOG.log(System.Logger.Level.WARNING, "no topic catalog found: restoring topic " + name + " ("
                    + count + " partitions, id " + Ids.toBase64(id) + ") from its directories");
            metadata.restoreTopic(name, id, count, Map.of());
        });
    }

    /** One WARNING at start when the catalog or the OS limits do not fit odradek.max.partitions. */
    private static void warnAboutLimits(Settings settings, ClusterMetadata metadata) {
        int total = metadata.totalPartitions();
        if (total > settings.maxPartitions()) {
            LOG.log(System.Logger.Level.WARNING, "this broker holds " + total + " partitions, more than "
                    + "odradek.max.partitions=" + settings.maxPartitions() + "; no topic can be created until "
                    + "some are deleted or the limit is raised");
        }
        long files = StorageLimits.maxOpenFiles();
        if (files > 0 && files < settings.maxPartitions() + 1_000L) {
            LOG.log(System.Logger.Level.WARNING, "the open-file limit (ulimit -n = " + files + ") is below "
                    + "odradek.max.partitions=" + settings.maxPartitions() + " + 1000: each partition keeps at "
                    + "least one file open, so raise ulimit -n or lower odradek.max.partitions");
        }
    }

    private static void createPartitions(LogManager logs, TopicInfo topic) {
        for (int p = 0; p < topic.partitions(); p++) {
            logs.create(topic.name(), p, topic.id(), topic.configs());
        }
    }

    // ---------------------------------------------------------------- lookups

    public Optional<PartitionLog> partitionLog(String topic, int partition) {
        // Through the catalog, so a log is visible exactly when its topic is.
        TopicInfo t = metadata.topic(topic).orElse(null);
        if (t == null || partition < 0 || partition >= t.partitions()) {
            return Optional.empty();
        }
        return logs.get(topic, partition);
    }

    public Optional<String> topicName(UUID topicId) {
        return metadata.topic(topicId).map(TopicInfo::name);
    }

    public Optional<UUID> topicId(String topic) {
        return metadata.topic(topic).map(TopicInfo::id);
    }

    public Optional<TopicInfo> topic(String name) {
        return metadata.topic(name);
    }

    public Optional<TopicInfo> topic(UUID id) {
        return metadata.topic(id);
    }

    /** Every topic, sorted by name. */
    public Collection<TopicInfo> topics() {
        return metadata.topics();
    }

    public String clusterId() {
        return metadata.clusterId();
    }

    public int nodeId() {
        return metadata.nodeId();
    }

    public Settings settings() {
        return settings;
    }

    /** The broker-wide defaults of topic-level configs. */
    public LogConfig logDefaults() {
        return logs.defaults();
    }

    /** A topic's effective config: its overrides over the broker defaults. */
    public LogConfig effectiveConfig(TopicInfo topic) {
        return logs.defaults().with(topic.configs());
    }

    // ---------------------------------------------------------------- changes

    /** Runs {@code work} on the metadata thread, which serialises changes and keeps fsyncs off event loops. */
    public <T> CompletableFuture<T> async(Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, metadataThread);
    }

    /** Throws INVALID_TOPIC_EXCEPTION or TOPIC_ALREADY_EXISTS when a topic of this name cannot be created now. */
    public void checkCreatable(String name) {
        metadata.checkCreatable(name);
    }

    /** Validates topic-level overrides; INVALID_CONFIG names the bad key and rule. */
    public void validateConfigs(Map<String, String> overrides) {
        try {
            logs.defaults().with(overrides);
        } catch (IllegalArgumentException e) {
            throw new MetadataException(ErrorCode.INVALID_CONFIG, e.getMessage());
        }
    }

    /**
     * Kafka's per-operation limit: POLICY_VIOLATION when a request asks for more than
     * {@link #MAX_PARTITIONS_PER_REQUEST} partitions in total (Kafka's own message).
     */
    public static void checkPartitionsPerRequest(long requested) {
        if (requested > MAX_PARTITIONS_PER_REQUEST) {
            throw new MetadataException(ErrorCode.POLICY_VIOLATION, "Excessively large number of partitions per request.");
        }
    }

    /** POLICY_VIOLATION when {@code partitions} more would exceed {@code odradek.max.partitions} on this broker. */
    private void checkBrokerPartitionLimit(String name, int partitions) {
        long after = (long) metadata.totalPartitions() + partitions;
        if (after > settings.maxPartitions()) {
            throw new MetadataException(ErrorCode.POLICY_VIOLATION, "Topic '" + name + "' with " + partitions
                    + " partition(s) would bring this broker to " + after + " partitions, above its limit of "
                    + settings.maxPartitions() + " (odradek.max.partitions).");
        }
    }

    /**
     * Creates a topic and its partition logs (or, with {@code validateOnly}, only checks that it could be
     * created and returns what it would be, with an id that is not kept). Throws {@link MetadataException}.
     * The logs come first and the catalog entry last; if any log cannot be made, those already made are
     * removed and nothing is recorded, so no failed creation can stop the broker from starting.
     */
    public synchronized TopicInfo createTopic(String name, int partitions, Map<String, String> configs,
                                              boolean validateOnly) {
        metadata.checkCreatable(name);
        if (partitions < 1) {
            throw new MetadataException(ErrorCode.INVALID_PARTITIONS,
                    "Number of partitions was set to an invalid non-positive value.");
        }
        checkPartitionsPerRequest(partitions);
        checkBrokerPartitionLimit(name, partitions);
        validateConfigs(configs);
        TopicInfo topic = metadata.newTopic(name, partitions, configs);
        if (validateOnly) {
            return topic;
        }
        try {
            createPartitions(logs, topic);
            metadata.addTopic(topic);
        } catch (RuntimeException | Error e) {
            String cause = StorageLimits.describe(e);
            LOG.log(System.Logger.Level.ERROR, "cannot create topic " + name + " (" + partitions
                    + " partitions), removing its logs again: " + cause);
            try {
                logs.deleteTopic(name);
            } catch (RuntimeException cleanup) {
                // not in the catalog: the next start removes what is left of its dirs
                LOG.log(System.Logger.Level.WARNING, "cannot remove the logs of failed topic " + name + ": "
                        + cleanup.getMessage());
            }
            throw new MetadataException(ErrorCode.KAFKA_STORAGE_ERROR, "Cannot create the logs of topic '" + name
                    + "': " + cause);
        }
        LOG.log(System.Logger.Level.INFO, "created topic " + name + " with " + partitions + " partition(s), id "
                + Ids.toBase64(topic.id()) + (configs.isEmpty() ? "" : ", configs " + configs));
        return topic;
    }

    /**
     * Grows a topic to {@code total} partitions on this node (CreatePartitions on a single node): Kafka's
     * checks and messages (INVALID_PARTITIONS unless it grows), the broker's partition limit, then the
     * catalog and the new partitions' logs. The catalog goes first: a log that cannot be made is created
     * by the next start (which makes every catalogued partition's log), not left as an orphan that would
     * stop it. Throws {@link MetadataException}.
     */
    public synchronized TopicInfo createPartitions(String name, int total, boolean validateOnly) {
        TopicInfo topic = metadata.topic(name).orElseThrow(() -> new MetadataException(
                ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "This server does not host this topic-partition."));
        if (total < topic.partitions()) {
            throw new MetadataException(ErrorCode.INVALID_PARTITIONS, "The topic " + name + " currently has "
                    + topic.partitions() + " partition(s); " + total + " would not be an increase.");
        }
        if (total == topic.partitions()) {
            throw new MetadataException(ErrorCode.INVALID_PARTITIONS,
                    "Topic already has " + topic.partitions() + " partition(s).");
        }
        checkBrokerPartitionLimit(name, total - topic.partitions());
        if (validateOnly) {
            return new TopicInfo(name, topic.id(), total, topic.configs(), topic.internal());
        }
        TopicInfo grown = metadata.growPartitions(name, total);
        try {
            for (int p = topic.partitions(); p < total; p++) {
                logs.create(name, p, topic.id(), topic.configs());
            }
        } catch (RuntimeException | Error e) {
            String cause = StorageLimits.describe(e);
            LOG.log(System.Logger.Level.ERROR, "cannot create the new partitions of topic " + name + ": " + cause
                    + "; the next start creates them");
            throw new MetadataException(ErrorCode.KAFKA_STORAGE_ERROR, "Cannot create the logs of the new "
                    + "partitions of topic '" + name + "': " + cause);
        }
        LOG.log(System.Logger.Level.INFO, "grew topic " + name + " from " + topic.partitions() + " to " + total
                + " partition(s)");
        return grown;
    }

    /**
     * Runs {@code listener} with each deleted topic's name, after its logs are gone (the group coordinator
     * drops the committed offsets of deleted topics, so a re-created topic starts clean).
     */
    public void onTopicDeleted(Consumer<String> listener) {
        deletionListeners.add(listener);
    }

    /**
     * Deletes a topic in an order that needs no free disk space until space has been freed, and that a
     * crash cannot undo halfway: its partition dirs are renamed {@code -delete} and emptied first
     * ({@link LogManager#beginTopicDeletion}), then the catalog entry goes, then the empty dirs. A start
     * after a crash in between finishes the deletion (see {@link #reconcile}). A failed catalog write is
     * KAFKA_STORAGE_ERROR; the data is gone by then and a retry (or the next start) completes it.
     */
    public synchronized TopicInfo deleteTopic(String name) {
        TopicInfo topic = metadata.topic(name).orElseThrow(() -> new MetadataException(
                ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "This server does not host this topic-partition."));
        List<Path> markers;
        try {
            markers = logs.beginTopicDeletion(name, topic.id());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "cannot delete the logs of topic " + name + ": " + e.getMessage());
            throw new MetadataException(ErrorCode.KAFKA_STORAGE_ERROR, "Cannot delete the logs of topic '" + name
                    + "': " + e.getMessage());
        }
        try {
            metadata.deleteTopic(name);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "deleted the data of topic " + name + " but cannot update the "
                    + "topic catalog: " + e.getMessage() + "; a retry or the next start completes the deletion");
            throw new MetadataException(ErrorCode.KAFKA_STORAGE_ERROR, "Deleted the data of topic '" + name
                    + "' but cannot update the topic catalog: " + e.getMessage());
        }
        logs.finishTopicDeletion(markers);
        LOG.log(System.Logger.Level.INFO, "deleted topic " + name + " (id " + Ids.toBase64(topic.id()) + ")");
        deletionListeners.forEach(listener -> listener.accept(name));
        return topic;
    }

    /** Whether the partition's log dir is offline (I/O error): Metadata reports it without a leader. */
    public boolean isOffline(String topic, int partition) {
        return logs.isOffline(topic, partition);
    }

    /** Log dirs taken offline by I/O errors since start. */
    public Set<Path> offlineDirs() {
        return logs.offlineDirs();
    }

    /** Stops the metadata thread, then closes the logs (flush, checkpoints, clean-shutdown marker). */
    @Override
    public void close() {
        metadataThread.shutdown();
        try {
            metadataThread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        logs.close();
    }
}
