package io.odradek.replication.cluster;

import io.odradek.replication.cluster.ControllerCommand.AlterTopicConfigs;
import io.odradek.replication.cluster.ControllerCommand.CreatePartitions;
import io.odradek.replication.cluster.ControllerCommand.CreateTopics;
import io.odradek.replication.cluster.ControllerCommand.DeleteTopics;
import io.odradek.replication.cluster.ControllerCommand.NewTopic;
import io.odradek.replication.metadata.Ids;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.replication.metadata.TopicNames;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Topic commands as Kafka's ReplicationControlManager answers them: per-topic validation with Kafka's
 * error codes and messages, placement by {@link ReplicaPlacer} or a manual assignment checked as Kafka
 * checks it. Configs arrive validated by the submitting broker and are stored as given.
 */
final class TopicControl {

    /** Each topic is created or refused on its own; validateOnly checks everything and changes nothing. */
    List<ItemResult> createTopics(ImageBuilder image, CreateTopics c) {
        List<ItemResult> results = new ArrayList<>();
        for (NewTopic t : c.topics()) {
            try {
                TopicImage created = newTopic(image, t);
                if (!c.validateOnly()) {
                    image.topics.put(created.name(), created);
                }
                results.add(ItemResult.ok(t.name()));
            } catch (MetadataException e) {
                results.add(new ItemResult(t.name(), e.error(), e.getMessage()));
            }
        }
        return results;
    }

