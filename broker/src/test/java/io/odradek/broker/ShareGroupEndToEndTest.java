package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.ShareMemberDescription;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.ShareGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ShareGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.ShareGroupHeartbeatRequest;
import org.apache.kafka.common.requests.ShareGroupHeartbeatResponse;
import org.junit.jupiter.api.Test;

/**
 * Share groups (KIP-932) in the group coordinator, through a broker on a loopback port: members heartbeat with
 * Kafka's own ShareGroupHeartbeat request classes (as KafkaShareConsumer does), and Kafka 4.4's Admin lists,
 * describes, resets, deletes offsets of and deletes the group, with the share state kept by the broker's own share
 * coordinator in {@code __share_group_state}. (Fetching is the share-fetch part's.)
 */
class ShareGroupEndToEndTest extends GroupScenarios {
    @Override
    SubscribedConsumer.Protocol protocol() {
        return SubscribedConsumer.Protocol.CONSUMER; // unused: these members are share members
    }

    @Override
    Map<String, String> brokerConfig() {
        return Map.of(
                "node.id", "1",
                "listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", logDir.toString(),
                "offsets.topic.num.partitions", "3");
    }

    /** A share member over a plain socket: its own UUID member id, the epoch it was told. */
    final class ShareMember implements AutoCloseable {
        final String group;
        final String memberId = UUID.randomUUID().toString();
        int epoch;
        private final Socket socket;
        private final DataInputStream in;
        private final DataOutputStream out;
        private int correlation;

        ShareMember(String group) throws IOException {
            this.group = group;
            socket = new Socket("127.0.0.1", broker.port());
            socket.setSoTimeout(30_000);
            in = new DataInputStream(socket.getInputStream());
            out = new DataOutputStream(socket.getOutputStream());
        }

        ShareGroupHeartbeatResponseData heartbeat(int withEpoch, List<String> topics) throws Exception {
            while (true) {
                ShareGroupHeartbeatResponseData r = roundTrip(new ShareGroupHeartbeatRequest.Builder(new ShareGroupHeartbeatRequestData()
                        .setGroupId(group).setMemberId(memberId).setMemberEpoch(withEpoch).setSubscribedTopicNames(topics))
                        .build((short) 1), ShareGroupHeartbeatResponse.class).data();
                Errors error = Errors.forCode(r.errorCode());
                if (error == Errors.NOT_COORDINATOR || error == Errors.COORDINATOR_LOAD_IN_PROGRESS
                        || error == Errors.COORDINATOR_NOT_AVAILABLE) {
                    findCoordinator();
                    Thread.sleep(50);
                    continue;
                }
                if (error == Errors.NONE) {
                    epoch = r.memberEpoch();
                }
                return r;
            }
        }

        /**
         * Joins, then heartbeats until it is assigned partitions: a new group's first member on its second heartbeat
         * (once the partitions' share state is initialized), later members on joining.
         */
        Set<Integer> joinAndAwaitAssignment(String topic) throws Exception {
            ShareGroupHeartbeatResponseData r = heartbeat(0, List.of(topic));
            assertThat(r.errorCode()).isZero();
            // The share state is initialized in the background: heartbeat as a client does, again after a while.
            for (int i = 0; i < 100; i++, Thread.sleep(100), r = heartbeat(epoch, null)) {
                if (r.assignment() != null && !r.assignment().topicPartitions().isEmpty()) {
                    Set<Integer> out = new TreeSet<>();
                    r.assignment().topicPartitions().forEach(t -> out.addAll(t.partitions()));
                    return out;
                }
            }
            throw new AssertionError("never assigned");
        }

        private void findCoordinator() throws IOException {
            roundTrip(new FindCoordinatorRequest.Builder(new FindCoordinatorRequestData().setKeyType((byte) 0)
                    .setCoordinatorKeys(List.of(group))).build((short) 4), FindCoordinatorResponse.class);
        }

