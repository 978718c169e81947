package io.odradek.broker;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.HeartbeatRequest;
import org.apache.kafka.common.requests.HeartbeatResponse;
import org.apache.kafka.common.requests.JoinGroupRequest;
import org.apache.kafka.common.requests.JoinGroupResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.SyncGroupRequest;
import org.apache.kafka.common.requests.SyncGroupResponse;

/**
 * A group member speaking the classic protocol over a plain socket with Kafka's request classes, and
 * doing nothing on its own: no heartbeats unless asked. A member that "hangs".
 */
final class RawGroupMember implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private int correlation;
    String memberId = "";
    int generation = -1;

    RawGroupMember(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    /**
     * JoinGroup (v9) as a consumer subscribed to the topic, answering MEMBER_ID_REQUIRED by rejoining. Like
     * a client, it first looks the coordinator up (the broker creates __consumer_offsets on that first
     * lookup) and retries while it is not available yet.
     */
    JoinGroupResponseData join(String group, String topic, int sessionTimeoutMs, int rebalanceTimeoutMs) throws IOException {
        ByteBuffer subscription = ConsumerProtocol.serializeSubscription(new ConsumerPartitionAssignor.Subscription(List.of(topic)));
        byte[] metadata = new byte[subscription.remaining()];
        subscription.get(metadata);
        JoinGroupRequestData.JoinGroupRequestProtocolCollection protocols = new JoinGroupRequestData.JoinGroupRequestProtocolCollection();
        protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range").setMetadata(metadata));
        findCoordinator(group);
        while (true) {
            JoinGroupRequestData data = new JoinGroupRequestData().setGroupId(group).setMemberId(memberId)
                    .setSessionTimeoutMs(sessionTimeoutMs).setRebalanceTimeoutMs(rebalanceTimeoutMs)
                    .setProtocolType("consumer").setProtocols(protocols.duplicate());
            JoinGroupResponseData r = roundTrip(new JoinGroupRequest.Builder(data).build((short) 9), JoinGroupResponse.class).data();
            memberId = r.memberId();
            if (r.errorCode() != Errors.MEMBER_ID_REQUIRED.code()) {
                generation = r.generationId();
                return r;
            }
        }
    }

    /** FindCoordinator (v4) for the group until the broker names itself, as a client does before joining. */
    void findCoordinator(String group) throws IOException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            FindCoordinatorRequestData data = new FindCoordinatorRequestData()
                    .setKeyType(FindCoordinatorRequest.CoordinatorType.GROUP.id()).setCoordinatorKeys(List.of(group));
            FindCoordinatorResponseData r = roundTrip(new FindCoordinatorRequest.Builder(data).build((short) 4),
                    FindCoordinatorResponse.class).data();
            short error = r.coordinators().get(0).errorCode();
            if (error == Errors.NONE.code() || System.nanoTime() > deadline) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }
    }

    /** SyncGroup; as the leader, assigns itself the given partitions. */
    SyncGroupResponseData sync(String group, List<TopicPartition> toSelf) throws IOException {
        ByteBuffer assignment = ConsumerProtocol.serializeAssignment(new ConsumerPartitionAssignor.Assignment(toSelf));
        byte[] bytes = new byte[assignment.remaining()];
        assignment.get(bytes);
        SyncGroupRequestData data = new SyncGroupRequestData().setGroupId(group).setGenerationId(generation)
                .setMemberId(memberId).setProtocolType("consumer").setProtocolName("range")
                .setAssignments(List.of(new SyncGroupRequestData.SyncGroupRequestAssignment().setMemberId(memberId)
                        .setAssignment(bytes)));
        return roundTrip(new SyncGroupRequest.Builder(data).build((short) 5), SyncGroupResponse.class).data();
    }

    Errors heartbeat(String group) throws IOException {
        HeartbeatRequestData data = new HeartbeatRequestData().setGroupId(group).setMemberId(memberId).setGenerationId(generation);
        return Errors.forCode(roundTrip(new HeartbeatRequest.Builder(data).build((short) 4), HeartbeatResponse.class)
                .data().errorCode());
    }

    private <R extends AbstractResponse> R roundTrip(AbstractRequest request, Class<R> type) throws IOException {
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), "raw-member", ++correlation);
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
