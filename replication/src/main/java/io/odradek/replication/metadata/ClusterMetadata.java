package io.odradek.replication.metadata;

import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The cluster metadata of this node: cluster id, node id and the topic catalog. Reads are lock-free
 * (an immutable snapshot behind a volatile field, since every produce and fetch looks topics up);
 * changes are serialised and persisted before they become visible, so what a client was told exists
 * survives a crash. Single node for now: a Ratis state machine will later replace {@link TopicStore}.
 */
public final class ClusterMetadata {
    private static final System.Logger LOG = System.getLogger(ClusterMetadata.class.getName());

    /** Directory in the first log dir holding the catalog (Kafka keeps its KRaft log in __cluster_metadata-0). */
    public static final String DIR_NAME = "__cluster_metadata";
    public static final String TOPICS_FILE = "topics";

    private final MetaProperties meta;
    private final TopicStore store;
    private final boolean catalogExisted;
    private volatile Snapshot snapshot;

    private record Snapshot(Map<String, TopicInfo> byName, Map<UUID, TopicInfo> byId,
                            Map<String, String> byCollisionKey) {
        static Snapshot of(Collection<TopicInfo> topics) {
            Map<String, TopicInfo> byName = new TreeMap<>();
            Map<UUID, TopicInfo> byId = new HashMap<>();
            Map<String, String> byCollisionKey = new HashMap<>();
            for (TopicInfo t : topics) {
                if (byName.put(t.name(), t) != null) {
                    throw new IllegalStateException("topic " + t.name() + " is listed twice");
                }
                if (byId.put(t.id(), t) != null) {
                    throw new IllegalStateException("topic id " + Ids.toBase64(t.id()) + " is used twice");
                }
                byCollisionKey.put(TopicNames.unifyCollisionChars(t.name()), t.name());
            }
            return new Snapshot(Collections.unmodifiableMap(byName), Map.copyOf(byId), Map.copyOf(byCollisionKey));
        }
    }

    private ClusterMetadata(MetaProperties meta, TopicStore store) {
        this.meta = meta;
        this.store = store;
        this.catalogExisted = java.nio.file.Files.exists(store.file());
        this.snapshot = Snapshot.of(store.load());
    }

    /** Opens (or initialises) the metadata of the given log dirs; the catalog lives in the first one. */
    public static ClusterMetadata open(List<Path> logDirs, int nodeId) {
        if (logDirs.isEmpty()) {
            throw new IllegalArgumentException("no log dirs");
        }
        MetaProperties meta = MetaProperties.ensure(logDirs, nodeId);
        TopicStore store = new TopicStore(logDirs.get(0).resolve(DIR_NAME).resolve(TOPICS_FILE));
        ClusterMetadata metadata = new ClusterMetadata(meta, store);
        LOG.log(System.Logger.Level.INFO, "cluster " + meta.clusterId() + ", node " + nodeId + ", "
                + metadata.snapshot.byName.size() + " topic(s) in " + store.file());
        return metadata;
    }

    public String clusterId() {
        return meta.clusterId();
    }

    public int nodeId() {
        return meta.nodeId();
    }

    public Optional<TopicInfo> topic(String name) {
        return Optional.ofNullable(snapshot.byName.get(name));
    }

    public Optional<TopicInfo> topic(UUID id) {
        return Optional.ofNullable(snapshot.byId.get(id));
    }

    /** The topic of an id, or null: for the fetch path, which resolves ids per request (sessions, issue 9). */
    public TopicInfo topicOrNull(UUID id) {
        return snapshot.byId.get(id);
    }

    /** The leader epoch of {@code topic}-{@code partition}, or empty for an unknown topic. */
    public java.util.OptionalInt leaderEpoch(String topic, int partition) {
        TopicInfo info = snapshot.byName.get(topic);
        return info == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(info.leaderEpoch(partition));
    }

    /** Every topic, sorted by name. */
    public Collection<TopicInfo> topics() {
        return snapshot.byName.values();
    }

    /**
     * Checks that a topic of this name could be created now: a valid name, not taken, and not colliding
     * with an existing name that differs only in '.' versus '_'.
     */
    public synchronized void checkCreatable(String name) {
        TopicNames.validate(name);
        Snapshot s = snapshot;
        if (s.byName.containsKey(name)) {
            throw new MetadataException(ErrorCode.TOPIC_ALREADY_EXISTS, "Topic '" + name + "' already exists.");
        }
        String colliding = s.byCollisionKey.get(TopicNames.unifyCollisionChars(name));
        if (colliding != null) {
            throw new MetadataException(ErrorCode.INVALID_TOPIC_EXCEPTION,
                    "Topic '" + name + "' collides with existing topic: " + colliding);
        }
    }

    /** Creates a topic with a fresh id; {@code configs} are overrides already validated by the caller. */
    public synchronized TopicInfo createTopic(String name, int partitions, Map<String, String> configs) {
        return addTopic(newTopic(name, partitions, configs));
    }

