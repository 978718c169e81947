package io.odradek.coordinator.share.state;

import io.odradek.coordinator.runtime.RecordSerde;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.MalformedMessageException;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.SchemaBytes;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The records of {@code __share_group_state} in Kafka 4.4's own format (share-coordinator's
 * ShareSnapshotKey/Value.json and ShareUpdateKey/Value.json), so Kafka's tools read our log and we read
 * Kafka's. A key is the record type (0 snapshot, 1 update) then group id, topic id and partition (version 0,
 * not flexible); a value is version 0 (flexible) with DeliveryCompleteCount as tagged field 0 (Kafka 4.2,
 * KIP-1226; omitted at its default -1). A tombstone is a snapshot key with no value.
 */
public final class ShareStateRecordCodec implements RecordSerde<ShareStateRecord> {
    private static final short VALUE_VERSION = 0;

    static final class Key {
        static final Field<String> GROUP_ID = Field.string("GroupId");
        static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
        static final Field<Integer> PARTITION = Field.int32("Partition");
        static final Schema SCHEMA = Schema.of(GROUP_ID, TOPIC_ID, PARTITION);
    }

    /** The StateBatches element: the same fields in both values, but one schema per value (a field has one owner). */
    private static final class Batch {
        final Field<Long> firstOffset = Field.int64("FirstOffset");
        final Field<Long> lastOffset = Field.int64("LastOffset");
        final Field<Byte> deliveryState = Field.int8("DeliveryState");
        final Field<Short> deliveryCount = Field.int16("DeliveryCount");
        final Schema schema = Schema.of(firstOffset, lastOffset, deliveryState, deliveryCount);

        List<Struct> write(List<StateBatch> batches) {
            List<Struct> out = new ArrayList<>(batches.size());
            for (StateBatch b : batches) {
                out.add(schema.newStruct()
                        .set(firstOffset, b.firstOffset())
                        .set(lastOffset, b.lastOffset())
                        .set(deliveryState, b.deliveryState())
                        .set(deliveryCount, b.deliveryCount()));
            }
            return out;
        }

        List<StateBatch> read(List<Struct> structs) {
            List<StateBatch> out = new ArrayList<>(structs.size());
            for (Struct s : structs) {
                out.add(new StateBatch(s.get(firstOffset), s.get(lastOffset), s.get(deliveryState), s.get(deliveryCount)));
            }
            return out;
        }
    }

    static final class SnapshotValue {
        static final Batch BATCH = new Batch();
        static final Field<Integer> SNAPSHOT_EPOCH = Field.int32("SnapshotEpoch");
        static final Field<Integer> STATE_EPOCH = Field.int32("StateEpoch");
        static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch");
        static final Field<Long> START_OFFSET = Field.int64("StartOffset");
        static final Field<Integer> DELIVERY_COMPLETE_COUNT = Field.int32("DeliveryCompleteCount").tagged(0).withDefault(-1);
        static final Field<Long> CREATE_TIMESTAMP = Field.int64("CreateTimestamp");
        static final Field<Long> WRITE_TIMESTAMP = Field.int64("WriteTimestamp");
        static final Field<List<Struct>> STATE_BATCHES = Field.array("StateBatches", BATCH.schema);
        static final Schema SCHEMA = Schema.of(SNAPSHOT_EPOCH, STATE_EPOCH, LEADER_EPOCH, START_OFFSET,
                DELIVERY_COMPLETE_COUNT, CREATE_TIMESTAMP, WRITE_TIMESTAMP, STATE_BATCHES);
    }

    static final class UpdateValue {
        static final Batch BATCH = new Batch();
        static final Field<Integer> SNAPSHOT_EPOCH = Field.int32("SnapshotEpoch");
        static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch");
        static final Field<Long> START_OFFSET = Field.int64("StartOffset");
        static final Field<Integer> DELIVERY_COMPLETE_COUNT = Field.int32("DeliveryCompleteCount").tagged(0).withDefault(-1);
        static final Field<List<Struct>> STATE_BATCHES = Field.array("StateBatches", BATCH.schema);
        static final Schema SCHEMA = Schema.of(SNAPSHOT_EPOCH, LEADER_EPOCH, START_OFFSET, DELIVERY_COMPLETE_COUNT,
                STATE_BATCHES);
    }

    @Override
    public byte[] key(ShareStateRecord record) {
        SharePartitionKey k = record.key();
        Struct key = Key.SCHEMA.newStruct()
                .set(Key.GROUP_ID, k.groupId())
                .set(Key.TOPIC_ID, k.topicId())
                .set(Key.PARTITION, k.partition());
        return SchemaBytes.write(record.type().id(), Key.SCHEMA, key, (short) 0, false);
    }

