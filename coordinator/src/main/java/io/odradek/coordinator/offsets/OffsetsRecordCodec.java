package io.odradek.coordinator.offsets;

import io.odradek.coordinator.runtime.RecordSerde;
import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.SchemaBytes;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;

/**
 * Keys and values of {@code __consumer_offsets} records in Kafka's own schemas (the group coordinator's
 * OffsetCommitKey/Value and GroupMetadataKey/Value), so a log written here reads like one Kafka wrote.
 * Each key and value starts with an int16: the record type for keys (0 and 1 offset commit, 2 group
 * metadata; 3 and 5-8 KIP-848 consumer groups, see {@link ConsumerGroupRecordCodec}; other types are
 * skipped), the schema version for values.
 */
public final class OffsetsRecordCodec {
    static final short OFFSET_COMMIT_KEY = 1;
    static final short LEGACY_OFFSET_COMMIT_KEY = 0;
    static final short GROUP_METADATA_KEY = 2;

    /** Written without an explicit expiry; v1 is the only one that carries expireTimestamp. */
    static final short OFFSET_VALUE_VERSION = 3;
    static final short OFFSET_VALUE_VERSION_WITH_EXPIRY = 1;
    static final short GROUP_VALUE_VERSION = 3;
    private static final short FLEXIBLE_FROM = 4;

    /** The codec as the coordinator runtime stores and loads records. */
    public static final RecordSerde<OffsetsRecord> SERDE = new RecordSerde<>() {
        @Override
        public byte[] key(OffsetsRecord record) {
            return OffsetsRecordCodec.key(record);
        }

        @Override
        public byte[] value(OffsetsRecord record) {
            return OffsetsRecordCodec.value(record);
        }

        @Override
        public OffsetsRecord decode(byte[] key, byte[] value) {
            return OffsetsRecordCodec.decode(key, value);
        }
    };

    private OffsetsRecordCodec() {
    }

    static final class OffsetKey {
        static final Field<String> GROUP = Field.string("group");
        static final Field<String> TOPIC = Field.string("topic");
        static final Field<Integer> PARTITION = Field.int32("partition");
        static final Schema SCHEMA = Schema.of(GROUP, TOPIC, PARTITION);
    }

    static final class OffsetValue {
        static final Field<Long> OFFSET = Field.int64("offset");
        static final Field<Integer> LEADER_EPOCH = Field.int32("leaderEpoch").versions(3).withDefault(-1);
        static final Field<String> METADATA = Field.string("metadata");
        static final Field<Long> COMMIT_TIMESTAMP = Field.int64("commitTimestamp");
        static final Field<Long> EXPIRE_TIMESTAMP = Field.int64("expireTimestamp").versions(1, 1).withDefault(-1L);
        static final Schema SCHEMA = Schema.of(OFFSET, LEADER_EPOCH, METADATA, COMMIT_TIMESTAMP, EXPIRE_TIMESTAMP);
    }

    static final class GroupKey {
        static final Field<String> GROUP = Field.string("group");
        static final Schema SCHEMA = Schema.of(GROUP);
    }

    static final class GroupValue {
        static final class Member {
            static final Field<String> MEMBER_ID = Field.string("memberId");
            static final Field<String> GROUP_INSTANCE_ID = Field.string("groupInstanceId").versions(3).nullable();
            static final Field<String> CLIENT_ID = Field.string("clientId");
            static final Field<String> CLIENT_HOST = Field.string("clientHost");
            static final Field<Integer> REBALANCE_TIMEOUT = Field.int32("rebalanceTimeout").versions(1);
            static final Field<Integer> SESSION_TIMEOUT = Field.int32("sessionTimeout");
            static final Field<byte[]> SUBSCRIPTION = Field.bytes("subscription");
            static final Field<byte[]> ASSIGNMENT = Field.bytes("assignment");
            static final Schema SCHEMA = Schema.of(MEMBER_ID, GROUP_INSTANCE_ID, CLIENT_ID, CLIENT_HOST,
                    REBALANCE_TIMEOUT, SESSION_TIMEOUT, SUBSCRIPTION, ASSIGNMENT);
        }

