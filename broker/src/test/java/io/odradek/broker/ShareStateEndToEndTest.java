package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.InitializeShareGroupStateRequestData;
import org.apache.kafka.common.message.ReadShareGroupStateRequestData;
import org.apache.kafka.common.message.ReadShareGroupStateResponseData;
import org.apache.kafka.common.message.ReadShareGroupStateSummaryRequestData;
import org.apache.kafka.common.message.ReadShareGroupStateSummaryResponseData;
import org.apache.kafka.common.message.WriteShareGroupStateRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.InitializeShareGroupStateRequest;
import org.apache.kafka.common.requests.InitializeShareGroupStateResponse;
import org.apache.kafka.common.requests.ReadShareGroupStateRequest;
import org.apache.kafka.common.requests.ReadShareGroupStateResponse;
import org.apache.kafka.common.requests.ReadShareGroupStateSummaryRequest;
import org.apache.kafka.common.requests.ReadShareGroupStateSummaryResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.WriteShareGroupStateRequest;
import org.apache.kafka.common.requests.WriteShareGroupStateResponse;
import org.apache.kafka.server.share.SharePartitionKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The share coordinator of a running broker, spoken to as another Kafka broker would (Kafka 4.4's own request
 * classes over a socket): FindCoordinator for a share key creates {@code __share_group_state}, the state written
 * reads back, and after a restart it is read back from the log.
 */
class ShareStateEndToEndTest {
    @TempDir
    Path logDir;
    Broker broker;

    private Broker start() throws Exception {
        return Broker.start(BrokerConfig.of(Map.of("node.id", "1", "listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", logDir.toString(), "share.coordinator.state.topic.num.partitions", "4")));
    }

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    /** Kafka's request classes over one socket. */
    private static final class Raw implements AutoCloseable {
        private final Socket socket;
        private final DataInputStream in;
        private final DataOutputStream out;
        private int correlation;

        Raw(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(30_000);
            in = new DataInputStream(socket.getInputStream());
            out = new DataOutputStream(socket.getOutputStream());
        }

        <R extends AbstractResponse> R call(AbstractRequest request, Class<R> type) throws IOException {
            RequestHeader header = new RequestHeader(request.apiKey(), request.version(), "other-broker", ++correlation);
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

    private static FindCoordinatorResponseData.Coordinator findShareCoordinator(Raw raw, String key) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            FindCoordinatorResponse response = raw.call(new FindCoordinatorRequest.Builder(new FindCoordinatorRequestData()
                    .setKeyType((byte) 2).setCoordinatorKeys(List.of(key))).build((short) 6), FindCoordinatorResponse.class);
            FindCoordinatorResponseData.Coordinator c = response.data().coordinators().get(0);
            if (c.errorCode() != Errors.COORDINATOR_NOT_AVAILABLE.code() || System.nanoTime() > deadline) {
                return c;
            }
            Thread.sleep(20);
        }
    }

