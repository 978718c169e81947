package io.odradek.broker.topics;

import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.replication.metadata.TopicNames;
import io.odradek.wire.ErrorCode;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The topic catalog of a cluster node: the topics of one applied metadata image as {@link TopicInfo}s,
 * indexed by name and id. Immutable; {@link TopicService} swaps in a new one per image, so lookups on the
 * event loops stay lock-free.
 */
final class ImageTopics {
    static final ImageTopics EMPTY = of(ClusterImage.EMPTY);

    private final ClusterImage image;
    private final Map<String, TopicInfo> byName;
    private final Map<UUID, TopicInfo> byId;
    private final Map<String, String> byCollisionKey;

    private ImageTopics(ClusterImage image, Map<String, TopicInfo> byName, Map<UUID, TopicInfo> byId,
            Map<String, String> byCollisionKey) {
        this.image = image;
        this.byName = byName;
        this.byId = byId;
        this.byCollisionKey = byCollisionKey;
    }

    static ImageTopics of(ClusterImage image) {
        Map<String, TopicInfo> byName = new TreeMap<>();
        Map<UUID, TopicInfo> byId = new HashMap<>();
        Map<String, String> collisions = new HashMap<>();
        for (TopicImage t : image.topics().values()) {
            TopicInfo info = info(t);
            byName.put(t.name(), info);
            byId.put(t.id(), info);
            collisions.put(TopicNames.unifyCollisionChars(t.name()), t.name());
        }
        return new ImageTopics(image, Collections.unmodifiableMap(byName), Map.copyOf(byId), Map.copyOf(collisions));
    }

    /** A topic of the image as the rest of the broker knows topics. */
    static TopicInfo info(TopicImage t) {
        return new TopicInfo(t.name(), t.id(), t.partitions().size(), t.configs(), TopicNames.isInternal(t.name()));
    }

    ClusterImage image() {
        return image;
    }

    Optional<TopicInfo> topic(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    Optional<TopicInfo> topic(UUID id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The topic of an id, or null: for the fetch path, which resolves ids per request (sessions, issue 9). */
    TopicInfo topicOrNull(UUID id) {
        return byId.get(id);
    }

    /** Sorted by name. */
    Collection<TopicInfo> topics() {
        return byName.values();
    }

    int totalPartitions() {
        return byName.values().stream().mapToInt(TopicInfo::partitions).sum();
    }

    /** The local catalog's checks, against the image: a valid name, not taken, no '.'/'_' collision. */
    void checkCreatable(String name) {
        TopicNames.validate(name);
        if (byName.containsKey(name)) {
            throw new MetadataException(ErrorCode.TOPIC_ALREADY_EXISTS, "Topic '" + name + "' already exists.");
        }
        String colliding = byCollisionKey.get(TopicNames.unifyCollisionChars(name));
        if (colliding != null) {
            throw new MetadataException(ErrorCode.INVALID_TOPIC_EXCEPTION,
                    "Topic '" + name + "' collides with existing topic: " + colliding);
        }
    }
}
