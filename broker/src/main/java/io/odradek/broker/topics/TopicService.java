package io.odradek.broker.topics;

import io.odradek.broker.BrokerConfig;
import io.odradek.log.LogConfig;
import io.odradek.log.LogException;
import io.odradek.log.LogManager;
import io.odradek.log.PartitionLog;
import io.odradek.log.StorageLimits;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
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
import java.util.concurrent.atomic.AtomicReference;
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
 *
 * <p>Cluster mode ({@code process.roles} set): the catalog is the newest applied metadata image
 * ({@link #applyImage}), logs exist only for the replicas assigned here ({@link #reconcileReplicas}), and
 * creations and deletions go to the controller quorum through a {@link TopicController}, returning once
 * this broker has applied them, so every caller keeps the same TopicInfo/MetadataException contract.
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

    /**
     * Creations and deletions in cluster mode: commands to the controller quorum, returning once the
     * local image has applied them (implemented in broker/cluster).
     */
    public interface TopicController {
        /** {@code partitions}/{@code replicationFactor} -1: the broker defaults; {@code assignments} win when given. */
        TopicInfo createTopic(String name, int partitions, short replicationFactor,
                Map<Integer, List<Integer>> assignments, Map<String, String> configs, boolean validateOnly);

        TopicInfo deleteTopic(TopicInfo topic);

        /** Replaces the topic's config overrides (AlterTopicConfigs); returns once applied here. */
        default TopicInfo alterConfigs(TopicInfo topic, Map<String, String> configs) {
            throw new MetadataException(ErrorCode.UNSUPPORTED_VERSION, "Topic configs cannot be altered here.");
        }

        /** Returns once this broker has applied every change the quorum committed before the call. */
        default void catchUp() {
        }
    }

    private final Settings settings;
    private final ClusterMetadata metadata;
    private final LogManager logs;
    private final ExecutorService metadataThread;
    /** Cluster mode: the catalog of the newest applied image; null on a single node (the local catalog). */
    private final AtomicReference<ImageTopics> image;
    private volatile TopicController controller;

    private TopicService(Settings settings, ClusterMetadata metadata, LogManager logs,
            AtomicReference<ImageTopics> image) {
        this.settings = settings;
        this.metadata = metadata;
        this.logs = logs;
        this.image = image;
        this.metadataThread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "odradek-metadata");
            t.setDaemon(true);
            return t;
        });
    }

    /** Opens (or creates) the metadata and the logs in the broker's log dirs. */
    public static TopicService open(BrokerConfig config) {
        return config.isClusterMode() ? openForCluster(Settings.from(config), config.logBackground())
                : open(Settings.from(config), config.logBackground());
    }

    /**
     * Cluster mode: the logs found on disk are opened but nothing is reconciled yet; the catalog is empty
     * until the first image is applied, and logs of replicas not assigned here are removed only once the
     * image has caught up ({@link #reconcileReplicas}). meta.properties still holds the node id and the
     * cluster id this node proposes when it registers.
     */
    public static TopicService openForCluster(Settings settings, LogManager.Background background) {
        ClusterMetadata metadata = ClusterMetadata.open(settings.logDirs(), settings.nodeId());
        AtomicReference<ImageTopics> image = new AtomicReference<>(ImageTopics.EMPTY);
        LogManager logs = LogManager.open(settings.logDirs(), settings.logDefaults(),
                topic -> image.get().topic(topic).map(TopicInfo::configs).orElse(Map.of()),
                settings.retentionCheckIntervalMs(), settings.indexIdleUnmapMs(), Clock.systemUTC(), background);
        // Topic overrides and dynamic defaults come with the first image: no deletion or cleaning before it.
        logs.holdRetention();
        return new TopicService(settings, metadata, logs, image);
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
        return new TopicService(settings, metadata, logs, null);
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
        TopicInfo t = topic(topic).orElse(null);
        if (t == null || partition < 0 || partition >= t.partitions()) {
            return Optional.empty();
        }
        return logs.get(topic, partition);
    }

    public Optional<String> topicName(UUID topicId) {
        return topic(topicId).map(TopicInfo::name);
    }

    /** A topic id's name, or null; allocates nothing (the fetch path resolves ids per request: sessions, issue 9). */
    public String topicNameOrNull(UUID topicId) {
        TopicInfo t = image != null ? image.get().topicOrNull(topicId) : metadata.topicOrNull(topicId);
        return t == null ? null : t.name();
    }

    public Optional<UUID> topicId(String topic) {
        return topic(topic).map(TopicInfo::id);
    }

    public Optional<TopicInfo> topic(String name) {
        return image != null ? image.get().topic(name) : metadata.topic(name);
    }

    public Optional<TopicInfo> topic(UUID id) {
        return image != null ? image.get().topic(id) : metadata.topic(id);
    }

    /** Every topic, sorted by name. */
    public Collection<TopicInfo> topics() {
        return image != null ? image.get().topics() : metadata.topics();
    }

    /** The cluster's id: the image's in cluster mode (once registered), else meta.properties'. */
    public String clusterId() {
        String fromImage = image != null ? image.get().image().clusterId() : null;
        return fromImage != null ? fromImage : metadata.clusterId();
    }

    /** Whether this broker is part of a cluster (process.roles set): the catalog is the metadata image. */
    public boolean isClusterMode() {
        return image != null;
    }

    /**
     * The replication factor of a topic: its first partition's replica count in the image in cluster mode,
     * 1 on a single node (or {@code default.replication.factor} for a topic not in the image, e.g. validated only).
     */
    public short replicationFactor(TopicInfo topic) {
        if (image == null) {
            return 1;
        }
        return image.get().image().partition(topic.name(), 0).filter(p -> topic(topic.name())
                        .map(t -> t.id().equals(topic.id())).orElse(false))
                .map(p -> (short) p.replicas().size()).orElse(settings.defaultReplicationFactor());
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
        if (image != null) {
            image.get().checkCreatable(name);
        } else {
            metadata.checkCreatable(name);
        }
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
    public TopicInfo createTopic(String name, int partitions, Map<String, String> configs, boolean validateOnly) {
        if (image != null) {
            return controller().createTopic(name, partitions, (short) -1, Map.of(), configs, validateOnly);
        }
        return createLocalTopic(name, partitions, configs, validateOnly);
    }

    /**
     * As {@link #createTopic(String, int, Map, boolean)} with a replication factor ({@code -1}: the default)
     * and manual assignments (partition -> replicas; empty: placed by the controller), which only a cluster
     * uses: on a single node both were checked by the caller and every replica is this broker.
     */
    public TopicInfo createTopic(String name, int partitions, short replicationFactor,
            Map<Integer, List<Integer>> assignments, Map<String, String> configs, boolean validateOnly) {
        if (image != null) {
            return controller().createTopic(name, partitions, replicationFactor, assignments, configs, validateOnly);
        }
        return createLocalTopic(name, assignments.isEmpty() ? partitions : assignments.size(), configs, validateOnly);
    }

    /**
     * Cluster mode: returns once this broker's image holds every metadata change committed before the call (an
     * incremental config change resolves its ops against it: a change just made through another broker must not
     * be lost). Single node: the catalog is always current. Throws {@link MetadataException}.
     */
    public void catchUpWithController() {
        if (image != null) {
            controller().catchUp();
        }
    }

    private TopicController controller() {
        TopicController c = controller;
        if (c == null) {
            throw new MetadataException(ErrorCode.NOT_CONTROLLER, "This broker is not connected to the controller yet.");
        }
        return c;
    }

    /** Cluster mode: where creations and deletions go (set once by the cluster node at start). */
    public void useController(TopicController topicController) {
        this.controller = topicController;
    }

    private synchronized TopicInfo createLocalTopic(String name, int partitions, Map<String, String> configs,
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
    public TopicInfo deleteTopic(String name) {
        if (image != null) {
            TopicInfo topic = topic(name).orElseThrow(() -> new MetadataException(
                    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "This server does not host this topic-partition."));
            return controller().deleteTopic(topic);
        }
        return deleteLocalTopic(name);
    }

    private synchronized TopicInfo deleteLocalTopic(String name) {
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

    // ---------------------------------------------------------------- configs (issue 9, configs)

    /**
     * Replaces a topic's config overrides, as AlterConfigs and IncrementalAlterConfigs do, in Kafka's order of
     * checks: the name (INVALID_REQUEST for "", INVALID_TOPIC_EXCEPTION), the values ({@link TopicConfigDef},
     * INVALID_CONFIG), then existence (UNKNOWN_TOPIC_OR_PARTITION). Single node: the catalog is written first,
     * then every partition log takes the new config; cluster: an AlterTopicConfigs command, applied to the logs
     * with the image. {@code validateOnly} checks and changes nothing. Throws {@link MetadataException}.
     */
    public TopicInfo alterConfigs(String name, Map<String, String> overrides, boolean validateOnly) {
        if (name == null || name.isEmpty()) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Default topic resources are not allowed.");
        }
        io.odradek.replication.metadata.TopicNames.validate(name);
        TopicConfigDef.validate(overrides, logs.defaults());
        TopicInfo topic = topic(name).orElseThrow(() -> new MetadataException(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                "The topic '" + name + "' does not exist."));
        if (validateOnly) {
            return topic.withConfigs(overrides);
        }
        if (image != null) {
            return controller().alterConfigs(topic, overrides);
        }
        synchronized (this) {
            TopicInfo altered = metadata.replaceConfigs(name, overrides);
            logs.updateConfig(name, overrides);
            LOG.log(System.Logger.Level.INFO, "topic " + name + " configs now " + new TreeMap<>(overrides));
            return altered;
        }
    }

    /**
     * New broker-wide topic defaults (dynamic broker configs changed): every log takes them under its topic's
     * overrides, so topics without an override follow the broker's value at once.
     */
    /** Cluster mode: the first image's topic configs and dynamic defaults are in force; retention may run. */
    public void releaseRetention() {
        logs.releaseRetention();
    }

    public void updateLogDefaults(LogConfig defaults) {
        logs.updateDefaults(defaults, t -> topic(t).map(TopicInfo::configs).orElse(Map.of()));
    }

    /** Whether the partition's log dir is offline (I/O error): Metadata reports it without a leader. */
    public boolean isOffline(String topic, int partition) {
        return logs.isOffline(topic, partition);
    }

    // ---------------------------------------------------------------- cluster mode: applying images

    /**
     * Makes {@code next} the catalog (cluster mode; called in image order on one thread). Topics gone from
     * it (or re-created under a new id) lose their local logs and are announced to the deletion listeners;
     * changed topic configs reach their logs.
     */
    public void applyImage(ClusterImage next) {
        ImageTopics before = image.get();
        ImageTopics after = ImageTopics.of(next);
        image.set(after);
        for (TopicInfo old : before.topics()) {
            TopicInfo now = after.topic(old.name()).orElse(null);
            if (now == null || !now.id().equals(old.id())) {
                logs.deleteTopic(old.name());
                LOG.log(System.Logger.Level.INFO, "deleted topic " + old.name() + " (id " + Ids.toBase64(old.id())
                        + ") as the cluster metadata at offset " + next.offset() + " says");
                deletionListeners.forEach(listener -> listener.accept(old.name()));
            } else if (!now.configs().equals(old.configs())) {
                logs.updateConfig(now.name(), now.configs());
            }
        }
        if (before.image().offset() < 0) {
            LOG.log(System.Logger.Level.INFO, "first cluster metadata image: offset " + next.offset() + ", "
                    + next.brokers().size() + " broker(s), " + next.topics().size() + " topic(s)");
            return;
        }
        for (TopicInfo t : after.topics()) {
            if (before.topic(t.name()).filter(old -> old.id().equals(t.id())).isEmpty()) {
                LOG.log(System.Logger.Level.INFO, "topic " + t.name() + " (" + t.partitions() + " partition(s), id "
                        + Ids.toBase64(t.id()) + ") is in the cluster metadata at offset " + next.offset());
            }
        }
    }

    /**
     * Gives every replica {@code image} assigns to {@code brokerId} a log (re-made when the dir on disk
     * belongs to an older topic of the same name), and with {@code deleteUnassigned} removes the logs of
     * partitions not assigned here: only once the image has caught up with the metadata log, since an older
     * image may simply not know a topic yet.
     */
    public void reconcileReplicas(ClusterImage image, int brokerId, boolean deleteUnassigned) {
        for (TopicImage t : image.topics().values()) {
            for (int p = 0; p < t.partitions().size(); p++) {
                if (t.partitions().get(p).replicas().contains(brokerId)) {
                    createLocalLog(t, p);
                }
            }
        }
        if (!deleteUnassigned) {
            return;
        }
        for (PartitionLog log : logs.allLogs()) {
            PartitionRegistration assigned = image.partition(log.topic(), log.partition())
                    .filter(p -> p.replicas().contains(brokerId)).orElse(null);
            if (assigned == null) {
                LOG.log(System.Logger.Level.INFO, "deleting the log of " + log.topic() + "-" + log.partition()
                        + ": the cluster metadata at offset " + image.offset() + " assigns no replica of it here");
                deleteLocalLog(log.topic(), log.partition());
            }
        }
    }

    /** The log of a replica assigned here, made with the topic's id and configs if it does not exist. */
    public PartitionLog createLocalLog(TopicImage topic, int partition) {
        PartitionLog existing = logs.get(topic.name(), partition).orElse(null);
        if (existing != null && existing.topicId() != null && !existing.topicId().equals(topic.id())) {
            LOG.log(System.Logger.Level.WARNING, "deleting " + existing.dir() + ": it belongs to topic id "
                    + Ids.toBase64(existing.topicId()) + ", the cluster's " + topic.name() + " has id "
                    + Ids.toBase64(topic.id()));
            logs.deletePartition(topic.name(), partition);
        }
        return logs.create(topic.name(), partition, topic.id(), topic.configs());
    }

    /** Removes the log of a replica no longer assigned here. */
    public void deleteLocalLog(String topic, int partition) {
        logs.deletePartition(topic, partition);
    }

    /**
     * records (issue 9), AlterReplicaLogDirs: moves a partition's log to another of {@code log.dirs}; run it on the
     * partition's writer (see {@code LogManager.moveLog}).
     */
    public PartitionLog moveLog(String topic, int partition, Path destDir) {
        return logs.moveLog(topic, partition, destDir);
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
