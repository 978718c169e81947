package io.odradek.coordinator.share.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.StateBatch;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotKey;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotValue;
import org.apache.kafka.coordinator.share.generated.ShareUpdateKey;
import org.apache.kafka.coordinator.share.generated.ShareUpdateValue;
import org.junit.jupiter.api.Test;

/** {@code __share_group_state} records, checked against Kafka 4.4's own generated record classes both ways. */
class ShareStateRecordCodecTest {
    private static final UUID TOPIC = UUID.fromString("5f1c8a2e-3b7d-4c11-9a6e-0d2f4b8c7e91");
    private static final SharePartitionKey KEY = new SharePartitionKey("orders-share", TOPIC, 7);
    private static final List<StateBatch> BATCHES = List.of(
            new StateBatch(100, 109, StateBatch.ACKNOWLEDGED, (short) 1),
            new StateBatch(110, 110, StateBatch.ARCHIVED, (short) 5),
            new StateBatch(111, 140, StateBatch.AVAILABLE, (short) 2));

    private final ShareStateRecordCodec codec = new ShareStateRecordCodec();

    private static Uuid kafkaUuid(UUID id) {
        return new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    private static ShareGroupOffset snapshotState(int deliveryCompleteCount) {
        return new ShareGroupOffset(3, 2, 9, 100, deliveryCompleteCount, 1_700_000_000_000L, 1_700_000_000_500L, BATCHES);
    }

    private static ShareSnapshotValue kafkaSnapshot(int deliveryCompleteCount) {
        ShareSnapshotValue v = new ShareSnapshotValue().setSnapshotEpoch(3).setStateEpoch(2).setLeaderEpoch(9)
                .setStartOffset(100).setDeliveryCompleteCount(deliveryCompleteCount)
                .setCreateTimestamp(1_700_000_000_000L).setWriteTimestamp(1_700_000_000_500L);
        for (StateBatch b : BATCHES) {
            v.stateBatches().add(new ShareSnapshotValue.StateBatch().setFirstOffset(b.firstOffset())
                    .setLastOffset(b.lastOffset()).setDeliveryState(b.deliveryState()).setDeliveryCount(b.deliveryCount()));
        }
        return v;
    }

    @Test
    void snapshotKeyIsRecordTypeZeroThenGroupTopicAndPartitionAsKafkaWritesIt() {
        byte[] ours = codec.key(ShareStateRecord.snapshot(KEY, snapshotState(-1)));
        byte[] kafka = MessageUtil.toCoordinatorTypePrefixedBytes(new ShareSnapshotKey().setGroupId("orders-share")
                .setTopicId(kafkaUuid(TOPIC)).setPartition(7));
        assertThat(ours).isEqualTo(kafka);
        assertThat(ByteBuffer.wrap(ours).getShort()).isEqualTo((short) 0);
    }

    @Test
    void updateKeyIsRecordTypeOneAsKafkaWritesIt() {
        byte[] ours = codec.key(ShareStateRecord.update(KEY, snapshotState(-1)));
        byte[] kafka = MessageUtil.toCoordinatorTypePrefixedBytes(new ShareUpdateKey().setGroupId("orders-share")
                .setTopicId(kafkaUuid(TOPIC)).setPartition(7));
        assertThat(ours).isEqualTo(kafka);
        assertThat(ByteBuffer.wrap(ours).getShort()).isEqualTo((short) 1);
    }

    @Test
    void snapshotValueIsByteForByteKafkasWithTheDeliveryCompleteCountTagged() {
        byte[] ours = codec.value(ShareStateRecord.snapshot(KEY, snapshotState(17)));
        assertThat(ours).isEqualTo(MessageUtil.toVersionPrefixedBytes((short) 0, kafkaSnapshot(17)));

        ByteBuffer buf = ByteBuffer.wrap(ours);
        assertThat(buf.getShort()).isEqualTo((short) 0);
        ShareSnapshotValue kafka = new ShareSnapshotValue(new ByteBufferAccessor(buf), (short) 0);
        assertThat(kafka.deliveryCompleteCount()).isEqualTo(17);
        assertThat(kafka.stateBatches()).extracting(ShareSnapshotValue.StateBatch::lastOffset).containsExactly(109L, 110L, 140L);
    }

    @Test
    void anUnknownDeliveryCompleteCountIsLeftOutAsKafkaDoes() {
        byte[] ours = codec.value(ShareStateRecord.snapshot(KEY, snapshotState(-1)));
        byte[] kafka = MessageUtil.toVersionPrefixedBytes((short) 0, kafkaSnapshot(-1));
        assertThat(ours).isEqualTo(kafka);
        assertThat(ours.length).isLessThan(codec.value(ShareStateRecord.snapshot(KEY, snapshotState(17))).length);
    }

    @Test
    void kafkasSnapshotRecordReadsBackWhole() {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new ShareSnapshotKey().setGroupId("orders-share")
                .setTopicId(kafkaUuid(TOPIC)).setPartition(7));
        ShareStateRecord record = codec.decode(key, MessageUtil.toVersionPrefixedBytes((short) 0, kafkaSnapshot(4)));
        assertThat(record).isEqualTo(ShareStateRecord.snapshot(KEY, snapshotState(4)));
    }

    @Test
    void kafkasUpdateRecordReadsBackAndOursIsTheSameBytes() {
        ShareUpdateValue kafka = new ShareUpdateValue().setSnapshotEpoch(3).setLeaderEpoch(-1).setStartOffset(120)
                .setDeliveryCompleteCount(6);
        kafka.stateBatches().add(new ShareUpdateValue.StateBatch().setFirstOffset(120).setLastOffset(125)
                .setDeliveryState(StateBatch.ACKNOWLEDGED).setDeliveryCount((short) 1));
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new ShareUpdateKey().setGroupId("orders-share")
                .setTopicId(kafkaUuid(TOPIC)).setPartition(7));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 0, kafka);

        ShareStateRecord record = codec.decode(key, value);
        assertThat(record.type()).isEqualTo(ShareStateRecord.Type.UPDATE);
        assertThat(record.key()).isEqualTo(KEY);
        assertThat(record.value().snapshotEpoch()).isEqualTo(3);
        assertThat(record.value().leaderEpoch()).isEqualTo(-1);
        assertThat(record.value().startOffset()).isEqualTo(120);
        assertThat(record.value().deliveryCompleteCount()).isEqualTo(6);
        assertThat(record.value().batches()).containsExactly(new StateBatch(120, 125, StateBatch.ACKNOWLEDGED, (short) 1));
        assertThat(codec.value(record)).isEqualTo(value);
        assertThat(codec.key(record)).isEqualTo(key);
    }

    @Test
    void aTombstoneIsASnapshotKeyWithoutAValue() {
        ShareStateRecord tombstone = ShareStateRecord.tombstone(KEY);
        assertThat(codec.value(tombstone)).isNull();
        assertThat(codec.decode(codec.key(tombstone), null)).isEqualTo(tombstone);
    }

    @Test
    void keysOfOtherRecordTypesAreSkippedAndGarbageIsRefused() {
        byte[] otherType = {0, 5, 0, 1, 'x'};
        assertThat(codec.decode(otherType, new byte[] {0, 0})).isNull();
        byte[] key = codec.key(ShareStateRecord.tombstone(KEY));
        assertThatThrownBy(() -> codec.decode(key, new byte[] {0, 0, 1})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> codec.decode(key, new byte[] {0, 9, 0, 0, 0, 0}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version 9");
    }
}
