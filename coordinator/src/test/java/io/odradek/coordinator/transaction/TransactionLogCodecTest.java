package io.odradek.coordinator.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.offsets.TopicPartition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.transaction.generated.TransactionLogKey;
import org.apache.kafka.coordinator.transaction.generated.TransactionLogValue;
import org.junit.jupiter.api.Test;

/** {@code __transaction_state} records, checked against Kafka 4.4's own generated record classes both ways. */
class TransactionLogCodecTest {
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_3 = new TopicPartition("orders", 3);
    private static final TopicPartition OFFSETS_7 = new TopicPartition("__consumer_offsets", 7);

    private final TransactionLogCodec v1 = new TransactionLogCodec((short) 2);
    private final TransactionLogCodec v0 = new TransactionLogCodec((short) 0);

    private static TransactionMetadata ongoing() {
        return new TransactionMetadata(4000L, 3999L, -1L, (short) 5, (short) -1, 60_000, TransactionState.ONGOING,
                Set.of(ORDERS_3, ORDERS_0, OFFSETS_7), 1_700_000_000_000L, 1_700_000_000_500L, (short) 2);
    }

    private static TransactionLogValue readByKafka(byte[] value) {
        ByteBuffer buf = ByteBuffer.wrap(value);
        short version = buf.getShort();
        return new TransactionLogValue(new ByteBufferAccessor(buf), version);
    }

    private static List<String> kafkaPartitions(TransactionLogValue value) {
        List<String> out = new ArrayList<>();
        value.transactionPartitions().forEach(t -> t.partitionIds().forEach(p -> out.add(t.topic() + "-" + p)));
        return out;
    }

    @Test
    void keyIsRecordTypeZeroThenTheTransactionalIdAsKafkaWritesIt() {
        byte[] ours = v1.key(new TransactionRecord("payments-tx", null));
        byte[] kafka = MessageUtil.toCoordinatorTypePrefixedBytes(new TransactionLogKey().setTransactionalId("payments-tx"));
        assertThat(ours).isEqualTo(kafka);
    }

    @Test
    void anOngoingTransactionReadsTheSameInKafkaAsVersionOne() {
        byte[] value = v1.value(new TransactionRecord("tx", ongoing()));
        assertThat(ByteBuffer.wrap(value).getShort()).isEqualTo((short) 1);

        TransactionLogValue kafka = readByKafka(value);
        assertThat(kafka.producerId()).isEqualTo(4000L);
        assertThat(kafka.previousProducerId()).isEqualTo(3999L);
        assertThat(kafka.nextProducerId()).isEqualTo(-1L);
        assertThat(kafka.producerEpoch()).isEqualTo((short) 5);
        assertThat(kafka.nextProducerEpoch()).isEqualTo((short) -1);
        assertThat(kafka.transactionTimeoutMs()).isEqualTo(60_000);
        assertThat(kafka.transactionStatus()).isEqualTo((byte) 1);
        assertThat(kafkaPartitions(kafka)).containsExactly("__consumer_offsets-7", "orders-0", "orders-3");
        assertThat(kafka.transactionLastUpdateTimestampMs()).isEqualTo(1_700_000_000_500L);
        assertThat(kafka.transactionStartTimestampMs()).isEqualTo(1_700_000_000_000L);
        assertThat(kafka.clientTransactionVersion()).isEqualTo((short) 2);
        // Byte for byte what Kafka writes for the same state.
        assertThat(value).isEqualTo(MessageUtil.toVersionPrefixedBytes((short) 1, kafka));
    }

    @Test
    void versionZeroHasNoTaggedFieldsAndKafkaReadsIt() {
        byte[] value = v0.value(new TransactionRecord("tx", ongoing()));
        assertThat(ByteBuffer.wrap(value).getShort()).isEqualTo((short) 0);
        TransactionLogValue kafka = readByKafka(value);
        assertThat(kafka.producerId()).isEqualTo(4000L);
        assertThat(kafka.previousProducerId()).isEqualTo(-1L);
        assertThat(kafka.clientTransactionVersion()).isEqualTo((short) 0);
        assertThat(kafkaPartitions(kafka)).containsExactly("__consumer_offsets-7", "orders-0", "orders-3");
        assertThat(value).isEqualTo(MessageUtil.toVersionPrefixedBytes((short) 0, kafka));
    }

    @Test
    void anEmptyStateStoresNullPartitionsAsKafkaDoes() {
        TransactionMetadata empty = new TransactionMetadata(12L, 12L, -1L, (short) 0, (short) -1, 60_000,
                TransactionState.EMPTY, Set.of(), -1L, 1_700_000_000_000L, (short) 0);
        TransactionLogValue kafka = readByKafka(v1.value(new TransactionRecord("tx", empty)));
        assertThat(kafka.transactionPartitions()).isNull();
        assertThat(kafka.transactionStatus()).isEqualTo((byte) 0);
        assertThat(kafka.transactionStartTimestampMs()).isEqualTo(-1L);
    }

    @Test
    void kafkasRecordsReadBackAsTheSameState() {
        TransactionLogValue kafka = new TransactionLogValue()
                .setProducerId(77L).setPreviousProducerId(76L).setNextProducerId(78L).setProducerEpoch((short) 32767)
                .setTransactionTimeoutMs(30_000).setTransactionStatus((byte) 2)
                .setTransactionPartitions(List.of(new TransactionLogValue.PartitionsSchema().setTopic("orders")
                        .setPartitionIds(List.of(0, 3))))
                .setTransactionLastUpdateTimestampMs(20L).setTransactionStartTimestampMs(10L)
                .setClientTransactionVersion((short) 2);
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new TransactionLogKey().setTransactionalId("tx-9"));

        TransactionRecord ours = v1.decode(key, MessageUtil.toVersionPrefixedBytes((short) 1, kafka));

        assertThat(ours).isEqualTo(new TransactionRecord("tx-9", new TransactionMetadata(77L, 76L, 78L, (short) 32767,
                (short) -1, 30_000, TransactionState.PREPARE_COMMIT, Set.of(ORDERS_0, ORDERS_3), 10L, 20L, (short) 2)));
        // Version 0 (Kafka before transaction.version 1) has no tagged fields: their defaults.
        TransactionRecord old = v1.decode(key, MessageUtil.toVersionPrefixedBytes((short) 0, kafka.duplicate()
                .setPreviousProducerId(-1L).setNextProducerId(-1L).setClientTransactionVersion((short) 0)));
        assertThat(old.metadata().prevProducerId()).isEqualTo(-1L);
        assertThat(old.metadata().nextProducerId()).isEqualTo(-1L);
        assertThat(old.metadata().clientTransactionVersion()).isEqualTo((short) 0);
    }

    @Test
    void aTombstoneIsAnExpiredTransactionalId() {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new TransactionLogKey().setTransactionalId("gone"));
        assertThat(v1.value(new TransactionRecord("gone", null))).isNull();
        assertThat(v1.decode(key, null)).isEqualTo(new TransactionRecord("gone", null));
    }

    @Test
    void everyStatusHasKafkasByte() {
        assertThat(TransactionState.values()).extracting(TransactionState::id)
                .containsExactly((byte) 0, (byte) 1, (byte) 2, (byte) 3, (byte) 4, (byte) 5, (byte) 6, (byte) 7);
        for (TransactionState s : TransactionState.values()) {
            assertThat(org.apache.kafka.coordinator.transaction.TransactionState.fromId(s.id()).stateName())
                    .isEqualTo(s.kafkaName());
        }
    }
}
