package io.odradek.coordinator.offsets;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A streams group's records in {@code __consumer_offsets} (Kafka 4.4's StreamsGroup*Key/Value schemas, key
 * types 17 and 19-23), encoded by {@link StreamsGroupRecordCodec}. One record per piece of state, so a heartbeat
 * writes only what changed; a null value is the tombstone that removes it.
 */
public non-sealed interface StreamsGroupRecord extends OffsetsRecord {

    /** The group's epoch (key type 17); its tombstone deletes the group. */
    record Metadata(String groupId, GroupEpoch value) implements StreamsGroupRecord {
    }

    /** A member's metadata (key type 19); its tombstone removes the member. */
    record MemberMetadata(String groupId, String memberId, Member value) implements StreamsGroupRecord {
    }

    /** The epoch of the target assignment (key type 20); null with the group's deletion. */
    record TargetAssignmentMetadata(String groupId, Integer assignmentEpoch) implements StreamsGroupRecord {
    }

    /** A member's target tasks (key type 21), or their removal. */
    record TargetAssignmentMember(String groupId, String memberId, Tasks tasks) implements StreamsGroupRecord {
    }

    /** A member's current tasks and epochs (key type 22), or their removal. */
    record CurrentAssignment(String groupId, String memberId, MemberAssignment value) implements StreamsGroupRecord {
    }

    /** The group's topology (key type 23), or its removal with the group. */
    record Topology(String groupId, StreamsTopology value) implements StreamsGroupRecord {
    }

    // ------------------------------------------------------------------ values

    /**
     * @param validatedTopologyEpoch the topology epoch whose topics were found present and well partitioned (-1: none)
     * @param lastAssignmentConfigs  the assignor configs of the last target assignment (Kafka writes
     *                               {@code num.standby.replicas}); a change of them computes a new one
     */
    record GroupEpoch(int epoch, long metadataHash, int validatedTopologyEpoch, Map<String, String> lastAssignmentConfigs) {
        public GroupEpoch {
            lastAssignmentConfigs = Collections.unmodifiableMap(new TreeMap<>(lastAssignmentConfigs));
        }
    }

    /** A host and port for interactive queries. */
    record Endpoint(String host, int port) {
    }

    record Member(String instanceId, String rackId, String clientId, String clientHost, int rebalanceTimeoutMs,
            int topologyEpoch, String processId, Endpoint userEndpoint, Map<String, String> clientTags) {
        public Member {
            clientTags = Collections.unmodifiableMap(new TreeMap<>(clientTags));
        }
    }

    /** Active, standby and warm-up tasks: subtopology id to partitions. Sorted, immutable, no empty entries. */
    record Tasks(Map<String, Set<Integer>> active, Map<String, Set<Integer>> standby, Map<String, Set<Integer>> warmup) {
        public static final Tasks EMPTY = new Tasks(Map.of(), Map.of(), Map.of());

        public Tasks {
            active = copy(active);
            standby = copy(standby);
            warmup = copy(warmup);
        }

        public boolean isEmpty() {
            return active.isEmpty() && standby.isEmpty() && warmup.isEmpty();
        }

        public static Map<String, Set<Integer>> copy(Map<String, Set<Integer>> in) {
            Map<String, Set<Integer>> out = new TreeMap<>();
            in.forEach((s, p) -> {
                if (!p.isEmpty()) {
                    out.put(s, Collections.unmodifiableSet(new TreeSet<>(p)));
                }
            });
            return Collections.unmodifiableMap(out);
        }
    }

    /**
     * @param state Kafka's streams MemberState byte: 0 stable, 1 unrevoked tasks, 2 unreleased tasks, 127 unknown
     */
    record MemberAssignment(int memberEpoch, int previousMemberEpoch, byte state, Tasks assigned, Tasks pendingRevocation) {
        public static final MemberAssignment INITIAL = new MemberAssignment(0, 0, (byte) 0, Tasks.EMPTY, Tasks.EMPTY);
    }

    /** A topic a subtopology has Streams create (a repartition or changelog topic), as the member described it. */
    record TopicInfo(String name, int partitions, short replicationFactor, Map<String, String> configs) {
        public TopicInfo {
            configs = Collections.unmodifiableMap(new TreeMap<>(configs));
        }
    }

    /** Topics that must have the same partition count: indexes into the subtopology's lists. */
    record CopartitionGroup(List<Short> sourceTopics, List<Short> sourceTopicRegex, List<Short> repartitionSourceTopics) {
        public CopartitionGroup {
            sourceTopics = List.copyOf(sourceTopics);
            sourceTopicRegex = List.copyOf(sourceTopicRegex);
            repartitionSourceTopics = List.copyOf(repartitionSourceTopics);
        }
    }

    record Subtopology(String subtopologyId, List<String> sourceTopics, List<String> sourceTopicRegex,
            List<TopicInfo> stateChangelogTopics, List<String> repartitionSinkTopics, List<TopicInfo> repartitionSourceTopics,
            List<CopartitionGroup> copartitionGroups) {
        public Subtopology {
            sourceTopics = List.copyOf(sourceTopics);
            sourceTopicRegex = List.copyOf(sourceTopicRegex);
            stateChangelogTopics = List.copyOf(stateChangelogTopics);
            repartitionSinkTopics = List.copyOf(repartitionSinkTopics);
            repartitionSourceTopics = List.copyOf(repartitionSourceTopics);
            copartitionGroups = List.copyOf(copartitionGroups);
        }
    }

    /** A Kafka Streams application's topology as its members declare it, at an epoch. */
    record StreamsTopology(int epoch, List<Subtopology> subtopologies) {
        public StreamsTopology {
            subtopologies = List.copyOf(subtopologies);
        }
    }
}