        static final Field<String> PROTOCOL_TYPE = Field.string("protocolType");
        static final Field<Integer> GENERATION = Field.int32("generation");
        static final Field<String> PROTOCOL = Field.string("protocol").nullable();
        static final Field<String> LEADER = Field.string("leader").nullable();
        static final Field<Long> CURRENT_STATE_TIMESTAMP = Field.int64("currentStateTimestamp").versions(2).withDefault(-1L);
        static final Field<List<Struct>> MEMBERS = Field.array("members", Member.SCHEMA);
        static final Schema SCHEMA = Schema.of(PROTOCOL_TYPE, GENERATION, PROTOCOL, LEADER, CURRENT_STATE_TIMESTAMP, MEMBERS);
    }

    public static byte[] key(OffsetsRecord record) {
        if (record instanceof ShareGroupRecord r) {
            return ShareGroupRecordCodec.key(r);
        }
        if (record instanceof StreamsGroupRecord r) {
            return StreamsGroupRecordCodec.key(r);
        }
        if (isConsumerGroupRecord(record)) {
            return ConsumerGroupRecordCodec.key(record);
        }
        if (record instanceof OffsetsRecord.OffsetCommit c) {
            Struct s = OffsetKey.SCHEMA.newStruct()
                    .set(OffsetKey.GROUP, c.groupId())
                    .set(OffsetKey.TOPIC, c.partition().topic())
                    .set(OffsetKey.PARTITION, c.partition().partition());
            return encode(OFFSET_COMMIT_KEY, OffsetKey.SCHEMA, s, false);
        }
        Struct s = GroupKey.SCHEMA.newStruct().set(GroupKey.GROUP, record.groupId());
        return encode(GROUP_METADATA_KEY, GroupKey.SCHEMA, s, false);
    }

    /** The value bytes, or null for a tombstone. */
    public static byte[] value(OffsetsRecord record) {
        if (record instanceof ShareGroupRecord r) {
            return ShareGroupRecordCodec.value(r);
        }
        if (record instanceof StreamsGroupRecord r) {
            return StreamsGroupRecordCodec.value(r);
        }
        if (isConsumerGroupRecord(record)) {
            return ConsumerGroupRecordCodec.value(record);
        }
        if (record instanceof OffsetsRecord.OffsetCommit c) {
            OffsetAndMetadata v = c.value();
            if (v == null) {
                return null;
            }
            short version = v.hasExpireTimestamp() ? OFFSET_VALUE_VERSION_WITH_EXPIRY : OFFSET_VALUE_VERSION;
            Struct s = OffsetValue.SCHEMA.newStruct()
                    .set(OffsetValue.OFFSET, v.offset())
                    .set(OffsetValue.LEADER_EPOCH, v.leaderEpoch())
                    .set(OffsetValue.METADATA, v.metadata())
                    .set(OffsetValue.COMMIT_TIMESTAMP, v.commitTimestampMs())
                    .set(OffsetValue.EXPIRE_TIMESTAMP, v.expireTimestampMs());
            return encode(version, OffsetValue.SCHEMA, s, false);
        }
        StoredGroup g = ((OffsetsRecord.GroupMetadata) record).value();
        if (g == null) {
            return null;
        }
        Struct s = GroupValue.SCHEMA.newStruct()
                .set(GroupValue.PROTOCOL_TYPE, g.protocolType())
                .set(GroupValue.GENERATION, g.generation())
                .set(GroupValue.PROTOCOL, g.protocol())
                .set(GroupValue.LEADER, g.leader())
                .set(GroupValue.CURRENT_STATE_TIMESTAMP, g.currentStateTimestamp())
                .set(GroupValue.MEMBERS, new ArrayList<>());
        for (StoredGroup.StoredMember m : g.members()) {
            s.add(GroupValue.MEMBERS)
                    .set(GroupValue.Member.MEMBER_ID, m.memberId())
                    .set(GroupValue.Member.GROUP_INSTANCE_ID, m.groupInstanceId())
                    .set(GroupValue.Member.CLIENT_ID, m.clientId())
                    .set(GroupValue.Member.CLIENT_HOST, m.clientHost())
                    .set(GroupValue.Member.REBALANCE_TIMEOUT, m.rebalanceTimeoutMs())
                    .set(GroupValue.Member.SESSION_TIMEOUT, m.sessionTimeoutMs())
                    .set(GroupValue.Member.SUBSCRIPTION, m.subscription())
                    .set(GroupValue.Member.ASSIGNMENT, m.assignment());
        }
        return encode(GROUP_VALUE_VERSION, GroupValue.SCHEMA, s, false);
    }