    /**
     * A topic that could be created now, with a fresh id, NOT yet in the catalog: the broker creates its
     * partition logs first and then {@link #addTopic adds} it, so the catalog never names a topic whose
     * logs could not be made (a crash in between leaves only orphan dirs, which the next start removes).
     */
    public synchronized TopicInfo newTopic(String name, int partitions, Map<String, String> configs) {
        checkCreatable(name);
        if (partitions < 1) {
            throw new MetadataException(ErrorCode.INVALID_PARTITIONS,
                    "Number of partitions was set to an invalid non-positive value.");
        }
        UUID id = Ids.randomId();
        while (snapshot.byId.containsKey(id)) {
            id = Ids.randomId();
        }
        return new TopicInfo(name, id, partitions, configs, TopicNames.isInternal(name));
    }

    /** Records a topic from {@link #newTopic} in the catalog (persisted before it becomes visible). */
    public synchronized TopicInfo addTopic(TopicInfo topic) {
        checkCreatable(topic.name());
        if (snapshot.byId.containsKey(topic.id())) {
            throw new IllegalStateException("topic id " + Ids.toBase64(topic.id()) + " is already used");
        }
        if (!topic.internal() && TopicNames.hasCollisionChars(topic.name())) {
            LOG.log(System.Logger.Level.WARNING, "Topic '" + topic.name() + "' contains a period ('.') or "
                    + "underscore ('_'); because of metric names these collide, so a topic differing only in them "
                    + "can't be created. It is best to use either, but not both.");
        }
        Map<String, TopicInfo> next = new TreeMap<>(snapshot.byName);
        next.put(topic.name(), topic);
        commit(next);
        return topic;
    }

    /** Partitions of every topic in the catalog (the per-broker partition limit counts these). */
    public int totalPartitions() {
        int total = 0;
        for (TopicInfo t : snapshot.byName.values()) {
            total += t.partitions();
        }
        return total;
    }

    /**
     * Whether a catalog file was found at open. A catalog always exists once a topic was created, so
     * partition dirs without a catalog mean the catalog was lost, not that topics were deleted.
     */
    public boolean catalogExisted() {
        return catalogExisted;
    }

    /**
     * Writes the catalog if there is no file yet (a first start without topics), so that from then on a
     * missing catalog always means a lost one: partition dirs left by a creation that crashed before its
     * catalog write are then orphans to remove, not topics to restore.
     */
    public synchronized void ensureCatalogWritten() {
        if (!java.nio.file.Files.exists(store.file())) {
            store.save(snapshot.byName.values());
        }
    }

    /** Puts back a topic found on disk (its id read from partition.metadata) when rebuilding a lost catalog. */
    public synchronized TopicInfo restoreTopic(String name, UUID id, int partitions, Map<String, String> configs) {
        checkCreatable(name);
        if (snapshot.byId.containsKey(id)) {
            throw new IllegalStateException("topic id " + Ids.toBase64(id) + " of " + name + " is already used by "
                    + snapshot.byId.get(id).name());
        }
        TopicInfo topic = new TopicInfo(name, id, partitions, configs, TopicNames.isInternal(name));
        Map<String, TopicInfo> next = new TreeMap<>(snapshot.byName);
        next.put(name, topic);
        commit(next);
        return topic;
    }

    /** Removes a topic from the catalog and returns what it was. */
    public synchronized TopicInfo deleteTopic(String name) {
        TopicInfo topic = snapshot.byName.get(name);
        if (topic == null) {
            throw new MetadataException(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                    "This server does not host this topic-partition.");
        }
        Map<String, TopicInfo> next = new TreeMap<>(snapshot.byName);
        next.remove(name);
        commit(next);
        return topic;
    }

    /** Replaces a topic's config overrides (already validated by the caller). */
    public synchronized TopicInfo replaceConfigs(String name, Map<String, String> configs) {
        TopicInfo topic = snapshot.byName.get(name);
        if (topic == null) {
            throw new MetadataException(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                    "This server does not host this topic-partition.");
        }
        TopicInfo updated = topic.withConfigs(configs);
        Map<String, TopicInfo> next = new TreeMap<>(snapshot.byName);
        next.put(name, updated);
        commit(next);
        return updated;
    }

    /** Raises a topic's partition count (CreatePartitions; the caller checked that it grows). */
    public synchronized TopicInfo growPartitions(String name, int partitions) {
        TopicInfo topic = snapshot.byName.get(name);
        if (topic == null) {
            throw new MetadataException(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                    "This server does not host this topic-partition.");
        }
        if (partitions <= topic.partitions()) {
            throw new IllegalArgumentException("topic " + name + " has " + topic.partitions()
                    + " partitions, cannot grow to " + partitions);
        }
        TopicInfo grown = new TopicInfo(name, topic.id(), partitions, topic.configs(), topic.internal());
        Map<String, TopicInfo> next = new TreeMap<>(snapshot.byName);
        next.put(name, grown);
        commit(next);
        return grown;
    }

    /** Persists first, then publishes: a failed write leaves the visible catalog unchanged. */
    private void commit(Map<String, TopicInfo> next) {
        Snapshot s = Snapshot.of(next.values());
        store.save(next.values());
        snapshot = s;
    }
}
