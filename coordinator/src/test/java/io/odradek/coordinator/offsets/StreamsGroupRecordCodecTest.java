package io.odradek.coordinator.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.coordinator.group.generated.StreamsGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMetadataValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTopologyKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTopologyValue;
import org.junit.jupiter.api.Test;

/** Streams group records (KIP-1071) of {@code __consumer_offsets}, checked against Kafka 4.4's own record serde both ways. */
class StreamsGroupRecordCodecTest {
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
        OffsetsRecord ours = new StreamsGroupRecord.Metadata("app", new StreamsGroupRecord.GroupEpoch(7, 1234567L, 3,
                Map.of("num.standby.replicas", "1")));
        CoordinatorRecord theirs = readByKafka(ours);
        assertThat(theirs.key()).isEqualTo(new StreamsGroupMetadataKey().setGroupId("app"));
        assertThat(theirs.value().message()).isEqualTo(new StreamsGroupMetadataValue().setEpoch(7).setMetadataHash(1234567L)
                .setValidatedTopologyEpoch(3).setLastAssignmentConfigs(List.of(
                        new StreamsGroupMetadataValue.LastAssignmentConfig().setKey("num.standby.replicas").setValue("1"))));
        assertThat(readByUs(theirs)).isEqualTo(ours);

        OffsetsRecord tombstone = new StreamsGroupRecord.Metadata("app", null);
        assertThat(readByKafka(tombstone).value()).isNull();
        assertThat(readByUs(CoordinatorRecord.tombstone(new StreamsGroupMetadataKey().setGroupId("app")))).isEqualTo(tombstone);
    }

    @Test
    void memberRecordsReadTheSameInKafka() {
        OffsetsRecord ours = new StreamsGroupRecord.MemberMetadata("app", "m1", new StreamsGroupRecord.Member("i-1", "rack-a",
                "client-1", "/127.0.0.1", 30000, 2, "process-1", new StreamsGroupRecord.Endpoint("host-1", 8080),
                Map.of("zone", "eu-1")));
        CoordinatorRecord theirs = readByKafka(ours);
        assertThat(theirs.key()).isEqualTo(new StreamsGroupMemberMetadataKey().setGroupId("app").setMemberId("m1"));
        assertThat(theirs.value().message()).isEqualTo(new StreamsGroupMemberMetadataValue().setInstanceId("i-1")
                .setRackId("rack-a").setClientId("client-1").setClientHost("/127.0.0.1").setRebalanceTimeoutMs(30000)
                .setTopologyEpoch(2).setProcessId("process-1")
                .setUserEndpoint(new StreamsGroupMemberMetadataValue.Endpoint().setHost("host-1").setPort(8080))
                .setClientTags(List.of(new StreamsGroupMemberMetadataValue.KeyValue().setKey("zone").setValue("eu-1"))));
        assertThat(readByUs(theirs)).isEqualTo(ours);

        OffsetsRecord noEndpoint = new StreamsGroupRecord.MemberMetadata("app", "m2", new StreamsGroupRecord.Member(null, null,
                "c", "/h", -1, 1, "p", null, Map.of()));
        assertThat(readByUs(readByKafka(noEndpoint))).isEqualTo(noEndpoint);
    }

    @Test
    void assignmentRecordsReadTheSameInKafka() {
        OffsetsRecord epoch = new StreamsGroupRecord.TargetAssignmentMetadata("app", 5);
        assertThat(readByKafka(epoch).key()).isEqualTo(new StreamsGroupTargetAssignmentMetadataKey().setGroupId("app"));
        assertThat(readByKafka(epoch).value().message()).isEqualTo(new StreamsGroupTargetAssignmentMetadataValue().setAssignmentEpoch(5));
        assertThat(readByUs(readByKafka(epoch))).isEqualTo(epoch);

        StreamsGroupRecord.Tasks tasks = new StreamsGroupRecord.Tasks(Map.of("0", Set.of(0, 2), "1", Set.of(1)),
                Map.of("1", Set.of(0)), Map.of());
        OffsetsRecord target = new StreamsGroupRecord.TargetAssignmentMember("app", "m1", tasks);
        CoordinatorRecord theirs = readByKafka(target);
        assertThat(theirs.key()).isEqualTo(new StreamsGroupTargetAssignmentMemberKey().setGroupId("app").setMemberId("m1"));
        assertThat(theirs.value().message()).isEqualTo(new StreamsGroupTargetAssignmentMemberValue()
                .setActiveTasks(List.of(
                        new StreamsGroupTargetAssignmentMemberValue.TaskIds().setSubtopologyId("0").setPartitions(List.of(0, 2)),
                        new StreamsGroupTargetAssignmentMemberValue.TaskIds().setSubtopologyId("1").setPartitions(List.of(1))))
                .setStandbyTasks(List.of(
                        new StreamsGroupTargetAssignmentMemberValue.TaskIds().setSubtopologyId("1").setPartitions(List.of(0))))
                .setWarmupTasks(List.of()));
        assertThat(readByUs(theirs)).isEqualTo(target);

        OffsetsRecord current = new StreamsGroupRecord.CurrentAssignment("app", "m1", new StreamsGroupRecord.MemberAssignment(
                4, 3, (byte) 1, tasks, new StreamsGroupRecord.Tasks(Map.of("0", Set.of(3)), Map.of(), Map.of())));
        theirs = readByKafka(current);
        assertThat(theirs.key()).isEqualTo(new StreamsGroupCurrentMemberAssignmentKey().setGroupId("app").setMemberId("m1"));
        assertThat(theirs.value().message()).isEqualTo(new StreamsGroupCurrentMemberAssignmentValue()
                .setMemberEpoch(4).setPreviousMemberEpoch(3).setState((byte) 1)
                .setActiveTasks(List.of(
                        new StreamsGroupCurrentMemberAssignmentValue.TaskIds().setSubtopologyId("0").setPartitions(List.of(0, 2)),
                        new StreamsGroupCurrentMemberAssignmentValue.TaskIds().setSubtopologyId("1").setPartitions(List.of(1))))
                .setStandbyTasks(List.of(
                        new StreamsGroupCurrentMemberAssignmentValue.TaskIds().setSubtopologyId("1").setPartitions(List.of(0))))
                .setWarmupTasks(List.of())
                .setActiveTasksPendingRevocation(List.of(
                        new StreamsGroupCurrentMemberAssignmentValue.TaskIds().setSubtopologyId("0").setPartitions(List.of(3))))
                .setStandbyTasksPendingRevocation(List.of())
                .setWarmupTasksPendingRevocation(List.of()));
        assertThat(readByUs(theirs)).isEqualTo(current);
        assertThat(readByUs(readByKafka(new StreamsGroupRecord.CurrentAssignment("app", "m1", null))))
                .isEqualTo(new StreamsGroupRecord.CurrentAssignment("app", "m1", null));
    }

    @Test
    void topologyRecordsReadTheSameInKafka() {
        StreamsGroupRecord.StreamsTopology topology = new StreamsGroupRecord.StreamsTopology(2, List.of(
                new StreamsGroupRecord.Subtopology("0", List.of("lines", "more"), List.of("in-.*"), List.of(),
                        List.of("app-repartition"), List.of(),
                        List.of(new StreamsGroupRecord.CopartitionGroup(List.of((short) 0, (short) 1), List.of(), List.of()))),
                new StreamsGroupRecord.Subtopology("1", List.of("app-repartition"), List.of(),
                        List.of(new StreamsGroupRecord.TopicInfo("app-changelog", 0, (short) 3, Map.of("cleanup.policy", "compact"))),
                        List.of(), List.of(new StreamsGroupRecord.TopicInfo("app-repartition", 4, (short) 0, Map.of())), List.of())));
        OffsetsRecord ours = new StreamsGroupRecord.Topology("app", topology);
        CoordinatorRecord theirs = readByKafka(ours);
        assertThat(theirs.key()).isEqualTo(new StreamsGroupTopologyKey().setGroupId("app"));
        assertThat(theirs.value().message()).isEqualTo(new StreamsGroupTopologyValue().setEpoch(2).setSubtopologies(List.of(
                new StreamsGroupTopologyValue.Subtopology().setSubtopologyId("0").setSourceTopics(List.of("lines", "more"))
                        .setSourceTopicRegex(List.of("in-.*")).setStateChangelogTopics(List.of())
                        .setRepartitionSinkTopics(List.of("app-repartition")).setRepartitionSourceTopics(List.of())
                        .setCopartitionGroups(List.of(new StreamsGroupTopologyValue.CopartitionGroup()
                                .setSourceTopics(List.of((short) 0, (short) 1)).setSourceTopicRegex(List.of())
                                .setRepartitionSourceTopics(List.of()))),
                new StreamsGroupTopologyValue.Subtopology().setSubtopologyId("1").setSourceTopics(List.of("app-repartition"))
                        .setSourceTopicRegex(List.of())
                        .setStateChangelogTopics(List.of(new StreamsGroupTopologyValue.TopicInfo().setName("app-changelog")
                                .setPartitions(0).setReplicationFactor((short) 3).setTopicConfigs(List.of(
                                        new StreamsGroupTopologyValue.TopicConfig().setKey("cleanup.policy").setValue("compact")))))
                        .setRepartitionSinkTopics(List.of())
                        .setRepartitionSourceTopics(List.of(new StreamsGroupTopologyValue.TopicInfo().setName("app-repartition")
                                .setPartitions(4).setReplicationFactor((short) 0).setTopicConfigs(List.of())))
                        .setCopartitionGroups(List.of()))));
        assertThat(readByUs(theirs)).isEqualTo(ours);
        assertThat(readByKafka(new StreamsGroupRecord.Topology("app", null)).value()).isNull();
    }
}
