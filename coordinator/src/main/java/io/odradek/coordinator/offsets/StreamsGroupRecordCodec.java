package io.odradek.coordinator.offsets;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.SchemaBytes;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The streams group records of {@code __consumer_offsets} (KIP-1071) in Kafka 4.4's own schemas
 * (group-coordinator's StreamsGroup*Key/Value.json): keys version 0, not flexible; values version 0, flexible.
 * Type 18 (partition metadata, dropped before Kafka 4.1 in favour of the metadata hash) is neither written nor
 * kept. The topology-description fields Kafka 4.4 tags onto the group record (KIP-1331's description plugin)
 * are left at their defaults; the assignment epochs Kafka tags onto current active tasks are not written (their
 * default, null, makes Kafka read the member epoch).
 */
final class StreamsGroupRecordCodec {
    static final short GROUP_METADATA = 17;
    static final short MEMBER_METADATA = 19;
    static final short TARGET_ASSIGNMENT_METADATA = 20;
    static final short TARGET_ASSIGNMENT_MEMBER = 21;
    static final short CURRENT_MEMBER_ASSIGNMENT = 22;
    static final short TOPOLOGY = 23;
    private static final short VALUE_VERSION = 0;

    private StreamsGroupRecordCodec() {
    }

    static final class GroupKey {
        static final Field<String> GROUP_ID = Field.string("GroupId");
        static final Schema SCHEMA = Schema.of(GROUP_ID);
    }

    static final class MemberKey {
        static final Field<String> GROUP_ID = Field.string("GroupId");
        static final Field<String> MEMBER_ID = Field.string("MemberId");
        static final Schema SCHEMA = Schema.of(GROUP_ID, MEMBER_ID);
    }

    static final class KeyValue {
        static final Field<String> KEY = Field.string("Key");
        static final Field<String> VALUE = Field.string("Value");
        static final Schema SCHEMA = Schema.of(KEY, VALUE);
    }

    static final class GroupValue {
        static final Field<Integer> EPOCH = Field.int32("Epoch");
        static final Field<Long> METADATA_HASH = Field.int64("MetadataHash");
        static final Field<Integer> VALIDATED_TOPOLOGY_EPOCH = Field.int32("ValidatedTopologyEpoch").tagged(0).withDefault(-1);
        static final Field<List<Struct>> LAST_ASSIGNMENT_CONFIGS = Field.array("LastAssignmentConfigs", KeyValue.SCHEMA)
                .nullable().tagged(1).withDefault(null);
        static final Field<Integer> STORED_DESCRIPTION_EPOCH = Field.int32("StoredDescriptionTopologyEpoch").tagged(2).withDefault(-1);
        static final Field<Integer> FAILED_DESCRIPTION_EPOCH = Field.int32("FailedDescriptionTopologyEpoch").tagged(3).withDefault(-1);
        static final Schema SCHEMA = Schema.of(EPOCH, METADATA_HASH, VALIDATED_TOPOLOGY_EPOCH, LAST_ASSIGNMENT_CONFIGS,
                STORED_DESCRIPTION_EPOCH, FAILED_DESCRIPTION_EPOCH);
    }

    static final class MemberValue {
        static final class Endpoint {
            static final Field<String> HOST = Field.string("Host");
            static final Field<Integer> PORT = Field.uint16("Port");
            static final Schema SCHEMA = Schema.of(HOST, PORT);
        }

        static final Field<String> INSTANCE_ID = Field.string("InstanceId").nullable();
        static final Field<String> RACK_ID = Field.string("RackId").nullable();
        static final Field<String> CLIENT_ID = Field.string("ClientId");
        static final Field<String> CLIENT_HOST = Field.string("ClientHost");
        static final Field<Integer> REBALANCE_TIMEOUT_MS = Field.int32("RebalanceTimeoutMs").withDefault(-1);
        static final Field<Integer> TOPOLOGY_EPOCH = Field.int32("TopologyEpoch");
        static final Field<String> PROCESS_ID = Field.string("ProcessId");
        static final Field<Struct> USER_ENDPOINT = Field.struct("UserEndpoint", Endpoint.SCHEMA).nullable();
        static final Field<List<Struct>> CLIENT_TAGS = Field.array("ClientTags", KeyValue.SCHEMA);
        static final Schema SCHEMA = Schema.of(INSTANCE_ID, RACK_ID, CLIENT_ID, CLIENT_HOST, REBALANCE_TIMEOUT_MS,
                TOPOLOGY_EPOCH, PROCESS_ID, USER_ENDPOINT, CLIENT_TAGS);
    }

    static final class TargetMetadataValue {
        static final Field<Integer> ASSIGNMENT_EPOCH = Field.int32("AssignmentEpoch");
        static final Field<Long> ASSIGNMENT_TIMESTAMP = Field.int64("AssignmentTimestamp").tagged(0).withDefault(0L);
        static final Schema SCHEMA = Schema.of(ASSIGNMENT_EPOCH, ASSIGNMENT_TIMESTAMP);
    }

    static final class TaskIds {
        static final Field<String> SUBTOPOLOGY_ID = Field.string("SubtopologyId");
        static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
        static final Schema SCHEMA = Schema.of(SUBTOPOLOGY_ID, PARTITIONS);
    }

    /** The current assignment's TaskIds, with Kafka 4.4's tagged assignment epochs. */
    static final class CurrentTaskIds {
        static final Field<String> SUBTOPOLOGY_ID = Field.string("SubtopologyId");
        static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
        static final Field<List<Integer>> ASSIGNMENT_EPOCHS = Field.array("AssignmentEpochs", Types.INT32)
                .nullable().tagged(0).withDefault(null);
        static final Schema SCHEMA = Schema.of(SUBTOPOLOGY_ID, PARTITIONS, ASSIGNMENT_EPOCHS);
    }

    static final class TargetMemberValue {
        static final Field<List<Struct>> ACTIVE = Field.array("ActiveTasks", TaskIds.SCHEMA);
        static final Field<List<Struct>> STANDBY = Field.array("StandbyTasks", TaskIds.SCHEMA);
        static final Field<List<Struct>> WARMUP = Field.array("WarmupTasks", TaskIds.SCHEMA);
        static final Schema SCHEMA = Schema.of(ACTIVE, STANDBY, WARMUP);
    }

    static final class CurrentValue {
        static final Field<Integer> MEMBER_EPOCH = Field.int32("MemberEpoch");
        static final Field<Integer> PREVIOUS_MEMBER_EPOCH = Field.int32("PreviousMemberEpoch");
        static final Field<Byte> STATE = Field.int8("State");
        static final Field<List<Struct>> ACTIVE = Field.array("ActiveTasks", CurrentTaskIds.SCHEMA);
        static final Field<List<Struct>> STANDBY = Field.array("StandbyTasks", CurrentTaskIds.SCHEMA);
        static final Field<List<Struct>> WARMUP = Field.array("WarmupTasks", CurrentTaskIds.SCHEMA);
        static final Field<List<Struct>> ACTIVE_PENDING = Field.array("ActiveTasksPendingRevocation", CurrentTaskIds.SCHEMA);
        static final Field<List<Struct>> STANDBY_PENDING = Field.array("StandbyTasksPendingRevocation", CurrentTaskIds.SCHEMA);
        static final Field<List<Struct>> WARMUP_PENDING = Field.array("WarmupTasksPendingRevocation", CurrentTaskIds.SCHEMA);
        static final Schema SCHEMA = Schema.of(MEMBER_EPOCH, PREVIOUS_MEMBER_EPOCH, STATE, ACTIVE, STANDBY, WARMUP,
                ACTIVE_PENDING, STANDBY_PENDING, WARMUP_PENDING);
    }

    static final class TopologyValue {
        static final class TopicConfig {
            static final Field<String> KEY = Field.string("key");
            static final Field<String> VALUE = Field.string("value");
            static final Schema SCHEMA = Schema.of(KEY, VALUE);
        }

        static final class TopicInfo {
            static final Field<String> NAME = Field.string("Name");
            static final Field<Integer> PARTITIONS = Field.int32("Partitions");
            static final Field<Short> REPLICATION_FACTOR = Field.int16("ReplicationFactor");
            static final Field<List<Struct>> TOPIC_CONFIGS = Field.array("TopicConfigs", TopicConfig.SCHEMA);
            static final Schema SCHEMA = Schema.of(NAME, PARTITIONS, REPLICATION_FACTOR, TOPIC_CONFIGS);
        }

        static final class CopartitionGroup {
            static final Field<List<Short>> SOURCE_TOPICS = Field.array("SourceTopics", Types.INT16);
            static final Field<List<Short>> SOURCE_TOPIC_REGEX = Field.array("SourceTopicRegex", Types.INT16);
            static final Field<List<Short>> REPARTITION_SOURCE_TOPICS = Field.array("RepartitionSourceTopics", Types.INT16);
            static final Schema SCHEMA = Schema.of(SOURCE_TOPICS, SOURCE_TOPIC_REGEX, REPARTITION_SOURCE_TOPICS);
        }

        static final class Subtopology {
            static final Field<String> SUBTOPOLOGY_ID = Field.string("SubtopologyId");
            static final Field<List<String>> SOURCE_TOPICS = Field.array("SourceTopics", Types.STRING);
            static final Field<List<String>> SOURCE_TOPIC_REGEX = Field.array("SourceTopicRegex", Types.STRING);
            static final Field<List<Struct>> STATE_CHANGELOG_TOPICS = Field.array("StateChangelogTopics", TopicInfo.SCHEMA);
            static final Field<List<String>> REPARTITION_SINK_TOPICS = Field.array("RepartitionSinkTopics", Types.STRING);
            static final Field<List<Struct>> REPARTITION_SOURCE_TOPICS = Field.array("RepartitionSourceTopics", TopicInfo.SCHEMA);
            static final Field<List<Struct>> COPARTITION_GROUPS = Field.array("CopartitionGroups", CopartitionGroup.SCHEMA);
            static final Schema SCHEMA = Schema.of(SUBTOPOLOGY_ID, SOURCE_TOPICS, SOURCE_TOPIC_REGEX, STATE_CHANGELOG_TOPICS,
                    REPARTITION_SINK_TOPICS, REPARTITION_SOURCE_TOPICS, COPARTITION_GROUPS);
        }

        static final Field<Integer> EPOCH = Field.int32("Epoch");
        static final Field<List<Struct>> SUBTOPOLOGIES = Field.array("Subtopologies", Subtopology.SCHEMA);
        static final Schema SCHEMA = Schema.of(EPOCH, SUBTOPOLOGIES);
    }

    /** Whether this key type is one of ours. */
    static boolean handles(short type) {
        return type == GROUP_METADATA || (type >= MEMBER_METADATA && type <= TOPOLOGY);
    }

    static byte[] key(StreamsGroupRecord record) {
        if (record instanceof StreamsGroupRecord.Metadata r) {
            return groupKey(GROUP_METADATA, r.groupId());
        } else if (record instanceof StreamsGroupRecord.TargetAssignmentMetadata r) {
            return groupKey(TARGET_ASSIGNMENT_METADATA, r.groupId());
        } else if (record instanceof StreamsGroupRecord.Topology r) {
            return groupKey(TOPOLOGY, r.groupId());
        } else if (record instanceof StreamsGroupRecord.MemberMetadata r) {
            return memberKey(MEMBER_METADATA, r.groupId(), r.memberId());
        } else if (record instanceof StreamsGroupRecord.TargetAssignmentMember r) {
            return memberKey(TARGET_ASSIGNMENT_MEMBER, r.groupId(), r.memberId());
        } else if (record instanceof StreamsGroupRecord.CurrentAssignment r) {
            return memberKey(CURRENT_MEMBER_ASSIGNMENT, r.groupId(), r.memberId());
        }
        throw new IllegalArgumentException("not a streams group record: " + record);
    }

    /** The value bytes, or null for a tombstone. */
    static byte[] value(StreamsGroupRecord record) {
        if (record instanceof StreamsGroupRecord.Metadata r) {
            return r.value() == null ? null : groupValue(r.value());
        } else if (record instanceof StreamsGroupRecord.TargetAssignmentMetadata r) {
            return r.assignmentEpoch() == null ? null : encodeValue(TargetMetadataValue.SCHEMA,
                    TargetMetadataValue.SCHEMA.newStruct().set(TargetMetadataValue.ASSIGNMENT_EPOCH, r.assignmentEpoch()));
        } else if (record instanceof StreamsGroupRecord.Topology r) {
            return r.value() == null ? null : topologyValue(r.value());
        } else if (record instanceof StreamsGroupRecord.MemberMetadata r) {
            return r.value() == null ? null : memberValue(r.value());
        } else if (record instanceof StreamsGroupRecord.TargetAssignmentMember r) {
            if (r.tasks() == null) {
                return null;
            }
            Struct s = TargetMemberValue.SCHEMA.newStruct();
            s.set(TargetMemberValue.ACTIVE, taskIds(r.tasks().active()));
            s.set(TargetMemberValue.STANDBY, taskIds(r.tasks().standby()));
            s.set(TargetMemberValue.WARMUP, taskIds(r.tasks().warmup()));
            return encodeValue(TargetMemberValue.SCHEMA, s);
        } else if (record instanceof StreamsGroupRecord.CurrentAssignment r) {
            return r.value() == null ? null : currentValue(r.value());
        }
        throw new IllegalArgumentException("not a streams group record: " + record);
    }

    /** Decodes a record of one of the {@link #handles handled} types. */
    static OffsetsRecord decode(short type, byte[] key, byte[] value) {
        if (type == GROUP_METADATA || type == TARGET_ASSIGNMENT_METADATA || type == TOPOLOGY) {
            String groupId = SchemaBytes.read(GroupKey.SCHEMA, key, (short) 0, false).get(GroupKey.GROUP_ID);
            if (type == GROUP_METADATA) {
                return new StreamsGroupRecord.Metadata(groupId, value == null ? null : readGroup(readValue(GroupValue.SCHEMA, value)));
            } else if (type == TOPOLOGY) {
                return new StreamsGroupRecord.Topology(groupId, value == null ? null : readTopology(readValue(TopologyValue.SCHEMA, value)));
            }
            return new StreamsGroupRecord.TargetAssignmentMetadata(groupId,
                    value == null ? null : readValue(TargetMetadataValue.SCHEMA, value).get(TargetMetadataValue.ASSIGNMENT_EPOCH));
        }
        if (type != MEMBER_METADATA && type != TARGET_ASSIGNMENT_MEMBER && type != CURRENT_MEMBER_ASSIGNMENT) {
            return null; // 18: partition metadata of Kafka 4.0, superseded by the metadata hash
        }
        Struct k = SchemaBytes.read(MemberKey.SCHEMA, key, (short) 0, false);
        String groupId = k.get(MemberKey.GROUP_ID);
        String memberId = k.get(MemberKey.MEMBER_ID);
        return switch (type) {
            case MEMBER_METADATA -> new StreamsGroupRecord.MemberMetadata(groupId, memberId,
                    value == null ? null : readMember(readValue(MemberValue.SCHEMA, value)));
            case TARGET_ASSIGNMENT_MEMBER -> {
                if (value == null) {
                    yield new StreamsGroupRecord.TargetAssignmentMember(groupId, memberId, null);
                }
                Struct v = readValue(TargetMemberValue.SCHEMA, value);
                yield new StreamsGroupRecord.TargetAssignmentMember(groupId, memberId, new StreamsGroupRecord.Tasks(
                        readTaskIds(v.get(TargetMemberValue.ACTIVE), TaskIds.SUBTOPOLOGY_ID, TaskIds.PARTITIONS),
                        readTaskIds(v.get(TargetMemberValue.STANDBY), TaskIds.SUBTOPOLOGY_ID, TaskIds.PARTITIONS),
                        readTaskIds(v.get(TargetMemberValue.WARMUP), TaskIds.SUBTOPOLOGY_ID, TaskIds.PARTITIONS)));
            }
            default -> new StreamsGroupRecord.CurrentAssignment(groupId, memberId,
                    value == null ? null : readCurrent(readValue(CurrentValue.SCHEMA, value)));
        };
    }

    // ------------------------------------------------------------------ values

    private static byte[] groupValue(StreamsGroupRecord.GroupEpoch g) {
        Struct s = GroupValue.SCHEMA.newStruct()
                .set(GroupValue.EPOCH, g.epoch())
                .set(GroupValue.METADATA_HASH, g.metadataHash())
                .set(GroupValue.VALIDATED_TOPOLOGY_EPOCH, g.validatedTopologyEpoch());
        if (!g.lastAssignmentConfigs().isEmpty()) {
            s.set(GroupValue.LAST_ASSIGNMENT_CONFIGS, new ArrayList<>());
            g.lastAssignmentConfigs().forEach((k, v) -> s.add(GroupValue.LAST_ASSIGNMENT_CONFIGS)
                    .set(KeyValue.KEY, k).set(KeyValue.VALUE, v));
        }
        return encodeValue(GroupValue.SCHEMA, s);
    }

    private static StreamsGroupRecord.GroupEpoch readGroup(Struct v) {
        Map<String, String> configs = new TreeMap<>();
        List<Struct> last = v.get(GroupValue.LAST_ASSIGNMENT_CONFIGS);
        if (last != null) {
            last.forEach(kv -> configs.put(kv.get(KeyValue.KEY), kv.get(KeyValue.VALUE)));
        }
        return new StreamsGroupRecord.GroupEpoch(v.get(GroupValue.EPOCH), v.get(GroupValue.METADATA_HASH),
                v.get(GroupValue.VALIDATED_TOPOLOGY_EPOCH), configs);
    }

    private static byte[] memberValue(StreamsGroupRecord.Member m) {
        Struct s = MemberValue.SCHEMA.newStruct()
                .set(MemberValue.INSTANCE_ID, m.instanceId())
                .set(MemberValue.RACK_ID, m.rackId())
                .set(MemberValue.CLIENT_ID, m.clientId())
                .set(MemberValue.CLIENT_HOST, m.clientHost())
                .set(MemberValue.REBALANCE_TIMEOUT_MS, m.rebalanceTimeoutMs())
                .set(MemberValue.TOPOLOGY_EPOCH, m.topologyEpoch())
                .set(MemberValue.PROCESS_ID, m.processId())
                .set(MemberValue.CLIENT_TAGS, new ArrayList<>());
        if (m.userEndpoint() != null) {
            s.set(MemberValue.USER_ENDPOINT, MemberValue.Endpoint.SCHEMA.newStruct()
                    .set(MemberValue.Endpoint.HOST, m.userEndpoint().host())
                    .set(MemberValue.Endpoint.PORT, m.userEndpoint().port()));
        }
        m.clientTags().forEach((k, v) -> s.add(MemberValue.CLIENT_TAGS).set(KeyValue.KEY, k).set(KeyValue.VALUE, v));
        return encodeValue(MemberValue.SCHEMA, s);
    }

    private static StreamsGroupRecord.Member readMember(Struct v) {
        Struct e = v.get(MemberValue.USER_ENDPOINT);
        Map<String, String> tags = new TreeMap<>();
        v.get(MemberValue.CLIENT_TAGS).forEach(kv -> tags.put(kv.get(KeyValue.KEY), kv.get(KeyValue.VALUE)));
        return new StreamsGroupRecord.Member(v.get(MemberValue.INSTANCE_ID), v.get(MemberValue.RACK_ID),
                v.get(MemberValue.CLIENT_ID), v.get(MemberValue.CLIENT_HOST), v.get(MemberValue.REBALANCE_TIMEOUT_MS),
                v.get(MemberValue.TOPOLOGY_EPOCH), v.get(MemberValue.PROCESS_ID),
                e == null ? null : new StreamsGroupRecord.Endpoint(e.get(MemberValue.Endpoint.HOST), e.get(MemberValue.Endpoint.PORT)),
                tags);
    }

    private static byte[] currentValue(StreamsGroupRecord.MemberAssignment a) {
        Struct s = CurrentValue.SCHEMA.newStruct()
                .set(CurrentValue.MEMBER_EPOCH, a.memberEpoch())
                .set(CurrentValue.PREVIOUS_MEMBER_EPOCH, a.previousMemberEpoch())
                .set(CurrentValue.STATE, a.state())
                .set(CurrentValue.ACTIVE, currentTaskIds(a.assigned().active()))
                .set(CurrentValue.STANDBY, currentTaskIds(a.assigned().standby()))
                .set(CurrentValue.WARMUP, currentTaskIds(a.assigned().warmup()))
                .set(CurrentValue.ACTIVE_PENDING, currentTaskIds(a.pendingRevocation().active()))
                .set(CurrentValue.STANDBY_PENDING, currentTaskIds(a.pendingRevocation().standby()))
                .set(CurrentValue.WARMUP_PENDING, currentTaskIds(a.pendingRevocation().warmup()));
        return encodeValue(CurrentValue.SCHEMA, s);
    }

    private static StreamsGroupRecord.MemberAssignment readCurrent(Struct v) {
        return new StreamsGroupRecord.MemberAssignment(v.get(CurrentValue.MEMBER_EPOCH), v.get(CurrentValue.PREVIOUS_MEMBER_EPOCH),
                v.get(CurrentValue.STATE),
                new StreamsGroupRecord.Tasks(current(v, CurrentValue.ACTIVE), current(v, CurrentValue.STANDBY), current(v, CurrentValue.WARMUP)),
                new StreamsGroupRecord.Tasks(current(v, CurrentValue.ACTIVE_PENDING), current(v, CurrentValue.STANDBY_PENDING),
                        current(v, CurrentValue.WARMUP_PENDING)));
    }

    private static Map<String, Set<Integer>> current(Struct v, Field<List<Struct>> field) {
        return readTaskIds(v.get(field), CurrentTaskIds.SUBTOPOLOGY_ID, CurrentTaskIds.PARTITIONS);
    }

    private static List<Struct> taskIds(Map<String, Set<Integer>> tasks) {
        List<Struct> out = new ArrayList<>();
        tasks.forEach((s, p) -> out.add(TaskIds.SCHEMA.newStruct()
                .set(TaskIds.SUBTOPOLOGY_ID, s).set(TaskIds.PARTITIONS, new ArrayList<>(new TreeSet<>(p)))));
        return out;
    }

    private static List<Struct> currentTaskIds(Map<String, Set<Integer>> tasks) {
        List<Struct> out = new ArrayList<>();
        tasks.forEach((s, p) -> out.add(CurrentTaskIds.SCHEMA.newStruct()
                .set(CurrentTaskIds.SUBTOPOLOGY_ID, s).set(CurrentTaskIds.PARTITIONS, new ArrayList<>(new TreeSet<>(p)))));
        return out;
    }

    private static Map<String, Set<Integer>> readTaskIds(List<Struct> list, Field<String> id, Field<List<Integer>> partitions) {
        Map<String, Set<Integer>> out = new TreeMap<>();
        for (Struct t : list) {
            out.computeIfAbsent(t.get(id), s -> new TreeSet<>()).addAll(t.get(partitions));
        }
        return out;
    }

    private static byte[] topologyValue(StreamsGroupRecord.StreamsTopology t) {
        Struct s = TopologyValue.SCHEMA.newStruct().set(TopologyValue.EPOCH, t.epoch()).set(TopologyValue.SUBTOPOLOGIES, new ArrayList<>());
        for (StreamsGroupRecord.Subtopology st : t.subtopologies()) {
            Struct e = s.add(TopologyValue.SUBTOPOLOGIES)
                    .set(TopologyValue.Subtopology.SUBTOPOLOGY_ID, st.subtopologyId())
                    .set(TopologyValue.Subtopology.SOURCE_TOPICS, st.sourceTopics())
                    .set(TopologyValue.Subtopology.SOURCE_TOPIC_REGEX, st.sourceTopicRegex())
                    .set(TopologyValue.Subtopology.STATE_CHANGELOG_TOPICS, topicInfos(st.stateChangelogTopics()))
                    .set(TopologyValue.Subtopology.REPARTITION_SINK_TOPICS, st.repartitionSinkTopics())
                    .set(TopologyValue.Subtopology.REPARTITION_SOURCE_TOPICS, topicInfos(st.repartitionSourceTopics()))
                    .set(TopologyValue.Subtopology.COPARTITION_GROUPS, new ArrayList<>());
            for (StreamsGroupRecord.CopartitionGroup g : st.copartitionGroups()) {
                e.add(TopologyValue.Subtopology.COPARTITION_GROUPS)
                        .set(TopologyValue.CopartitionGroup.SOURCE_TOPICS, g.sourceTopics())
                        .set(TopologyValue.CopartitionGroup.SOURCE_TOPIC_REGEX, g.sourceTopicRegex())
                        .set(TopologyValue.CopartitionGroup.REPARTITION_SOURCE_TOPICS, g.repartitionSourceTopics());
            }
        }
        return encodeValue(TopologyValue.SCHEMA, s);
    }

    private static List<Struct> topicInfos(List<StreamsGroupRecord.TopicInfo> topics) {
        List<Struct> out = new ArrayList<>();
        for (StreamsGroupRecord.TopicInfo t : topics) {
            Struct s = TopologyValue.TopicInfo.SCHEMA.newStruct()
                    .set(TopologyValue.TopicInfo.NAME, t.name())
                    .set(TopologyValue.TopicInfo.PARTITIONS, t.partitions())
                    .set(TopologyValue.TopicInfo.REPLICATION_FACTOR, t.replicationFactor())
                    .set(TopologyValue.TopicInfo.TOPIC_CONFIGS, new ArrayList<>());
            t.configs().forEach((k, v) -> s.add(TopologyValue.TopicInfo.TOPIC_CONFIGS)
                    .set(TopologyValue.TopicConfig.KEY, k).set(TopologyValue.TopicConfig.VALUE, v));
            out.add(s);
        }
        return out;
    }

    private static StreamsGroupRecord.StreamsTopology readTopology(Struct v) {
        List<StreamsGroupRecord.Subtopology> subtopologies = new ArrayList<>();
        for (Struct st : v.get(TopologyValue.SUBTOPOLOGIES)) {
            List<StreamsGroupRecord.CopartitionGroup> groups = new ArrayList<>();
            for (Struct g : st.get(TopologyValue.Subtopology.COPARTITION_GROUPS)) {
                groups.add(new StreamsGroupRecord.CopartitionGroup(g.get(TopologyValue.CopartitionGroup.SOURCE_TOPICS),
                        g.get(TopologyValue.CopartitionGroup.SOURCE_TOPIC_REGEX),
                        g.get(TopologyValue.CopartitionGroup.REPARTITION_SOURCE_TOPICS)));
            }
            subtopologies.add(new StreamsGroupRecord.Subtopology(st.get(TopologyValue.Subtopology.SUBTOPOLOGY_ID),
                    st.get(TopologyValue.Subtopology.SOURCE_TOPICS), st.get(TopologyValue.Subtopology.SOURCE_TOPIC_REGEX),
                    readTopicInfos(st.get(TopologyValue.Subtopology.STATE_CHANGELOG_TOPICS)),
                    st.get(TopologyValue.Subtopology.REPARTITION_SINK_TOPICS),
                    readTopicInfos(st.get(TopologyValue.Subtopology.REPARTITION_SOURCE_TOPICS)), groups));
        }
        return new StreamsGroupRecord.StreamsTopology(v.get(TopologyValue.EPOCH), subtopologies);
    }

    private static List<StreamsGroupRecord.TopicInfo> readTopicInfos(List<Struct> list) {
        List<StreamsGroupRecord.TopicInfo> out = new ArrayList<>();
        for (Struct t : list) {
            Map<String, String> configs = new LinkedHashMap<>();
            t.get(TopologyValue.TopicInfo.TOPIC_CONFIGS).forEach(c -> configs.put(c.get(TopologyValue.TopicConfig.KEY),
                    c.get(TopologyValue.TopicConfig.VALUE)));
            out.add(new StreamsGroupRecord.TopicInfo(t.get(TopologyValue.TopicInfo.NAME), t.get(TopologyValue.TopicInfo.PARTITIONS),
                    t.get(TopologyValue.TopicInfo.REPLICATION_FACTOR), configs));
        }
        return out;
    }

    // ------------------------------------------------------------------ plumbing

    private static byte[] groupKey(short type, String groupId) {
        return OffsetsRecordCodec.encode(type, GroupKey.SCHEMA, GroupKey.SCHEMA.newStruct().set(GroupKey.GROUP_ID, groupId), false);
    }

    private static byte[] memberKey(short type, String groupId, String memberId) {
        return OffsetsRecordCodec.encode(type, MemberKey.SCHEMA, MemberKey.SCHEMA.newStruct()
                .set(MemberKey.GROUP_ID, groupId).set(MemberKey.MEMBER_ID, memberId), false);
    }

    private static byte[] encodeValue(Schema schema, Struct struct) {
        return OffsetsRecordCodec.encode(VALUE_VERSION, schema, struct, true);
    }

    private static Struct readValue(Schema schema, byte[] value) {
        return SchemaBytes.read(schema, value, SchemaBytes.prefix(value), true);
    }
}
