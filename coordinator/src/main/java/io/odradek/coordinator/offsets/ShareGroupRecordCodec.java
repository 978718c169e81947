package io.odradek.coordinator.offsets;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.SchemaBytes;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The share group records of {@code __consumer_offsets} in Kafka 4.4's own schemas (group-coordinator's
 * ShareGroup*Key/Value.json, key types 10-15): keys are version 0 and not flexible, values version 0 and
 * flexible, as for the KIP-848 consumer group records.
 */
final class ShareGroupRecordCodec {
    static final short MEMBER_METADATA = 10;
    static final short GROUP_METADATA = 11;
    static final short TARGET_ASSIGNMENT_METADATA = 12;
    static final short TARGET_ASSIGNMENT_MEMBER = 13;
    static final short CURRENT_MEMBER_ASSIGNMENT = 14;
    static final short STATE_PARTITION_METADATA = 15;
    private static final short VALUE_VERSION = 0;

    private ShareGroupRecordCodec() {
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

    static final class MemberValue {
        static final Field<String> RACK_ID = Field.string("RackId").nullable();
        static final Field<String> CLIENT_ID = Field.string("ClientId");
        static final Field<String> CLIENT_HOST = Field.string("ClientHost");
        static final Field<List<String>> SUBSCRIBED_TOPIC_NAMES = Field.array("SubscribedTopicNames", Types.STRING);
        static final Schema SCHEMA = Schema.of(RACK_ID, CLIENT_ID, CLIENT_HOST, SUBSCRIBED_TOPIC_NAMES);
    }

    static final class GroupValue {
        static final Field<Integer> EPOCH = Field.int32("Epoch");
        static final Field<Long> METADATA_HASH = Field.int64("MetadataHash");
        static final Schema SCHEMA = Schema.of(EPOCH, METADATA_HASH);
    }

    static final class TargetMetadataValue {
        static final Field<Integer> ASSIGNMENT_EPOCH = Field.int32("AssignmentEpoch");
        static final Field<Long> ASSIGNMENT_TIMESTAMP = Field.int64("AssignmentTimestamp").tagged(0).withDefault(0L);
        static final Schema SCHEMA = Schema.of(ASSIGNMENT_EPOCH, ASSIGNMENT_TIMESTAMP);
    }

    /** TopicId + Partitions: the element of the target and current assignment values. */
    static final class TopicPartition {
        static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
        static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
        static final Schema SCHEMA = Schema.of(TOPIC_ID, PARTITIONS);
    }

    static final class TargetMemberValue {
        static final Field<List<Struct>> TOPIC_PARTITIONS = Field.array("TopicPartitions", TopicPartition.SCHEMA);
        static final Schema SCHEMA = Schema.of(TOPIC_PARTITIONS);
    }

    static final class CurrentValue {
        static final Field<Integer> MEMBER_EPOCH = Field.int32("MemberEpoch");
        static final Field<Integer> PREVIOUS_MEMBER_EPOCH = Field.int32("PreviousMemberEpoch");
        static final Field<Byte> STATE = Field.int8("State");
        static final Field<List<Struct>> ASSIGNED = Field.array("AssignedPartitions", TopicPartition.SCHEMA);
        static final Schema SCHEMA = Schema.of(MEMBER_EPOCH, PREVIOUS_MEMBER_EPOCH, STATE, ASSIGNED);
    }

    static final class StateValue {
        static final class TopicPartitionsInfo {
            static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            static final Field<String> TOPIC_NAME = Field.string("TopicName");
            static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
            static final Schema SCHEMA = Schema.of(TOPIC_ID, TOPIC_NAME, PARTITIONS);
        }

        static final class TopicInfo {
            static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            static final Field<String> TOPIC_NAME = Field.string("TopicName");
            static final Schema SCHEMA = Schema.of(TOPIC_ID, TOPIC_NAME);
        }

        static final Field<List<Struct>> INITIALIZING = Field.array("InitializingTopics", TopicPartitionsInfo.SCHEMA);
        static final Field<List<Struct>> INITIALIZED = Field.array("InitializedTopics", TopicPartitionsInfo.SCHEMA);
        static final Field<List<Struct>> DELETING = Field.array("DeletingTopics", TopicInfo.SCHEMA);
        static final Schema SCHEMA = Schema.of(INITIALIZING, INITIALIZED, DELETING);
    }

    /** Whether this key type is one of ours. */
    static boolean handles(short type) {
        return type >= MEMBER_METADATA && type <= STATE_PARTITION_METADATA;
    }

    static byte[] key(ShareGroupRecord record) {
        if (record instanceof ShareGroupRecord.MemberMetadata r) {
            return memberKey(MEMBER_METADATA, r.groupId(), r.memberId());
        } else if (record instanceof ShareGroupRecord.GroupMetadata r) {
            return groupKey(GROUP_METADATA, r.groupId());
        } else if (record instanceof ShareGroupRecord.TargetAssignmentMetadata r) {
            return groupKey(TARGET_ASSIGNMENT_METADATA, r.groupId());
        } else if (record instanceof ShareGroupRecord.TargetAssignmentMember r) {
            return memberKey(TARGET_ASSIGNMENT_MEMBER, r.groupId(), r.memberId());
        } else if (record instanceof ShareGroupRecord.CurrentAssignment r) {
            return memberKey(CURRENT_MEMBER_ASSIGNMENT, r.groupId(), r.memberId());
        } else if (record instanceof ShareGroupRecord.StatePartitionMetadata r) {
            return groupKey(STATE_PARTITION_METADATA, r.groupId());
        }
        throw new IllegalArgumentException("not a share group record: " + record);
    }

    /** The value bytes, or null for a tombstone. */
    static byte[] value(ShareGroupRecord record) {
        if (record instanceof ShareGroupRecord.MemberMetadata r) {
            return r.value() == null ? null : encodeValue(MemberValue.SCHEMA, MemberValue.SCHEMA.newStruct()
                    .set(MemberValue.RACK_ID, r.value().rackId())
                    .set(MemberValue.CLIENT_ID, r.value().clientId())
                    .set(MemberValue.CLIENT_HOST, r.value().clientHost())
                    .set(MemberValue.SUBSCRIBED_TOPIC_NAMES, r.value().subscribedTopicNames()));
        } else if (record instanceof ShareGroupRecord.GroupMetadata r) {
            return r.value() == null ? null : encodeValue(GroupValue.SCHEMA, GroupValue.SCHEMA.newStruct()
                    .set(GroupValue.EPOCH, r.value().epoch())
                    .set(GroupValue.METADATA_HASH, r.value().metadataHash()));
        } else if (record instanceof ShareGroupRecord.TargetAssignmentMetadata r) {
            return r.assignmentEpoch() == null ? null : encodeValue(TargetMetadataValue.SCHEMA,
                    TargetMetadataValue.SCHEMA.newStruct().set(TargetMetadataValue.ASSIGNMENT_EPOCH, r.assignmentEpoch()));
        } else if (record instanceof ShareGroupRecord.TargetAssignmentMember r) {
            if (r.partitions() == null) {
                return null;
            }
            Struct s = TargetMemberValue.SCHEMA.newStruct().set(TargetMemberValue.TOPIC_PARTITIONS, new ArrayList<>());
            writePartitions(s, TargetMemberValue.TOPIC_PARTITIONS, r.partitions());
            return encodeValue(TargetMemberValue.SCHEMA, s);
        } else if (record instanceof ShareGroupRecord.CurrentAssignment r) {
            if (r.value() == null) {
                return null;
            }
            Struct s = CurrentValue.SCHEMA.newStruct()
                    .set(CurrentValue.MEMBER_EPOCH, r.value().memberEpoch())
                    .set(CurrentValue.PREVIOUS_MEMBER_EPOCH, r.value().previousMemberEpoch())
                    .set(CurrentValue.STATE, r.value().state())
                    .set(CurrentValue.ASSIGNED, new ArrayList<>());
            writePartitions(s, CurrentValue.ASSIGNED, r.value().partitions());
            return encodeValue(CurrentValue.SCHEMA, s);
        } else if (record instanceof ShareGroupRecord.StatePartitionMetadata r) {
            return r.value() == null ? null : stateValue(r.value());
        }
        throw new IllegalArgumentException("not a share group record: " + record);
    }

    /** Decodes a record of one of the {@link #handles handled} types. */
    static OffsetsRecord decode(short type, byte[] key, byte[] value) {
        if (type == GROUP_METADATA || type == TARGET_ASSIGNMENT_METADATA || type == STATE_PARTITION_METADATA) {
            String groupId = SchemaBytes.read(GroupKey.SCHEMA, key, (short) 0, false).get(GroupKey.GROUP_ID);
            if (type == GROUP_METADATA) {
                Struct v = value == null ? null : readValue(GroupValue.SCHEMA, value);
                return new ShareGroupRecord.GroupMetadata(groupId, v == null ? null
                        : new ShareGroupRecord.GroupEpoch(v.get(GroupValue.EPOCH), v.get(GroupValue.METADATA_HASH)));
            }
            if (type == TARGET_ASSIGNMENT_METADATA) {
                Struct v = value == null ? null : readValue(TargetMetadataValue.SCHEMA, value);
                return new ShareGroupRecord.TargetAssignmentMetadata(groupId,
                        v == null ? null : v.get(TargetMetadataValue.ASSIGNMENT_EPOCH));
            }
            return new ShareGroupRecord.StatePartitionMetadata(groupId,
                    value == null ? null : readState(readValue(StateValue.SCHEMA, value)));
        }
        Struct k = SchemaBytes.read(MemberKey.SCHEMA, key, (short) 0, false);
        String groupId = k.get(MemberKey.GROUP_ID);
        String memberId = k.get(MemberKey.MEMBER_ID);
        return switch (type) {
            case MEMBER_METADATA -> {
                Struct v = value == null ? null : readValue(MemberValue.SCHEMA, value);
                yield new ShareGroupRecord.MemberMetadata(groupId, memberId, v == null ? null
                        : new ShareGroupRecord.MemberSubscription(v.get(MemberValue.RACK_ID), v.get(MemberValue.CLIENT_ID),
                                v.get(MemberValue.CLIENT_HOST), v.get(MemberValue.SUBSCRIBED_TOPIC_NAMES)));
            }
            case TARGET_ASSIGNMENT_MEMBER -> new ShareGroupRecord.TargetAssignmentMember(groupId, memberId, value == null ? null
                    : readPartitions(readValue(TargetMemberValue.SCHEMA, value).get(TargetMemberValue.TOPIC_PARTITIONS)));
            default -> {
                Struct v = value == null ? null : readValue(CurrentValue.SCHEMA, value);
                yield new ShareGroupRecord.CurrentAssignment(groupId, memberId, v == null ? null
                        : new ShareGroupRecord.MemberAssignment(v.get(CurrentValue.MEMBER_EPOCH),
                                v.get(CurrentValue.PREVIOUS_MEMBER_EPOCH), v.get(CurrentValue.STATE),
                                readPartitions(v.get(CurrentValue.ASSIGNED))));
            }
        };
    }

    // ------------------------------------------------------------------ values

    private static void writePartitions(Struct s, Field<List<Struct>> field, Map<UUID, Set<Integer>> partitions) {
        new TreeMap<>(partitions).forEach((topic, parts) -> s.add(field)
                .set(TopicPartition.TOPIC_ID, topic)
                .set(TopicPartition.PARTITIONS, new ArrayList<>(new TreeSet<>(parts))));
    }

    private static Map<UUID, Set<Integer>> readPartitions(List<Struct> topics) {
        Map<UUID, Set<Integer>> out = new HashMap<>();
        for (Struct t : topics) {
            out.computeIfAbsent(t.get(TopicPartition.TOPIC_ID), id -> new TreeSet<>()).addAll(t.get(TopicPartition.PARTITIONS));
        }
        return out;
    }

    private static byte[] stateValue(ShareGroupRecord.StatePartitions value) {
        Struct s = StateValue.SCHEMA.newStruct()
                .set(StateValue.INITIALIZING, new ArrayList<>())
                .set(StateValue.INITIALIZED, new ArrayList<>())
                .set(StateValue.DELETING, new ArrayList<>());
        writeTopics(s, StateValue.INITIALIZING, value.initializing());
        writeTopics(s, StateValue.INITIALIZED, value.initialized());
        new TreeMap<>(value.deleting()).forEach((id, name) -> s.add(StateValue.DELETING)
                .set(StateValue.TopicInfo.TOPIC_ID, id)
                .set(StateValue.TopicInfo.TOPIC_NAME, name));
        return encodeValue(StateValue.SCHEMA, s);
    }

    private static void writeTopics(Struct s, Field<List<Struct>> field, Map<UUID, ShareGroupRecord.TopicPartitions> topics) {
        new TreeMap<>(topics).forEach((id, t) -> s.add(field)
                .set(StateValue.TopicPartitionsInfo.TOPIC_ID, id)
                .set(StateValue.TopicPartitionsInfo.TOPIC_NAME, t.topicName())
                .set(StateValue.TopicPartitionsInfo.PARTITIONS, new ArrayList<>(new TreeSet<>(t.partitions()))));
    }

    private static ShareGroupRecord.StatePartitions readState(Struct v) {
        Map<UUID, String> deleting = new HashMap<>();
        for (Struct t : v.get(StateValue.DELETING)) {
            deleting.put(t.get(StateValue.TopicInfo.TOPIC_ID), t.get(StateValue.TopicInfo.TOPIC_NAME));
        }
        return new ShareGroupRecord.StatePartitions(readTopics(v.get(StateValue.INITIALIZING)),
                readTopics(v.get(StateValue.INITIALIZED)), deleting);
    }

    private static Map<UUID, ShareGroupRecord.TopicPartitions> readTopics(List<Struct> topics) {
        Map<UUID, ShareGroupRecord.TopicPartitions> out = new HashMap<>();
        for (Struct t : topics) {
            out.put(t.get(StateValue.TopicPartitionsInfo.TOPIC_ID), new ShareGroupRecord.TopicPartitions(
                    t.get(StateValue.TopicPartitionsInfo.TOPIC_NAME), Set.copyOf(t.get(StateValue.TopicPartitionsInfo.PARTITIONS))));
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