    private static ReadShareGroupStateResponseData.PartitionResult read(Raw raw, Uuid topicId) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            ReadShareGroupStateResponse response = raw.call(new ReadShareGroupStateRequest.Builder(new ReadShareGroupStateRequestData()
                    .setGroupId("workers").setTopics(List.of(new ReadShareGroupStateRequestData.ReadStateData().setTopicId(topicId)
                            .setPartitions(List.of(new ReadShareGroupStateRequestData.PartitionData().setPartition(0).setLeaderEpoch(0))))))
                    .build((short) 0), ReadShareGroupStateResponse.class);
            ReadShareGroupStateResponseData.PartitionResult p = response.data().results().get(0).partitions().get(0);
            if (p.errorCode() != Errors.COORDINATOR_LOAD_IN_PROGRESS.code() || System.nanoTime() > deadline) {
                return p;
            }
            Thread.sleep(20);
        }
    }

    @Test
    void aShareCoordinatorKeepsStateThatAnotherBrokerWritesAcrossARestart() throws Exception {
        broker = start();
        Uuid topicId;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.port()))) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            topicId = admin.describeTopics(List.of("orders")).allTopicNames().get(30, TimeUnit.SECONDS).get("orders").topicId();
        }
        String key = SharePartitionKey.getInstance("workers", topicId, 0).asCoordinatorKey();

        try (Raw raw = new Raw(broker.port())) {
            FindCoordinatorResponseData.Coordinator coordinator = findShareCoordinator(raw, key);
            assertThat(coordinator.errorCode()).isZero();
            assertThat(coordinator.nodeId()).isEqualTo(1);
            assertThat(coordinator.port()).isEqualTo(broker.port());

            InitializeShareGroupStateResponse initialized = raw.call(new InitializeShareGroupStateRequest.Builder(
                    new InitializeShareGroupStateRequestData().setGroupId("workers").setTopics(List.of(
                            new InitializeShareGroupStateRequestData.InitializeStateData().setTopicId(topicId).setPartitions(List.of(
                                    new InitializeShareGroupStateRequestData.PartitionData().setPartition(0).setStateEpoch(1)
                                            .setStartOffset(0))))))
                    .build((short) 0), InitializeShareGroupStateResponse.class);
            assertThat(initialized.data().results().get(0).partitions().get(0).errorCode()).isZero();

            WriteShareGroupStateResponse written = raw.call(new WriteShareGroupStateRequest.Builder(new WriteShareGroupStateRequestData()
                    .setGroupId("workers").setTopics(List.of(new WriteShareGroupStateRequestData.WriteStateData().setTopicId(topicId)
                            .setPartitions(List.of(new WriteShareGroupStateRequestData.PartitionData().setPartition(0)
                                    .setStateEpoch(1).setLeaderEpoch(0).setStartOffset(3).setDeliveryCompleteCount(2)
                                    .setStateBatches(List.of(
                                            new WriteShareGroupStateRequestData.StateBatch().setFirstOffset(3).setLastOffset(4)
                                                    .setDeliveryState((byte) 2).setDeliveryCount((short) 1),
                                            new WriteShareGroupStateRequestData.StateBatch().setFirstOffset(5).setLastOffset(5)
                                                    .setDeliveryState((byte) 4).setDeliveryCount((short) 5))))))))
                    .build((short) 1), WriteShareGroupStateResponse.class);
            assertThat(written.data().results().get(0).partitions().get(0).errorCode()).isZero();
        }

        broker.close();
        broker = start();

        try (Raw raw = new Raw(broker.port())) {
            assertThat(findShareCoordinator(raw, key).errorCode()).isZero();
            ReadShareGroupStateResponseData.PartitionResult state = read(raw, topicId);
            assertThat(state.errorCode()).isZero();
            assertThat(state.stateEpoch()).isEqualTo(1);
            assertThat(state.startOffset()).isEqualTo(3);
            assertThat(state.stateBatches()).extracting(b -> b.firstOffset() + "-" + b.lastOffset() + " " + b.deliveryState()
                    + "/" + b.deliveryCount()).containsExactly("3-4 2/1", "5-5 4/5");

            ReadShareGroupStateSummaryResponse summary = raw.call(new ReadShareGroupStateSummaryRequest.Builder(
                    new ReadShareGroupStateSummaryRequestData().setGroupId("workers").setTopics(List.of(
                            new ReadShareGroupStateSummaryRequestData.ReadStateSummaryData().setTopicId(topicId).setPartitions(List.of(
                                    new ReadShareGroupStateSummaryRequestData.PartitionData().setPartition(0).setLeaderEpoch(0))))))
                    .build((short) 1), ReadShareGroupStateSummaryResponse.class);
            ReadShareGroupStateSummaryResponseData.PartitionResult s = summary.data().results().get(0).partitions().get(0);
            assertThat(s.errorCode()).isZero();
            assertThat(s.startOffset()).isEqualTo(3);
            assertThat(s.deliveryCompleteCount()).isEqualTo(2);
        }
    }
}