    /**
     * Decodes one record; null for a record type this coordinator does not keep (share and streams group
     * records, KIP-848 partition metadata and regular expressions).
     *
     * @throws IllegalArgumentException when the bytes do not parse
     */
    public static OffsetsRecord decode(byte[] key, byte[] value) {
        if (key == null || key.length < 2) {
            throw new IllegalArgumentException("record without a key type");
        }
        try {
            short type = SchemaBytes.prefix(key);
            if (type == OFFSET_COMMIT_KEY || type == LEGACY_OFFSET_COMMIT_KEY) {
                Struct ks = SchemaBytes.read(OffsetKey.SCHEMA, key, (short) 0, false);
                TopicPartition tp = new TopicPartition(ks.get(OffsetKey.TOPIC), ks.get(OffsetKey.PARTITION));
                return new OffsetsRecord.OffsetCommit(ks.get(OffsetKey.GROUP), tp, value == null ? null : offsetValue(value));
            }
            if (type == GROUP_METADATA_KEY) {
                Struct ks = SchemaBytes.read(GroupKey.SCHEMA, key, (short) 0, false);
                return new OffsetsRecord.GroupMetadata(ks.get(GroupKey.GROUP), value == null ? null : groupValue(value));
            }
            if (ConsumerGroupRecordCodec.handles(type)) {
                return ConsumerGroupRecordCodec.decode(type, key, value);
            }
            if (ShareGroupRecordCodec.handles(type)) {
                return ShareGroupRecordCodec.decode(type, key, value);
            }
            if (StreamsGroupRecordCodec.handles(type)) {
                return StreamsGroupRecordCodec.decode(type, key, value);
            }
            return null;
        } catch (IndexOutOfBoundsException | io.odradek.wire.schema.MalformedMessageException e) {
            throw new IllegalArgumentException("malformed __consumer_offsets record: " + e.getMessage(), e);
        }
    }

    private static OffsetAndMetadata offsetValue(byte[] value) {
        short version = SchemaBytes.prefix(value);
        Struct s = SchemaBytes.read(OffsetValue.SCHEMA, value, version, version >= FLEXIBLE_FROM);
        return new OffsetAndMetadata(s.get(OffsetValue.OFFSET), s.get(OffsetValue.LEADER_EPOCH),
                s.get(OffsetValue.METADATA), s.get(OffsetValue.COMMIT_TIMESTAMP), s.get(OffsetValue.EXPIRE_TIMESTAMP));
    }

    private static StoredGroup groupValue(byte[] value) {
        short version = SchemaBytes.prefix(value);
        Struct s = SchemaBytes.read(GroupValue.SCHEMA, value, version, version >= FLEXIBLE_FROM);
        List<StoredGroup.StoredMember> members = new ArrayList<>();
        for (Struct m : s.get(GroupValue.MEMBERS)) {
            members.add(new StoredGroup.StoredMember(m.get(GroupValue.Member.MEMBER_ID),
                    m.get(GroupValue.Member.GROUP_INSTANCE_ID), m.get(GroupValue.Member.CLIENT_ID),
                    m.get(GroupValue.Member.CLIENT_HOST), m.get(GroupValue.Member.REBALANCE_TIMEOUT),
                    m.get(GroupValue.Member.SESSION_TIMEOUT), m.get(GroupValue.Member.SUBSCRIPTION),
                    m.get(GroupValue.Member.ASSIGNMENT)));
        }
        return new StoredGroup(s.get(GroupValue.PROTOCOL_TYPE), s.get(GroupValue.GENERATION), s.get(GroupValue.PROTOCOL),
                s.get(GroupValue.LEADER), s.get(GroupValue.CURRENT_STATE_TIMESTAMP), members);
    }

    private static boolean isConsumerGroupRecord(OffsetsRecord record) {
        return !(record instanceof OffsetsRecord.OffsetCommit) && !(record instanceof OffsetsRecord.GroupMetadata);
    }

    static byte[] encode(short version, Schema schema, Struct struct, boolean flexible) {
        return SchemaBytes.write(version, schema, struct, version, flexible);
    }
}
