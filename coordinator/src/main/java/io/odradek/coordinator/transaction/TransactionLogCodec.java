package io.odradek.coordinator.transaction;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.runtime.RecordSerde;
import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.MalformedMessageException;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.SchemaBytes;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The records of {@code __transaction_state} in Kafka 4.4's own format (transaction-coordinator's
 * TransactionLogKey.json and TransactionLogValue.json), so Kafka's tools read our log and we read Kafka's:
 * the key is record type 0 then the transactional id (version 0, not flexible); the value is a version,
 * 0 or 1 (flexible from 1, where the previous and next producer ids and the client's transaction version
 * are tagged fields), then the state. An Empty state stores null partitions, as Kafka writes it; a
 * tombstone (null value) is an expired id. Kafka writes value version 1 once the {@code transaction.version}
 * feature is at level 1 or more, version 0 below.
 */
final class TransactionLogCodec implements RecordSerde<TransactionRecord> {
    /** The key's type prefix: Kafka's CoordinatorRecordType.TRANSACTION_LOG. */
    static final short KEY_TYPE = 0;

    static final class Key {
        static final Field<String> TRANSACTIONAL_ID = Field.string("TransactionalId");
        static final Schema SCHEMA = Schema.of(TRANSACTIONAL_ID);
    }

    static final class Value {
        static final class Partitions {
            static final Field<String> TOPIC = Field.string("Topic");
            static final Field<List<Integer>> PARTITION_IDS = Field.array("PartitionIds", Types.INT32);
            static final Schema SCHEMA = Schema.of(TOPIC, PARTITION_IDS);
        }

        static final Field<Long> PRODUCER_ID = Field.int64("ProducerId");
        static final Field<Long> PREVIOUS_PRODUCER_ID = Field.int64("PreviousProducerId").versions(1).tagged(0).withDefault(-1L);
        static final Field<Long> NEXT_PRODUCER_ID = Field.int64("NextProducerId").versions(1).tagged(1).withDefault(-1L);
        static final Field<Short> PRODUCER_EPOCH = Field.int16("ProducerEpoch");
        static final Field<Short> NEXT_PRODUCER_EPOCH = Field.int16("NextProducerEpoch").versions(1).tagged(3).withDefault((short) -1);
        static final Field<Integer> TIMEOUT_MS = Field.int32("TransactionTimeoutMs");
        static final Field<Byte> STATUS = Field.int8("TransactionStatus");
        static final Field<List<Struct>> PARTITIONS = Field.array("TransactionPartitions", Partitions.SCHEMA).nullable();
        static final Field<Long> LAST_UPDATE_MS = Field.int64("TransactionLastUpdateTimestampMs");
        static final Field<Long> START_MS = Field.int64("TransactionStartTimestampMs");
        static final Field<Short> CLIENT_TRANSACTION_VERSION = Field.int16("ClientTransactionVersion").versions(1).tagged(2)
                .withDefault((short) 0);
        static final Schema SCHEMA = Schema.of(PRODUCER_ID, PREVIOUS_PRODUCER_ID, NEXT_PRODUCER_ID, PRODUCER_EPOCH,
                NEXT_PRODUCER_EPOCH, TIMEOUT_MS, STATUS, PARTITIONS, LAST_UPDATE_MS, START_MS, CLIENT_TRANSACTION_VERSION);
    }

    private final short valueVersion;

    /** @param transactionVersionLevel the finalized {@code transaction.version}: picks the value version written */
    TransactionLogCodec(short transactionVersionLevel) {
        this.valueVersion = (short) (transactionVersionLevel >= 1 ? 1 : 0);
    }

    @Override
    public byte[] key(TransactionRecord record) {
        return SchemaBytes.write(KEY_TYPE, Key.SCHEMA, Key.SCHEMA.newStruct().set(Key.TRANSACTIONAL_ID, record.transactionalId()),
                (short) 0, false);
    }

