package io.odradek.coordinator.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataValue;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.junit.jupiter.api.Test;

/** KIP-848 records of {@code __consumer_offsets}, checked against Kafka 4.4's own record serde both ways. */
class ConsumerGroupRecordCodecTest {
    private static final UUID ORDERS = UUID.fromString("6f1c2a9e-1d2b-4c3d-8e4f-5a6b7c8d9e0f");
    private final GroupCoordinatorRecordSerde kafka = new GroupCoordinatorRecordSerde();

    private CoordinatorRecord readByKafka(OffsetsRecord record) {
        byte[] value = OffsetsRecordCodec.value(record);
        return kafka.deserialize(ByteBuffer.wrap(OffsetsRecordCodec.key(record)), value == null ? null : ByteBuffer.wrap(value));
    }

    private OffsetsRecord readByUs(CoordinatorRecord record) {
        byte[] value = kafka.serializeValue(record);
        return OffsetsRecordCodec.decode(kafka.serializeKey(record), value);
    }

    @Test
    void groupEpochRecordsReadTheSameInKafka() {
        OffsetsRecord ours = new OffsetsRecord.ConsumerGroupMetadata("g", new ConsumerGroupEpoch(7, 1234567L));
        CoordinatorRecord theirs = readByKafka(ours);
        assertThat(theirs.key()).isEqualTo(new ConsumerGroupMetadataKey().setGroupId("g"));
        assertThat(theirs.value().message()).isEqualTo(new ConsumerGroupMetadataValue().setEpoch(7).setMetadataHash(1234567L));
        assertThat(readByUs(theirs)).isEqualTo(ours);

        OffsetsRecord tombstone = new OffsetsRecord.ConsumerGroupMetadata("g", null);
        assertThat(readByKafka(tombstone).value()).isNull();
        assertThat(readByUs(CoordinatorRecord.tombstone(new ConsumerGroupMetadataKey().setGroupId("g")))).isEqualTo(tombstone);
    }

    @Test
    void memberSubscriptionRecordsReadTheSameInKafka() {
        OffsetsRecord ours = new OffsetsRecord.ConsumerMemberMetadata("g", "m1", new ConsumerMemberSubscription(
                "instance-1", null, "client-1", "/127.0.0.1", List.of("audit", "orders"), "ord.*", 30000, "range"));
        CoordinatorRecord theirs = readByKafka(ours);
        assertThat(theirs.key()).isEqualTo(new ConsumerGroupMemberMetadataKey().setGroupId("g").setMemberId("m1"));
        assertThat(theirs.value().message()).isEqualTo(new ConsumerGroupMemberMetadataValue()
                .setInstanceId("instance-1").setRackId(null).setClientId("client-1").setClientHost("/127.0.0.1")
                .setSubscribedTopicNames(List.of("audit", "orders")).setSubscribedTopicRegex("ord.*")
                .setRebalanceTimeoutMs(30000).setServerAssignor("range"));
        assertThat(readByUs(theirs)).isEqualTo(ours);
    }

    @Test
    void targetAssignmentRecordsReadTheSameInKafka() {
        OffsetsRecord epoch = new OffsetsRecord.ConsumerTargetAssignmentMetadata("g", 5);
        assertThat(readByKafka(epoch).key()).isEqualTo(new ConsumerGroupTargetAssignmentMetadataKey().setGroupId("g"));
        assertThat(readByKafka(epoch).value().message())
                .isEqualTo(new ConsumerGroupTargetAssignmentMetadataValue().setAssignmentEpoch(5));
        assertThat(readByUs(readByKafka(epoch))).isEqualTo(epoch);

        OffsetsRecord member = new OffsetsRecord.ConsumerTargetAssignmentMember("g", "m1", Map.of(ORDERS, Set.of(0, 2, 4)));
        CoordinatorRecord theirs = readByKafka(member);
        assertThat(theirs.key()).isEqualTo(new ConsumerGroupTargetAssignmentMemberKey().setGroupId("g").setMemberId("m1"));
        assertThat(theirs.value().message()).isEqualTo(new ConsumerGroupTargetAssignmentMemberValue()
                .setTopicPartitions(List.of(new ConsumerGroupTargetAssignmentMemberValue.TopicPartition()
                        .setTopicId(Uuid.fromString(base64(ORDERS))).setPartitions(List.of(0, 2, 4)))));
        assertThat(readByUs(theirs)).isEqualTo(member);
    }

    @Test
    void currentAssignmentRecordsCarryTheAssignmentEpochsKafkaReads() {
        OffsetsRecord ours = new OffsetsRecord.ConsumerCurrentAssignment("g", "m1", new ConsumerMemberAssignment(
                9, 8, (byte) 1, Map.of(ORDERS, Map.of(0, 3, 1, 9)), Map.of(ORDERS, Map.of(5, 3))));
        CoordinatorRecord theirs = readByKafka(ours);
        assertThat(theirs.key()).isEqualTo(new ConsumerGroupCurrentMemberAssignmentKey().setGroupId("g").setMemberId("m1"));
        Uuid orders = Uuid.fromString(base64(ORDERS));
        assertThat(theirs.value().message()).isEqualTo(new ConsumerGroupCurrentMemberAssignmentValue()
                .setMemberEpoch(9).setPreviousMemberEpoch(8).setState((byte) 1)
                .setAssignedPartitions(List.of(new ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions()
                        .setTopicId(orders).setPartitions(List.of(0, 1)).setAssignmentEpochs(List.of(3, 9))))
                .setPartitionsPendingRevocation(List.of(new ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions()
                        .setTopicId(orders).setPartitions(List.of(5)).setAssignmentEpochs(List.of(3)))));
        assertThat(readByUs(theirs)).isEqualTo(ours);
    }

    @Test
    void aCurrentAssignmentWithoutAssignmentEpochsTakesTheMemberEpoch() {
        CoordinatorRecord older = CoordinatorRecord.record(
                new ConsumerGroupCurrentMemberAssignmentKey().setGroupId("g").setMemberId("m1"),
                new ApiMessageAndVersion(new ConsumerGroupCurrentMemberAssignmentValue().setMemberEpoch(4)
                        .setPreviousMemberEpoch(3).setState((byte) 0)
                        .setAssignedPartitions(List.of(new ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions()
                                .setTopicId(Uuid.fromString(base64(ORDERS))).setPartitions(List.of(2))))
                        .setPartitionsPendingRevocation(List.of()), (short) 0));
        assertThat(readByUs(older)).isEqualTo(new OffsetsRecord.ConsumerCurrentAssignment("g", "m1",
                new ConsumerMemberAssignment(4, 3, (byte) 0, Map.of(ORDERS, Map.of(2, 4)), Map.of())));
    }

    private static String base64(UUID id) {
        ByteBuffer b = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
    }
}
