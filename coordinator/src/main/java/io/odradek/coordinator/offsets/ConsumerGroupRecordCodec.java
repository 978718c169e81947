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
 * The KIP-848 consumer group records of {@code __consumer_offsets} in Kafka 4.4's own schemas
 * (group-coordinator's ConsumerGroup*Key/Value.json): keys are version 0 and not flexible, values are
 * version 0 and flexible. Types 4 (partition metadata, replaced in Kafka 4.1 by the group's metadata hash)
 * and 16 (resolved regular expressions, which we re-evaluate at each heartbeat) are neither written nor
 * kept. The classic member metadata a Kafka member record may carry (tag 0) is skipped on read.
 */
final class ConsumerGroupRecordCodec {
    static final short GROUP_METADATA = 3;
    static final short MEMBER_METADATA = 5;
    static final short TARGET_ASSIGNMENT_METADATA = 6;
    static final short TARGET_ASSIGNMENT_MEMBER = 7;
    static final short CURRENT_MEMBER_ASSIGNMENT = 8;
    private static final short VALUE_VERSION = 0;

    private ConsumerGroupRecordCodec() {
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

    static final class GroupValue {
        static final Field<Integer> EPOCH = Field.int32("Epoch");
        static final Field<Long> METADATA_HASH = Field.int64("MetadataHash").tagged(0).withDefault(0L);
        static final Schema SCHEMA = Schema.of(EPOCH, METADATA_HASH);
    }

    static final class MemberValue {
        static final Field<String> INSTANCE_ID = Field.string("InstanceId").nullable();
        static final Field<String> RACK_ID = Field.string("RackId").nullable();
        static final Field<String> CLIENT_ID = Field.string("ClientId");
        static final Field<String> CLIENT_HOST = Field.string("ClientHost");
        static final Field<List<String>> SUBSCRIBED_TOPIC_NAMES = Field.array("SubscribedTopicNames", Types.STRING);
        static final Field<String> SUBSCRIBED_TOPIC_REGEX = Field.string("SubscribedTopicRegex").nullable();
        static final Field<Integer> REBALANCE_TIMEOUT_MS = Field.int32("RebalanceTimeoutMs").withDefault(-1);
        static final Field<String> SERVER_ASSIGNOR = Field.string("ServerAssignor").nullable();
        static final Schema SCHEMA = Schema.of(INSTANCE_ID, RACK_ID, CLIENT_ID, CLIENT_HOST, SUBSCRIBED_TOPIC_NAMES,
                SUBSCRIBED_TOPIC_REGEX, REBALANCE_TIMEOUT_MS, SERVER_ASSIGNOR);
    }

    static final class TargetMetadataValue {
        static final Field<Integer> ASSIGNMENT_EPOCH = Field.int32("AssignmentEpoch");
        static final Field<Long> ASSIGNMENT_TIMESTAMP = Field.int64("AssignmentTimestamp").tagged(0).withDefault(0L);
        static final Schema SCHEMA = Schema.of(ASSIGNMENT_EPOCH, ASSIGNMENT_TIMESTAMP);
    }

    static final class TargetMemberValue {
        static final class TopicPartition {
            static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
            static final Schema SCHEMA = Schema.of(TOPIC_ID, PARTITIONS);
        }

        static final Field<List<Struct>> TOPIC_PARTITIONS = Field.array("TopicPartitions", TopicPartition.SCHEMA);
        static final Schema SCHEMA = Schema.of(TOPIC_PARTITIONS);
    }

    static final class CurrentValue {
        static final class TopicPartitions {
            static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
            static final Field<List<Integer>> ASSIGNMENT_EPOCHS = Field.array("AssignmentEpochs", Types.INT32)
                    .nullable().tagged(0);
            static final Schema SCHEMA = Schema.of(TOPIC_ID, PARTITIONS, ASSIGNMENT_EPOCHS);
        }

        static final Field<Integer> MEMBER_EPOCH = Field.int32("MemberEpoch");
        static final Field<Integer> PREVIOUS_MEMBER_EPOCH = Field.int32("PreviousMemberEpoch");
        static final Field<Byte> STATE = Field.int8("State");
        static final Field<List<Struct>> ASSIGNED = Field.array("AssignedPartitions", TopicPartitions.SCHEMA);
        static final Field<List<Struct>> PENDING_REVOCATION = Field.array("PartitionsPendingRevocation", TopicPartitions.SCHEMA);
        static final Schema SCHEMA = Schema.of(MEMBER_EPOCH, PREVIOUS_MEMBER_EPOCH, STATE, ASSIGNED, PENDING_REVOCATION);
    }

    static boolean handles(short type) {
        return type == GROUP_METADATA || type == MEMBER_METADATA || type == TARGET_ASSIGNMENT_METADATA
                || type == TARGET_ASSIGNMENT_MEMBER || type == CURRENT_MEMBER_ASSIGNMENT;
    }

    static byte[] key(OffsetsRecord record) {
        if (record instanceof OffsetsRecord.ConsumerGroupMetadata r) {
            return groupKey(GROUP_METADATA, r.groupId());
        } else if (record instanceof OffsetsRecord.ConsumerTargetAssignmentMetadata r) {
            return groupKey(TARGET_ASSIGNMENT_METADATA, r.groupId());
        } else if (record instanceof OffsetsRecord.ConsumerMemberMetadata r) {
            return memberKey(MEMBER_METADATA, r.groupId(), r.memberId());
        } else if (record instanceof OffsetsRecord.ConsumerTargetAssignmentMember r) {
            return memberKey(TARGET_ASSIGNMENT_MEMBER, r.groupId(), r.memberId());
        } else if (record instanceof OffsetsRecord.ConsumerCurrentAssignment r) {
            return memberKey(CURRENT_MEMBER_ASSIGNMENT, r.groupId(), r.memberId());
        }
        throw new IllegalArgumentException("not a consumer group record: " + record);
    }

    /** The value bytes, or null for a tombstone. */
    static byte[] value(OffsetsRecord record) {
        if (record instanceof OffsetsRecord.ConsumerGroupMetadata r) {
            return r.value() == null ? null : encodeValue(GroupValue.SCHEMA, GroupValue.SCHEMA.newStruct()
                    .set(GroupValue.EPOCH, r.value().epoch())
                    .set(GroupValue.METADATA_HASH, r.value().metadataHash()));
        } else if (record instanceof OffsetsRecord.ConsumerTargetAssignmentMetadata r) {
            return r.assignmentEpoch() == null ? null : encodeValue(TargetMetadataValue.SCHEMA,
                    TargetMetadataValue.SCHEMA.newStruct().set(TargetMetadataValue.ASSIGNMENT_EPOCH, r.assignmentEpoch()));
        } else if (record instanceof OffsetsRecord.ConsumerMemberMetadata r) {
            return r.value() == null ? null : memberValue(r.value());
        } else if (record instanceof OffsetsRecord.ConsumerTargetAssignmentMember r) {
            return r.partitions() == null ? null : targetValue(r.partitions());
        } else if (record instanceof OffsetsRecord.ConsumerCurrentAssignment r) {
            return r.value() == null ? null : currentValue(r.value());
        }
        throw new IllegalArgumentException("not a consumer group record: " + record);
    }

    /** Decodes a record of one of the {@link #handles handled} types; the key buffer is past its type. */
    static OffsetsRecord decode(short type, byte[] key, byte[] value) {
        if (type == GROUP_METADATA || type == TARGET_ASSIGNMENT_METADATA) {
            String groupId = SchemaBytes.read(GroupKey.SCHEMA, key, (short) 0, false).get(GroupKey.GROUP_ID);
            if (type == GROUP_METADATA) {
                Struct v = value == null ? null : readValue(GroupValue.SCHEMA, value);
                return new OffsetsRecord.ConsumerGroupMetadata(groupId, v == null ? null
                        : new ConsumerGroupEpoch(v.get(GroupValue.EPOCH), v.get(GroupValue.METADATA_HASH)));
            }
            Struct v = value == null ? null : readValue(TargetMetadataValue.SCHEMA, value);
            return new OffsetsRecord.ConsumerTargetAssignmentMetadata(groupId,
                    v == null ? null : v.get(TargetMetadataValue.ASSIGNMENT_EPOCH));
        }
        Struct k = SchemaBytes.read(MemberKey.SCHEMA, key, (short) 0, false);
        String groupId = k.get(MemberKey.GROUP_ID);
        String memberId = k.get(MemberKey.MEMBER_ID);
        return switch (type) {
            case MEMBER_METADATA -> new OffsetsRecord.ConsumerMemberMetadata(groupId, memberId,
                    value == null ? null : readMember(readValue(MemberValue.SCHEMA, value)));
            case TARGET_ASSIGNMENT_MEMBER -> new OffsetsRecord.ConsumerTargetAssignmentMember(groupId, memberId,
                    value == null ? null : readTarget(readValue(TargetMemberValue.SCHEMA, value)));
            default -> new OffsetsRecord.ConsumerCurrentAssignment(groupId, memberId,
                    value == null ? null : readCurrent(readValue(CurrentValue.SCHEMA, value)));
        };
    }

    // ------------------------------------------------------------------ values

    private static byte[] memberValue(ConsumerMemberSubscription m) {
        return encodeValue(MemberValue.SCHEMA, MemberValue.SCHEMA.newStruct()
                .set(MemberValue.INSTANCE_ID, m.instanceId())
                .set(MemberValue.RACK_ID, m.rackId())
                .set(MemberValue.CLIENT_ID, m.clientId())
                .set(MemberValue.CLIENT_HOST, m.clientHost())
                .set(MemberValue.SUBSCRIBED_TOPIC_NAMES, m.subscribedTopicNames())
                .set(MemberValue.SUBSCRIBED_TOPIC_REGEX, m.subscribedTopicRegex())
                .set(MemberValue.REBALANCE_TIMEOUT_MS, m.rebalanceTimeoutMs())
                .set(MemberValue.SERVER_ASSIGNOR, m.serverAssignor()));
    }

    private static ConsumerMemberSubscription readMember(Struct v) {
        return new ConsumerMemberSubscription(v.get(MemberValue.INSTANCE_ID), v.get(MemberValue.RACK_ID),
                v.get(MemberValue.CLIENT_ID), v.get(MemberValue.CLIENT_HOST), v.get(MemberValue.SUBSCRIBED_TOPIC_NAMES),
                v.get(MemberValue.SUBSCRIBED_TOPIC_REGEX), v.get(MemberValue.REBALANCE_TIMEOUT_MS),
                v.get(MemberValue.SERVER_ASSIGNOR));
    }

    private static byte[] targetValue(Map<UUID, Set<Integer>> partitions) {
        Struct s = TargetMemberValue.SCHEMA.newStruct().set(TargetMemberValue.TOPIC_PARTITIONS, new ArrayList<>());
        new TreeMap<>(partitions).forEach((topic, parts) -> s.add(TargetMemberValue.TOPIC_PARTITIONS)
                .set(TargetMemberValue.TopicPartition.TOPIC_ID, topic)
                .set(TargetMemberValue.TopicPartition.PARTITIONS, new ArrayList<>(new TreeSet<>(parts))));
        return encodeValue(TargetMemberValue.SCHEMA, s);
    }

    private static Map<UUID, Set<Integer>> readTarget(Struct v) {
        Map<UUID, Set<Integer>> out = new HashMap<>();
        for (Struct t : v.get(TargetMemberValue.TOPIC_PARTITIONS)) {
            out.computeIfAbsent(t.get(TargetMemberValue.TopicPartition.TOPIC_ID), id -> new TreeSet<>())
                    .addAll(t.get(TargetMemberValue.TopicPartition.PARTITIONS));
        }
        return out;
    }

    private static byte[] currentValue(ConsumerMemberAssignment a) {
        Struct s = CurrentValue.SCHEMA.newStruct()
                .set(CurrentValue.MEMBER_EPOCH, a.memberEpoch())
                .set(CurrentValue.PREVIOUS_MEMBER_EPOCH, a.previousMemberEpoch())
                .set(CurrentValue.STATE, a.state())
                .set(CurrentValue.ASSIGNED, new ArrayList<>())
                .set(CurrentValue.PENDING_REVOCATION, new ArrayList<>());
        writePartitions(s, CurrentValue.ASSIGNED, a.assignedPartitions());
        writePartitions(s, CurrentValue.PENDING_REVOCATION, a.partitionsPendingRevocation());
        return encodeValue(CurrentValue.SCHEMA, s);
    }

    private static void writePartitions(Struct s, Field<List<Struct>> field, Map<UUID, Map<Integer, Integer>> partitions) {
        partitions.forEach((topic, epochs) -> s.add(field)
                .set(CurrentValue.TopicPartitions.TOPIC_ID, topic)
                .set(CurrentValue.TopicPartitions.PARTITIONS, new ArrayList<>(epochs.keySet()))
                .set(CurrentValue.TopicPartitions.ASSIGNMENT_EPOCHS, new ArrayList<>(epochs.values())));
    }

    private static ConsumerMemberAssignment readCurrent(Struct v) {
        int memberEpoch = v.get(CurrentValue.MEMBER_EPOCH);
        return new ConsumerMemberAssignment(memberEpoch, v.get(CurrentValue.PREVIOUS_MEMBER_EPOCH), v.get(CurrentValue.STATE),
                readPartitions(v.get(CurrentValue.ASSIGNED), memberEpoch),
                readPartitions(v.get(CurrentValue.PENDING_REVOCATION), memberEpoch));
    }

    /** Records written before Kafka 4.4 have no assignment epochs: the member epoch stands in for them. */
    private static Map<UUID, Map<Integer, Integer>> readPartitions(List<Struct> topics, int memberEpoch) {
        Map<UUID, Map<Integer, Integer>> out = new HashMap<>();
        for (Struct t : topics) {
            List<Integer> partitions = t.get(CurrentValue.TopicPartitions.PARTITIONS);
            List<Integer> epochs = t.get(CurrentValue.TopicPartitions.ASSIGNMENT_EPOCHS);
            Map<Integer, Integer> m = out.computeIfAbsent(t.get(CurrentValue.TopicPartitions.TOPIC_ID), id -> new TreeMap<>());
            for (int i = 0; i < partitions.size(); i++) {
                m.put(partitions.get(i), epochs != null && i < epochs.size() ? epochs.get(i) : memberEpoch);
            }
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