        private <R extends AbstractResponse> R roundTrip(AbstractRequest request, Class<R> type) throws IOException {
            RequestHeader header = new RequestHeader(request.apiKey(), request.version(), "share-member", ++correlation);
            ByteBuffer bytes = request.serializeWithHeader(header);
            out.writeInt(bytes.remaining());
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            out.flush();
            byte[] frame = new byte[in.readInt()];
            in.readFully(frame);
            return type.cast(AbstractResponse.parseResponse(ByteBuffer.wrap(frame), header));
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private ShareMember member(String group) throws IOException {
        ShareMember m = new ShareMember(group);
        closeables.add(m);
        return m;
    }

    @Test
    void threeShareMembersOnOnePartitionAreAllAssignedItAndTheAdminDescribesThem() throws Exception {
        createTopic("queue", 1);
        List<ShareMember> members = List.of(member("workers"), member("workers"), member("workers"));
        for (ShareMember m : members) {
            assertThat(m.joinAndAwaitAssignment("queue")).containsExactly(0);
        }
        ShareGroupDescription d = admin.describeShareGroups(List.of("workers")).describedGroups().get("workers")
                .get(30, TimeUnit.SECONDS);
        assertThat(d.groupState()).isEqualTo(GroupState.STABLE);
        assertThat(d.members()).extracting(ShareMemberDescription::consumerId)
                .containsExactlyInAnyOrder(members.get(0).memberId, members.get(1).memberId, members.get(2).memberId);
        assertThat(d.members()).allSatisfy(m -> assertThat(m.assignment().topicPartitions())
                .containsExactly(new TopicPartition("queue", 0)));

        List<GroupListing> listed = List.copyOf(admin.listGroups(new ListGroupsOptions().withTypes(Set.of(GroupType.SHARE)))
                .all().get(30, TimeUnit.SECONDS));
        assertThat(listed).extracting(GroupListing::groupId).containsExactly("workers");
        assertThat(listed.get(0).type()).contains(GroupType.SHARE);
        assertThat(listed.get(0).groupState()).contains(GroupState.STABLE);
    }

    @Test
    void aShareGroupIdIsNotAConsumerGroupAndAConsumerGroupIdIsNotAShareGroup() throws Exception {
        createTopic("queue", 1);
        member("shared").heartbeat(0, List.of("queue"));
        assertThatThrownBy(() -> admin.describeConsumerGroups(List.of("shared")).all().get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(GroupIdNotFoundException.class);

        admin.alterConsumerGroupOffsets("classic", Map.of(new TopicPartition("queue", 0),
                new org.apache.kafka.clients.consumer.OffsetAndMetadata(0))).all().get(30, TimeUnit.SECONDS);
        ShareGroupHeartbeatResponseData refused = member("classic").heartbeat(0, List.of("queue"));
        assertThat(Errors.forCode(refused.errorCode())).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(refused.errorMessage()).isEqualTo("Group classic is not a share group.");
    }

    @Test
    void offsetsAreResetAndDeletedOnlyWhileTheGroupIsEmptyThenTheGroupIsDeleted() throws Exception {
        createTopic("queue", 2);
        ShareMember m = member("resettable");
        m.joinAndAwaitAssignment("queue");
        Map<TopicPartition, SharePartitionOffsetInfo> offsets = admin.listShareGroupOffsets(
                Map.of("resettable", new ListShareGroupOffsetsSpec())).partitionsToOffsetInfo("resettable").get(30, TimeUnit.SECONDS);
        assertThat(offsets.keySet()).containsExactlyInAnyOrder(new TopicPartition("queue", 0), new TopicPartition("queue", 1));

        Map<TopicPartition, Long> reset = Map.of(new TopicPartition("queue", 0), 5L);
        assertThatThrownBy(() -> admin.alterShareGroupOffsets("resettable", reset).all().get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(GroupNotEmptyException.class);
        assertThatThrownBy(() -> admin.deleteShareGroups(List.of("resettable")).all().get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(GroupNotEmptyException.class);

        assertThat(m.heartbeat(-1, null).memberEpoch()).isEqualTo(-1);
        admin.alterShareGroupOffsets("resettable", reset).all().get(30, TimeUnit.SECONDS);
        Map<TopicPartition, SharePartitionOffsetInfo> afterReset = admin.listShareGroupOffsets(
                Map.of("resettable", new ListShareGroupOffsetsSpec())).partitionsToOffsetInfo("resettable").get(30, TimeUnit.SECONDS);
        assertThat(afterReset.get(new TopicPartition("queue", 0)).startOffset()).isEqualTo(5L);
        admin.deleteShareGroupOffsets("resettable", Set.of("queue")).all().get(30, TimeUnit.SECONDS);
        assertThat(admin.listShareGroupOffsets(Map.of("resettable", new ListShareGroupOffsetsSpec()))
                .partitionsToOffsetInfo("resettable").get(30, TimeUnit.SECONDS)).isEmpty();
        admin.deleteShareGroups(List.of("resettable")).all().get(30, TimeUnit.SECONDS);
        assertThatThrownBy(() -> admin.describeShareGroups(List.of("resettable")).all().get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(GroupIdNotFoundException.class);
    }

    @Test
    void shareMembersKeepTheirPlaceAcrossABrokerRestart() throws Exception {
        createTopic("durable", 1);
        String memberId;
        try (ShareMember m = new ShareMember("durable-group")) {
            m.joinAndAwaitAssignment("durable");
            memberId = m.memberId;
        }
        stopBroker();
        startBroker();
        ShareGroupDescription d = admin.describeShareGroups(List.of("durable-group")).describedGroups().get("durable-group")
                .get(30, TimeUnit.SECONDS);
        assertThat(d.members()).extracting(ShareMemberDescription::consumerId).containsExactly(memberId);
        assertThat(d.members().iterator().next().assignment().topicPartitions()).containsExactly(new TopicPartition("durable", 0));
    }
}
