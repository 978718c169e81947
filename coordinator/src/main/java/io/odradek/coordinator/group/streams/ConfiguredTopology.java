package io.odradek.coordinator.group.streams;

import io.odradek.coordinator.group.TopicCatalog;
import io.odradek.coordinator.offsets.StreamsGroupRecord.CopartitionGroup;
import io.odradek.coordinator.offsets.StreamsGroupRecord.StreamsTopology;
import io.odradek.coordinator.offsets.StreamsGroupRecord.Subtopology;
import io.odradek.coordinator.offsets.StreamsGroupRecord.TopicInfo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A streams group's topology checked against the topics that exist now (Kafka 4.4's InternalTopicManager
 * .configureTopics): every source topic must exist (MISSING_SOURCE_TOPICS); a repartition topic without a
 * fixed partition count gets the largest partition count among the source topics of the subtopologies
 * writing to it (repeated until nothing changes, as repartition topics feed each other); copartitioned topics
 * must agree, and a copartitioned repartition topic without a fixed count takes theirs
 * (INCORRECTLY_PARTITIONED_TOPICS); a changelog topic has one partition per task of its subtopology. Internal
 * topics that do not exist yet are listed to be created (MISSING_INTERNAL_TOPICS); existing ones must have the
 * partition count computed (INCORRECTLY_PARTITIONED_TOPICS). Pure: the same topology and catalog give the
 * same result.
 *
 * @param tasksPerSubtopology     subtopology id to its number of tasks (only when {@link #isReady})
 * @param internalTopicPartitions every internal topic's partition count as configured (empty on an error)
 * @param internalTopicsToCreate  missing internal topics with the partitions they must have, by name
 * @param errorStatus             a status code of StreamsGroupHeartbeatResponse.Status, or -1
 */
public record ConfiguredTopology(int epoch, Map<String, Integer> tasksPerSubtopology, Map<String, Integer> internalTopicPartitions,
        Map<String, TopicToCreate> internalTopicsToCreate, int errorStatus, String errorDetail) {

    /** Kafka's StreamsGroupHeartbeatResponse.Status codes. */
    public static final int STALE_TOPOLOGY = 0;
    public static final int MISSING_SOURCE_TOPICS = 1;
    public static final int INCORRECTLY_PARTITIONED_TOPICS = 2;
    public static final int MISSING_INTERNAL_TOPICS = 3;
    public static final int SHUTDOWN_APPLICATION = 4;

    /** An internal topic the broker should create. {@code replicationFactor} -1: the broker's default. */
    public record TopicToCreate(String name, int partitions, short replicationFactor, Map<String, String> configs) {
    }

    /** Whether tasks may be assigned: every topic present and partitioned as it must be. */
    public boolean isReady() {
        return errorStatus < 0 && internalTopicsToCreate.isEmpty();
    }

    /**
     * Never throws: a topology that cannot be configured at all (one stored before its checks existed, say)
     * is reported as {@link #INCORRECTLY_PARTITIONED_TOPICS} with a detail starting with
     * {@link #CONFIGURATION_FAILED}, so that neither a heartbeat nor loading the offsets partition fails on it.
     */
    public static ConfiguredTopology configure(StreamsTopology topology, TopicCatalog topics) {
        try {
            return new Configurator(topology, topics).configure();
        } catch (TopologyException e) {
            return new ConfiguredTopology(topology.epoch(), Map.of(), Map.of(), Map.of(), e.status, e.getMessage());
        } catch (RuntimeException e) {
            return new ConfiguredTopology(topology.epoch(), Map.of(), Map.of(), Map.of(), INCORRECTLY_PARTITIONED_TOPICS,
                    CONFIGURATION_FAILED + e);
        }
    }

    /** How the detail of a topology that could not be configured at all begins. */
    public static final String CONFIGURATION_FAILED = "The topology cannot be configured: ";

    /** Whether this result is a failure to configure the topology at all, not a problem with the topics. */
    public boolean configurationFailed() {
        return errorDetail != null && errorDetail.startsWith(CONFIGURATION_FAILED);
    }

    /** The source topics a subtopology reads, its regexes resolved against the existing topics. */
    public static Set<String> sourceTopics(Subtopology s, TopicCatalog topics) {
        Set<String> out = new TreeSet<>(s.sourceTopics());
        out.addAll(resolve(s.sourceTopicRegex(), topics));
        return out;
    }

    private static Set<String> resolve(Collection<String> regexes, TopicCatalog topics) {
        Set<String> out = new TreeSet<>();
        for (String regex : regexes) {
            Pattern p;
            try {
                p = Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                continue;
            }
            for (String name : topics.topicNames()) {
                if (p.matcher(name).matches()) {
                    out.add(name);
                }
            }
        }
        return out;
    }

    private static final class TopologyException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int status;

        TopologyException(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    private static final class Configurator {
        private final StreamsTopology topology;
        private final TopicCatalog topics;
        /** Every repartition topic, by name, with its declared (or derived) partition count; 0 while unknown. */
        private final Map<String, Integer> repartitionPartitions = new LinkedHashMap<>();
        private final Map<String, TopicInfo> internalTopics = new LinkedHashMap<>();

        Configurator(StreamsTopology topology, TopicCatalog topics) {
            this.topology = topology;
            this.topics = topics;
        }

        ConfiguredTopology configure() {
            for (Subtopology s : topology.subtopologies()) {
                for (TopicInfo t : s.repartitionSourceTopics()) {
                    repartitionPartitions.put(t.name(), t.partitions());
                    internalTopics.put(t.name(), t);
                }
            }
            checkSourceTopics();
            deriveRepartitionPartitions();
            enforceCopartitioning();
            Map<String, Integer> tasks = new LinkedHashMap<>();
            Map<String, Integer> expected = new LinkedHashMap<>();
            repartitionPartitions.forEach(expected::put);
            for (Subtopology s : topology.subtopologies()) {
                int n = taskCount(s);
                tasks.put(s.subtopologyId(), n);
                for (TopicInfo t : s.stateChangelogTopics()) {
                    expected.put(t.name(), n);
                    internalTopics.put(t.name(), t);
                }
            }
            Map<String, TopicToCreate> toCreate = new TreeMap<>();
            List<String> wrong = new ArrayList<>();
            expected.forEach((name, partitions) -> {
                TopicCatalog.Topic existing = topics.topic(name);
                TopicInfo info = internalTopics.get(name);
                if (existing == null) {
                    toCreate.put(name, new TopicToCreate(name, partitions,
                            info.replicationFactor() == 0 ? (short) -1 : info.replicationFactor(), info.configs()));
                } else if (existing.partitions() != partitions) {
                    wrong.add("Existing internal topic " + name + " has invalid number of partitions: expected: "
                            + partitions + "; actual: " + existing.partitions() + ".");
                }
            });
            if (!wrong.isEmpty()) {
                throw new TopologyException(INCORRECTLY_PARTITIONED_TOPICS, String.join(" ", wrong));
            }
            return new ConfiguredTopology(topology.epoch(), tasks, expected, toCreate, -1, null);
        }

        private void checkSourceTopics() {
            Set<String> missing = new TreeSet<>();
            for (Subtopology s : topology.subtopologies()) {
                for (String t : s.sourceTopics()) {
                    if (!repartitionPartitions.containsKey(t) && topics.topic(t) == null) {
                        missing.add(t);
                    }
                }
                for (String regex : s.sourceTopicRegex()) {
                    if (resolve(List.of(regex), topics).isEmpty()) {
                        missing.add(regex);
                    }
                }
            }
            if (!missing.isEmpty()) {
                throw new TopologyException(MISSING_SOURCE_TOPICS, "Source topics " + String.join(", ", missing) + " are missing.");
            }
        }

        /** Partition count of a topic read by the topology: a repartition topic's as derived, else the existing topic's. */
        private int partitionsOf(String topic) {
            Integer r = repartitionPartitions.get(topic);
            if (r != null) {
                return r;
            }
            TopicCatalog.Topic t = topics.topic(topic);
            return t == null ? 0 : t.partitions();
        }

        private void deriveRepartitionPartitions() {
            boolean changed = true;
            while (changed) {
                changed = false;
                for (Map.Entry<String, Integer> e : repartitionPartitions.entrySet()) {
                    if (e.getValue() > 0) {
                        continue;
                    }
                    int max = 0;
                    for (Subtopology writer : topology.subtopologies()) {
                        if (!writer.repartitionSinkTopics().contains(e.getKey())) {
                            continue;
                        }
                        for (String source : sourceTopics(writer, topics)) {
                            max = Math.max(max, partitionsOf(source));
                        }
                        for (TopicInfo source : writer.repartitionSourceTopics()) {
                            max = Math.max(max, partitionsOf(source.name()));
                        }
                    }
                    if (max > 0) {
                        e.setValue(max);
                        changed = true;
                    }
                }
            }
            List<String> unknown = new ArrayList<>();
            repartitionPartitions.forEach((name, n) -> {
                if (n <= 0) {
                    unknown.add(name);
                }
            });
            if (!unknown.isEmpty()) {
                throw new TopologyException(INCORRECTLY_PARTITIONED_TOPICS,
                        "Failed to compute the number of partitions of repartition topics " + unknown + ".");
            }
        }

        private void enforceCopartitioning() {
            for (Subtopology s : topology.subtopologies()) {
                for (CopartitionGroup g : s.copartitionGroups()) {
                    Map<String, Integer> external = new TreeMap<>();
                    List<String> repartition = new ArrayList<>();
                    for (short i : g.sourceTopics()) {
                        external.put(s.sourceTopics().get(i), partitionsOf(s.sourceTopics().get(i)));
                    }
                    for (short i : g.sourceTopicRegex()) {
                        for (String t : resolve(List.of(s.sourceTopicRegex().get(i)), topics)) {
                            external.put(t, partitionsOf(t));
                        }
                    }
                    for (short i : g.repartitionSourceTopics()) {
                        repartition.add(s.repartitionSourceTopics().get(i).name());
                    }
                    if (new java.util.HashSet<>(external.values()).size() > 1) {
                        throw new TopologyException(INCORRECTLY_PARTITIONED_TOPICS,
                                "Following topics do not have the same number of partitions: " + external);
                    }
                    int n;
                    if (!external.isEmpty()) {
                        n = external.values().iterator().next();
                    } else {
                        n = 0;
                        for (String r : repartition) {
                            n = Math.max(n, partitionsOf(r));
                        }
                    }
                    Map<String, Integer> fixed = new HashMap<>();
                    for (String r : repartition) {
                        TopicInfo declared = internalTopics.get(r);
                        if (declared.partitions() > 0 && declared.partitions() != n) {
                            fixed.put(r, declared.partitions());
                        } else {
                            repartitionPartitions.put(r, n);
                        }
                    }
                    if (!fixed.isEmpty()) {
                        fixed.putAll(external);
                        throw new TopologyException(INCORRECTLY_PARTITIONED_TOPICS,
                                "Following topics do not have the same number of partitions: " + new TreeMap<>(fixed));
                    }
                }
            }
        }

        private int taskCount(Subtopology s) {
            int n = 0;
            for (String t : sourceTopics(s, topics)) {
                n = Math.max(n, partitionsOf(t));
            }
            for (TopicInfo t : s.repartitionSourceTopics()) {
                n = Math.max(n, partitionsOf(t.name()));
            }
            return n;
        }
    }
}