    @Override
    public byte[] value(TransactionRecord record) {
        TransactionMetadata m = record.metadata();
        if (m == null) {
            return null;
        }
        if (m.state() == TransactionState.EMPTY && !m.partitions().isEmpty()) {
            throw new IllegalStateException("an Empty transaction with partitions " + m.partitions());
        }
        Struct v = Value.SCHEMA.newStruct()
                .set(Value.PRODUCER_ID, m.producerId())
                .set(Value.PREVIOUS_PRODUCER_ID, m.prevProducerId())
                .set(Value.NEXT_PRODUCER_ID, m.nextProducerId())
                .set(Value.PRODUCER_EPOCH, m.producerEpoch())
                .set(Value.NEXT_PRODUCER_EPOCH, (short) -1)
                .set(Value.TIMEOUT_MS, m.timeoutMs())
                .set(Value.STATUS, m.state().id())
                .set(Value.PARTITIONS, m.state() == TransactionState.EMPTY ? null : partitions(m.partitions()))
                .set(Value.LAST_UPDATE_MS, m.lastUpdateTimestampMs())
                .set(Value.START_MS, m.startTimestampMs())
                .set(Value.CLIENT_TRANSACTION_VERSION, m.clientTransactionVersion());
        return SchemaBytes.write(valueVersion, Value.SCHEMA, v, valueVersion, valueVersion >= 1);
    }

    /** By topic, then partition: Kafka groups the same way (in hash order; any order reads the same). */
    private static List<Struct> partitions(Set<TopicPartition> partitions) {
        Map<String, List<Integer>> byTopic = new TreeMap<>();
        partitions.stream().sorted().forEach(tp -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition()));
        List<Struct> out = new ArrayList<>(byTopic.size());
        byTopic.forEach((topic, ids) -> out.add(Value.Partitions.SCHEMA.newStruct()
                .set(Value.Partitions.TOPIC, topic)
                .set(Value.Partitions.PARTITION_IDS, ids)));
        return out;
    }

    /**
     * @return null for a key of another record type (Kafka skips those too)
     * @throws IllegalArgumentException when the bytes do not parse, or a value version is unknown
     */
    @Override
    public TransactionRecord decode(byte[] key, byte[] value) {
        try {
            if (SchemaBytes.prefix(key) != KEY_TYPE) {
                return null;
            }
            String transactionalId = SchemaBytes.read(Key.SCHEMA, key, (short) 0, false).get(Key.TRANSACTIONAL_ID);
            if (value == null) {
                return new TransactionRecord(transactionalId, null);
            }
            short version = SchemaBytes.prefix(value);
            if (version < 0 || version > 1) {
                throw new IllegalArgumentException("unknown TransactionLogValue version " + version);
            }
            Struct v = SchemaBytes.read(Value.SCHEMA, value, version, version >= 1);
            TransactionState state = TransactionState.ofId(v.get(Value.STATUS));
            Set<TopicPartition> partitions = new HashSet<>();
            List<Struct> stored = v.get(Value.PARTITIONS);
            if (state != TransactionState.EMPTY && stored != null) {
                for (Struct t : stored) {
                    for (int p : t.get(Value.Partitions.PARTITION_IDS)) {
                        partitions.add(new TopicPartition(t.get(Value.Partitions.TOPIC), p));
                    }
                }
            }
            return new TransactionRecord(transactionalId, new TransactionMetadata(
                    v.get(Value.PRODUCER_ID), orDefault(v.get(Value.PREVIOUS_PRODUCER_ID), -1L),
                    orDefault(v.get(Value.NEXT_PRODUCER_ID), -1L), v.get(Value.PRODUCER_EPOCH),
                    TransactionMetadata.NO_PRODUCER_EPOCH, v.get(Value.TIMEOUT_MS), state, partitions,
                    v.get(Value.START_MS), v.get(Value.LAST_UPDATE_MS),
                    orDefault(v.get(Value.CLIENT_TRANSACTION_VERSION), (short) 0)));
        } catch (IndexOutOfBoundsException | MalformedMessageException e) {
            throw new IllegalArgumentException("unreadable __transaction_state record: " + e.getMessage(), e);
        }
    }

    private static <T> T orDefault(T value, T def) {
        return value == null ? def : value;
    }
}