    private static TopicImage newTopic(ImageBuilder image, NewTopic t) {
        if (TopicNames.CLUSTER_METADATA.equals(t.name())) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST,
                    "Creation of internal topic " + TopicNames.CLUSTER_METADATA + " is prohibited.");
        }
        TopicNames.validate(t.name());
        if (image.topics.containsKey(t.name())) {
            throw new MetadataException(ErrorCode.TOPIC_ALREADY_EXISTS, "Topic '" + t.name() + "' already exists.");
        }
        String unified = TopicNames.unifyCollisionChars(t.name());
        for (String existing : image.topics.keySet()) {
            if (TopicNames.unifyCollisionChars(existing).equals(unified)) {
                throw new MetadataException(ErrorCode.INVALID_TOPIC_EXCEPTION,
                        "Topic '" + t.name() + "' collides with existing topic: " + existing);
            }
        }
        Map<String, String> configs = t.configs() == null ? Map.of() : t.configs();
        for (Map.Entry<String, String> e : configs.entrySet()) {
            if (e.getValue() == null) {
                throw new MetadataException(ErrorCode.INVALID_CONFIG,
                        "Null value not supported for topic configs: " + e.getKey());
            }
        }
        if (t.id() == null || image.topicById(t.id()).isPresent()) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Topic id "
                    + (t.id() == null ? "null" : Ids.toBase64(t.id())) + " is missing or already in use");
        }
        List<PartitionRegistration> partitions;
        if (t.assignments() != null && !t.assignments().isEmpty()) {
            partitions = manualPartitions(image, new TreeMap<>(t.assignments()));
        } else {
            if (t.numPartitions() <= 0) {
                throw new MetadataException(ErrorCode.INVALID_PARTITIONS,
                        "Number of partitions was set to an invalid non-positive value.");
            }
            if (t.replicationFactor() <= 0) {
                throw new MetadataException(ErrorCode.INVALID_REPLICATION_FACTOR,
                        "Replication factor must be larger than 0, or -1 to use the default value.");
            }
            partitions = placedPartitions(image, t.id(), 0, t.numPartitions(), t.replicationFactor());
        }
        return new TopicImage(t.name(), t.id(), configs, partitions);
    }

    /** Kafka's manual assignment rules: partitions 0..n-1, each a non-empty list of distinct registered brokers. */
    private static List<PartitionRegistration> manualPartitions(ImageBuilder image,
            TreeMap<Integer, List<Integer>> assignments) {
        List<PartitionRegistration> partitions = new ArrayList<>();
        Integer replicationFactor = null;
        int expected = 0;
        for (Map.Entry<Integer, List<Integer>> e : assignments.entrySet()) {
            if (e.getKey() != expected) {
                throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        "partitions should be a consecutive 0-based integer sequence");
            }
            validateManual(image, e.getValue(), replicationFactor);
            replicationFactor = e.getValue().size();
            partitions.add(manualPartition(image, e.getKey(), e.getValue()));
            expected++;
        }
        return partitions;
    }

    /** A manually placed partition: in sync and led by its eligible replicas, as Kafka does. */
    private static PartitionRegistration manualPartition(ImageBuilder image, int index, List<Integer> replicas) {
        List<Integer> isr = new ArrayList<>();
        for (int b : replicas) {
            if (image.isEligible(b)) {
                isr.add(b);
            }
        }
        if (isr.isEmpty()) {
            throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "All brokers specified in the manual "
                    + "partition assignment for partition " + index + " are fenced or in controlled shutdown.");
        }
        return new PartitionRegistration(replicas, isr, List.of(), List.of(), isr.get(0), 0, 0);
    }

    /** Kafka's validateManualPartitionAssignment; {@code replicationFactor} null when not yet known. */
    static void validateManual(ImageBuilder image, List<Integer> replicas, Integer replicationFactor) {
        if (replicas == null || replicas.isEmpty()) {
            throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                    "The manual partition assignment includes an empty replica list.");
        }
        List<Integer> sorted = new ArrayList<>(replicas);
        Collections.sort(sorted);
        Integer previous = null;
        for (Integer b : sorted) {
            if (!image.brokers.containsKey(b)) {
                throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment "
                        + "includes broker " + b + ", but no such broker is registered.");
            }
            if (b.equals(previous)) {
                throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment "
                        + "includes the broker " + previous + " more than once.");
            }
            previous = b;
        }
        if (replicationFactor != null && sorted.size() != replicationFactor) {
            throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment "
                    + "includes a partition with " + sorted.size() + " replica(s), but this is not consistent with "
                    + "previous partitions, which have " + replicationFactor + " replica(s).");
        }
    }

    private static List<PartitionRegistration> placedPartitions(ImageBuilder image, UUID topicId, int first,
            int count, int replicationFactor) {
        boolean anyUsable = image.brokers.keySet().stream().anyMatch(image::isEligible);
        if (!anyUsable) {
            throw new MetadataException(ErrorCode.INVALID_REPLICATION_FACTOR, "Unable to replicate the partition "
                    + replicationFactor + " time(s): All brokers are currently fenced or in controlled shutdown.");
        }
        List<List<Integer>> placements;
        try {
            placements = ReplicaPlacer.place(image.brokers.values(), ReplicaPlacer.seed(topicId, first), count,
                    replicationFactor);
        } catch (MetadataException e) {
            throw new MetadataException(e.error(),
                    "Unable to replicate the partition " + replicationFactor + " time(s): " + e.getMessage());
        }
        List<PartitionRegistration> partitions = new ArrayList<>();
        for (List<Integer> replicas : placements) {
            partitions.add(PartitionRegistration.initial(replicas));
        }
        return partitions;
    }

    /** Per-topic results keyed by name, or by the id's string when the id is unknown (UNKNOWN_TOPIC_ID). */
    List<ItemResult> deleteTopics(ImageBuilder image, DeleteTopics c) {
        List<ItemResult> results = new ArrayList<>();
        for (UUID id : c.topicIds()) {
            TopicImage topic = id == null ? null : image.topicById(id).orElse(null);
            if (topic == null) {
                results.add(new ItemResult(id == null ? "null" : Ids.toBase64(id), ErrorCode.UNKNOWN_TOPIC_ID, null));
            } else {
                image.topics.remove(topic.name());
                results.add(ItemResult.ok(topic.name()));
            }
        }
        return results;
    }

    /** Grows the topic; new partitions are placed like a new topic's (RF of partition 0) unless assigned. */
    void createPartitions(ImageBuilder image, CreatePartitions c) {
        TopicImage topic = image.topics.get(c.topic());
        if (topic == null) {
            throw new MetadataException(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null);
        }
        int current = topic.partitions().size();
        if (c.totalCount() < current) {
            throw new MetadataException(ErrorCode.INVALID_PARTITIONS, "The topic " + c.topic() + " currently has "
                    + current + " partition(s); " + c.totalCount() + " would not be an increase.");
        }
        if (c.totalCount() == current) {
            throw new MetadataException(ErrorCode.INVALID_PARTITIONS,
                    "Topic already has " + current + " partition(s).");
        }
        int additional = c.totalCount() - current;
        int replicationFactor = current == 0 ? 1 : currentReplicas(topic.partitions().get(0)).size();
        List<PartitionRegistration> added;
        if (c.assignments() != null) {
            if (c.assignments().size() != additional) {
                throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "Attempted to add " + additional
                        + " additional partition(s), but only " + c.assignments().size()
                        + " assignment(s) were specified.");
            }
            added = new ArrayList<>();
            for (int i = 0; i < additional; i++) {
                List<Integer> replicas = c.assignments().get(i);
                validateManual(image, replicas, replicationFactor);
                added.add(manualPartition(image, current + i, replicas));
            }
        } else {
            added = placedPartitions(image, topic.id(), current, additional, replicationFactor);
        }
        if (!c.validateOnly()) {
            List<PartitionRegistration> all = new ArrayList<>(topic.partitions());
            all.addAll(added);
            image.topics.put(topic.name(), new TopicImage(topic.name(), topic.id(), topic.configs(), all));
        }
    }

    /** The replicas a partition keeps once any reassignment is over (its target). */
    private static List<Integer> currentReplicas(PartitionRegistration p) {
        return Elections.filter(p.replicas(), p.removing(), false);
    }

    /** Replaces the topic's config overrides (null values remove a key). */
    void alterConfigs(ImageBuilder image, AlterTopicConfigs c) {
        TopicImage topic = image.topics.get(c.topic());
        if (topic == null) {
            throw new MetadataException(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "The topic '" + c.topic() + "' does not exist.");
        }
        Map<String, String> configs = new TreeMap<>();
        c.configs().forEach((k, v) -> {
            if (v != null) {
                configs.put(k, v);
            }
        });
        TopicImage altered = new TopicImage(topic.name(), topic.id(), configs, topic.partitions());
        image.topics.put(topic.name(), altered);
        // Enabling unclean election brings offline partitions back at once (Kafka does it on its next sweep).
        if (image.uncleanAllowed(altered)) {
            for (int p = 0; p < altered.partitions().size(); p++) {
                image.putPartition(altered, p,
                        Elections.electIfLeaderless(altered.partitions().get(p), image::isEligible, true));
            }
        }
    }
}
