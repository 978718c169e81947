package io.odradek.replication.cluster;

import io.odradek.replication.config.DynamicConfigs;
import io.odradek.replication.security.SecurityMetadata;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The cluster metadata at one offset of the metadata log (Kafka's MetadataImage): immutable, so any thread
 * may read the image it holds while the next one is built. {@code offset} is the index of the last
 * command applied (-1: nothing yet). {@code nextProducerId} is the first producer id no broker has been given.
 * {@code settings}: the cluster-wide controller defaults (unclean election, producer-id block size), in the
 * log so every controller applies commands alike whatever its local config: Kafka's defaults until the first
 * registration brings its broker's proposal (with the cluster id), then changed only by AlterClusterSettings.
 * {@code dynamicConfigs}: dynamic broker configs and client quotas (AlterDynamicConfigs), read by every broker.
 * {@code security}: ACLs and SCRAM credentials (CreateAcls, DeleteAcls, AlterScramCredentials).
 */
public record ClusterImage(long offset, String clusterId, SortedMap<Integer, BrokerRegistration> brokers,
        SortedMap<String, TopicImage> topics, long nextProducerId, ControllerSettings settings,
        DynamicConfigs dynamicConfigs, SecurityMetadata security) {
    public static final ClusterImage EMPTY = new ClusterImage(-1, null, new TreeMap<>(), new TreeMap<>(), 0);

    public ClusterImage {
        brokers = Collections.unmodifiableSortedMap(new TreeMap<>(brokers));
        topics = Collections.unmodifiableSortedMap(new TreeMap<>(topics));
        settings = settings == null ? ControllerSettings.DEFAULTS : settings;
        dynamicConfigs = dynamicConfigs == null ? DynamicConfigs.EMPTY : dynamicConfigs;
        security = security == null ? SecurityMetadata.EMPTY : security;
    }

    /** An image without ACLs and SCRAM credentials (the older form). */
    public ClusterImage(long offset, String clusterId, SortedMap<Integer, BrokerRegistration> brokers,
            SortedMap<String, TopicImage> topics, long nextProducerId, ControllerSettings settings,
            DynamicConfigs dynamicConfigs) {
        this(offset, clusterId, brokers, topics, nextProducerId, settings, dynamicConfigs, SecurityMetadata.EMPTY);
    }

    /** An image without dynamic configs (the older form). */
    public ClusterImage(long offset, String clusterId, SortedMap<Integer, BrokerRegistration> brokers,
            SortedMap<String, TopicImage> topics, long nextProducerId, ControllerSettings settings) {
        this(offset, clusterId, brokers, topics, nextProducerId, settings, DynamicConfigs.EMPTY);
    }

    /** An image with Kafka's default controller settings (the older form). */
    public ClusterImage(long offset, String clusterId, SortedMap<Integer, BrokerRegistration> brokers,
            SortedMap<String, TopicImage> topics, long nextProducerId) {
        this(offset, clusterId, brokers, topics, nextProducerId, ControllerSettings.DEFAULTS);
    }

    public Optional<TopicImage> topic(String name) {
        return Optional.ofNullable(topics.get(name));
    }

    /** By id; a scan, since images change rarely and are read by id only on the admin path. */
    public Optional<TopicImage> topic(UUID id) {
        for (TopicImage t : topics.values()) {
            if (t.id().equals(id)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    public Optional<PartitionRegistration> partition(String topic, int partition) {
        TopicImage t = topics.get(topic);
        return t == null ? Optional.empty() : Optional.ofNullable(t.partition(partition));
    }

    public Optional<BrokerRegistration> broker(int id) {
        return Optional.ofNullable(brokers.get(id));
    }

    /** Registered and not fenced. */
    public boolean isActive(int brokerId) {
        BrokerRegistration b = brokers.get(brokerId);
        return b != null && !b.fenced();
    }

    /** A map of topic ids to names, for callers that look up many ids at once. */
    public Map<UUID, String> topicNamesById() {
        Map<UUID, String> byId = new HashMap<>();
        topics.values().forEach(t -> byId.put(t.id(), t.name()));
        return byId;
    }
}