    @Override
    public byte[] value(ShareStateRecord record) {
        ShareGroupOffset v = record.value();
        if (v == null) {
            return null;
        }
        if (record.type() == ShareStateRecord.Type.SNAPSHOT) {
            Struct s = SnapshotValue.SCHEMA.newStruct()
                    .set(SnapshotValue.SNAPSHOT_EPOCH, v.snapshotEpoch())
                    .set(SnapshotValue.STATE_EPOCH, v.stateEpoch())
                    .set(SnapshotValue.LEADER_EPOCH, v.leaderEpoch())
                    .set(SnapshotValue.START_OFFSET, v.startOffset())
                    .set(SnapshotValue.DELIVERY_COMPLETE_COUNT, v.deliveryCompleteCount())
                    .set(SnapshotValue.CREATE_TIMESTAMP, v.createTimestamp())
                    .set(SnapshotValue.WRITE_TIMESTAMP, v.writeTimestamp())
                    .set(SnapshotValue.STATE_BATCHES, SnapshotValue.BATCH.write(v.batches()));
            return SchemaBytes.write(VALUE_VERSION, SnapshotValue.SCHEMA, s, VALUE_VERSION, true);
        }
        Struct u = UpdateValue.SCHEMA.newStruct()
                .set(UpdateValue.SNAPSHOT_EPOCH, v.snapshotEpoch())
                .set(UpdateValue.LEADER_EPOCH, v.leaderEpoch())
                .set(UpdateValue.START_OFFSET, v.startOffset())
                .set(UpdateValue.DELIVERY_COMPLETE_COUNT, v.deliveryCompleteCount())
                .set(UpdateValue.STATE_BATCHES, UpdateValue.BATCH.write(v.batches()));
        return SchemaBytes.write(VALUE_VERSION, UpdateValue.SCHEMA, u, VALUE_VERSION, true);
    }

    /**
     * @return null for a key of another record type (Kafka skips those too)
     * @throws IllegalArgumentException when the bytes do not parse, or the value's version is unknown
     */
    @Override
    public ShareStateRecord decode(byte[] key, byte[] value) {
        try {
            short type = SchemaBytes.prefix(key);
            if (type != ShareStateRecord.Type.SNAPSHOT.id() && type != ShareStateRecord.Type.UPDATE.id()) {
                return null;
            }
            Struct k = SchemaBytes.read(Key.SCHEMA, key, (short) 0, false);
            SharePartitionKey spk = new SharePartitionKey(k.get(Key.GROUP_ID), k.get(Key.TOPIC_ID), k.get(Key.PARTITION));
            if (type == ShareStateRecord.Type.SNAPSHOT.id()) {
                return ShareStateRecord.snapshot(spk, value == null ? null : snapshot(value));
            }
            if (value == null) {
                throw new IllegalArgumentException("a ShareUpdate record without a value");
            }
            return ShareStateRecord.update(spk, update(value));
        } catch (MalformedMessageException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("unreadable share state record: " + e.getMessage(), e);
        }
    }

    private static ShareGroupOffset snapshot(byte[] value) {
        checkVersion(value);
        Struct s = SchemaBytes.read(SnapshotValue.SCHEMA, value, VALUE_VERSION, true);
        return new ShareGroupOffset(s.get(SnapshotValue.SNAPSHOT_EPOCH), s.get(SnapshotValue.STATE_EPOCH),
                s.get(SnapshotValue.LEADER_EPOCH), s.get(SnapshotValue.START_OFFSET), s.get(SnapshotValue.DELIVERY_COMPLETE_COUNT),
                s.get(SnapshotValue.CREATE_TIMESTAMP), s.get(SnapshotValue.WRITE_TIMESTAMP),
                SnapshotValue.BATCH.read(s.get(SnapshotValue.STATE_BATCHES)));
    }

    /** An update holds no state epoch nor timestamps: -1 and 0 here, never used from it. */
    private static ShareGroupOffset update(byte[] value) {
        checkVersion(value);
        Struct u = SchemaBytes.read(UpdateValue.SCHEMA, value, VALUE_VERSION, true);
        return new ShareGroupOffset(u.get(UpdateValue.SNAPSHOT_EPOCH), -1, u.get(UpdateValue.LEADER_EPOCH),
                u.get(UpdateValue.START_OFFSET), u.get(UpdateValue.DELIVERY_COMPLETE_COUNT), 0, 0,
                UpdateValue.BATCH.read(u.get(UpdateValue.STATE_BATCHES)));
    }

    private static void checkVersion(byte[] value) {
        short version = SchemaBytes.prefix(value);
        if (version != VALUE_VERSION) {
            throw new IllegalArgumentException("unknown share state value version " + version);
        }
    }
}
