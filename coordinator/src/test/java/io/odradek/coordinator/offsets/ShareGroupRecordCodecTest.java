package io.odradek.coordinator.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.coordinator.group.generated.ShareGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupTargetAssignmentMetadataValue;
import org.junit.jupiter.api.Test;

/** Share group records of {@code __consumer_offsets} (key types 10-15), checked against Kafka 4.4's own serde both ways. */
class ShareGroupRecordCodecTest {
    private static final UUID ORDERS = UUID.fromString("6f1c2a9e-1d2b-4c3d-8e4f-5a6b7c8d9e0f");
    private static final UUID AUDIT = UUID.fromString("0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");
    private final GroupCoordinatorRecordSerde kafka = new GroupCoordinatorRecordSerde();

    private CoordinatorRecord readByKafka(OffsetsRecord record) {
        byte[] value = OffsetsRecordCodec.value(record);
        return kafka.deserialize(ByteBuffer.wrap(OffsetsRecordCodec.key(record)), value == null ? null : ByteBuffer.wrap(value));
    }

    private OffsetsRecord readByUs(CoordinatorRecord record) {
        byte[] value = kafka.serializeValue(record);
        return OffsetsRecordCodec.decode(kafka.serializeKey(record), value);
    }

    private static Uuid kafkaId(UUID id) {
        return new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    @Test
    void memberSubscriptionReadsTheSameInKafka() {
        OffsetsRecord ours = new ShareGroupRecord.MemberMetadata("g", "m1",
                new ShareGroupRecord.MemberSubscription(null, "client-1", "/127.0.0.1", List.of("audit", "orders")));
        CoordinatorRecord theirs = readByKafka(ours);
        assertThat(theirs.key()).isEqualTo(new ShareGroupMemberMetadataKey().setGroupId("g").setMemberId("m1"));
        assertThat(theirs.value().message()).isEqualTo(new ShareGroupMemberMetadataValue().setRackId(null)
                .setClientId("client-1").setClientHost("/127.0.0.1").setSubscribedTopicNames(List.of("audit", "orders")));
        assertThat(readByUs(theirs)).isEqualTo(ours);

        OffsetsRecord tombstone = new ShareGroupRecord.MemberMetadata("g", "m1", null);
        assertThat(readByKafka(tombstone).value()).isNull();
        assertThat(readByUs(readByKafka(tombstone))).isEqualTo(tombstone);
    }

    @Test
    void groupEpochReadsTheSameInKafka() {
        OffsetsRecord ours = new ShareGroupRecord.GroupMetadata("g", new ShareGroupRecord.GroupEpoch(4, -77L));
        CoordinatorRecord theirs = readByKafka(ours);
        assertThat(theirs.key()).isEqualTo(new ShareGroupMetadataKey().setGroupId("g"));
        assertThat(theirs.value().message()).isEqualTo(new ShareGroupMetadataValue().setEpoch(4).setMetadataHash(-77L));
        assertThat(readByUs(theirs)).isEqualTo(ours);
        assertThat(readByUs(readByKafka(new ShareGroupRecord.GroupMetadata("g", null))))
                .isEqualTo(new ShareGroupRecord.GroupMetadata("g", null));
    }

    @Test
    void targetAssignmentReadsTheSameInKafka() {
        OffsetsRecord epoch = new ShareGroupRecord.TargetAssignmentMetadata("g", 3);
        assertThat(readByKafka(epoch).key()).isEqualTo(new ShareGroupTargetAssignmentMetadataKey().setGroupId("g"));
        assertThat(readByKafka(epoch).value().message()).isEqualTo(new ShareGroupTargetAssignmentMetadataValue().setAssignmentEpoch(3));
        assertThat(readByUs(readByKafka(epoch))).isEqualTo(epoch);

        OffsetsRecord member = new ShareGroupRecord.TargetAssignmentMember("g", "m1", Map.of(ORDERS, Set.of(2, 0)));
        CoordinatorRecord theirs = readByKafka(member);
        assertThat(theirs.key()).isEqualTo(new ShareGroupTargetAssignmentMemberKey().setGroupId("g").setMemberId("m1"));
        assertThat(theirs.value().message()).isEqualTo(new ShareGroupTargetAssignmentMemberValue().setTopicPartitions(List.of(
                new ShareGroupTargetAssignmentMemberValue.TopicPartition().setTopicId(kafkaId(ORDERS)).setPartitions(List.of(0, 2)))));
        assertThat(readByUs(theirs)).isEqualTo(member);
    }

    @Test
    void currentAssignmentReadsTheSameInKafka() {
        OffsetsRecord ours = new ShareGroupRecord.CurrentAssignment("g", "m1",
                new ShareGroupRecord.MemberAssignment(5, 4, (byte) 0, Map.of(ORDERS, Set.of(1))));
        CoordinatorRecord theirs = readByKafka(ours);
        assertThat(theirs.key()).isEqualTo(new ShareGroupCurrentMemberAssignmentKey().setGroupId("g").setMemberId("m1"));
        assertThat(theirs.value().message()).isEqualTo(new ShareGroupCurrentMemberAssignmentValue().setMemberEpoch(5)
                .setPreviousMemberEpoch(4).setState((byte) 0).setAssignedPartitions(List.of(
                        new ShareGroupCurrentMemberAssignmentValue.TopicPartitions().setTopicId(kafkaId(ORDERS)).setPartitions(List.of(1)))));
        assertThat(readByUs(theirs)).isEqualTo(ours);
    }

    @Test
    void statePartitionMetadataReadsTheSameInKafka() {
        OffsetsRecord ours = new ShareGroupRecord.StatePartitionMetadata("g", new ShareGroupRecord.StatePartitions(
                Map.of(AUDIT, new ShareGroupRecord.TopicPartitions("audit", Set.of(0))),
                Map.of(ORDERS, new ShareGroupRecord.TopicPartitions("orders", Set.of(0, 1, 2))),
                Map.of(UUID.fromString("00000000-0000-0000-0000-00000000000a"), "gone")));
        CoordinatorRecord theirs = readByKafka(ours);
        assertThat(theirs.key()).isEqualTo(new ShareGroupStatePartitionMetadataKey().setGroupId("g"));
        assertThat(theirs.value().message()).isEqualTo(new ShareGroupStatePartitionMetadataValue()
                .setInitializingTopics(List.of(new ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo()
                        .setTopicId(kafkaId(AUDIT)).setTopicName("audit").setPartitions(List.of(0))))
                .setInitializedTopics(List.of(new ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo()
                        .setTopicId(kafkaId(ORDERS)).setTopicName("orders").setPartitions(List.of(0, 1, 2))))
                .setDeletingTopics(List.of(new ShareGroupStatePartitionMetadataValue.TopicInfo()
                        .setTopicId(new Uuid(0, 10)).setTopicName("gone"))));
        assertThat(readByUs(theirs)).isEqualTo(ours);
    }
}
