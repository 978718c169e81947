package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.InitializeShareGroupStateRequestData;
import org.apache.kafka.common.message.WriteShareGroupStateRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.InitializeShareGroupStateRequest;
import org.apache.kafka.common.requests.InitializeShareGroupStateResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.WriteShareGroupStateRequest;
import org.apache.kafka.common.requests.WriteShareGroupStateResponse;
import org.apache.kafka.server.share.SharePartitionKey;
import org.apache.kafka.tools.DumpLogSegments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * issue 12 (sharestate): Kafka 4.4's kafka-dump-log {@code --share-group-state-decoder} reads the
 * {@code __share_group_state} records Odradek's share coordinator writes: the ShareSnapshot of an
 * InitializeShareGroupState and the ShareUpdate of a WriteShareGroupState, field by field.
 */
class ShareStateDumpLogSegmentsTest {
    private static final Pattern RECORD = Pattern.compile("^\\| offset: (\\d+) .*? key: (\\S+) payload: (\\S+)$");
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of("share.coordinator.state.topic.num.partitions", "1"));

    /** A request with Kafka's classes over a plain socket, as another broker sends it. */
    private static <R extends AbstractResponse> R call(Socket socket, AbstractRequest request, Class<R> type) throws Exception {
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), "other-broker", 1);
        ByteBuffer bytes = request.serializeWithHeader(header);
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.writeInt(bytes.remaining());
        out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
        out.flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return type.cast(AbstractResponse.parseResponse(ByteBuffer.wrap(frame), header));
    }

    @Test
    void theShareGroupStateDecoderReadsTheSnapshotAndTheUpdate() throws Exception {
        broker.createTopic("orders", 1);
        Uuid topicId = OdradekBroker.await(broker.admin().describeTopics(List.of("orders")).allTopicNames()).get("orders").topicId();
        try (Socket socket = new Socket("127.0.0.1", broker.port())) {
            socket.setSoTimeout(30_000);
            String key = SharePartitionKey.getInstance("dump-share", topicId, 0).asCoordinatorKey();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            short found;
            do {
                Thread.sleep(20);
                found = call(socket, new FindCoordinatorRequest.Builder(new FindCoordinatorRequestData().setKeyType((byte) 2)
                        .setCoordinatorKeys(List.of(key))).build((short) 6), FindCoordinatorResponse.class)
                        .data().coordinators().get(0).errorCode();
            } while (found != 0 && System.nanoTime() < deadline);
            short initialized;
            do {
                Thread.sleep(20);
                initialized = call(socket, new InitializeShareGroupStateRequest.Builder(new InitializeShareGroupStateRequestData()
                        .setGroupId("dump-share").setTopics(List.of(new InitializeShareGroupStateRequestData.InitializeStateData()
                                .setTopicId(topicId).setPartitions(List.of(new InitializeShareGroupStateRequestData.PartitionData()
                                        .setPartition(0).setStateEpoch(1).setStartOffset(0)))))).build((short) 0),
                        InitializeShareGroupStateResponse.class).data().results().get(0).partitions().get(0).errorCode();
            } while (initialized == Errors.COORDINATOR_LOAD_IN_PROGRESS.code() && System.nanoTime() < deadline);
            assertThat(initialized).isZero();
            WriteShareGroupStateResponse written = call(socket, new WriteShareGroupStateRequest.Builder(new WriteShareGroupStateRequestData()
                    .setGroupId("dump-share").setTopics(List.of(new WriteShareGroupStateRequestData.WriteStateData().setTopicId(topicId)
                            .setPartitions(List.of(new WriteShareGroupStateRequestData.PartitionData().setPartition(0).setStateEpoch(1)
                                    .setLeaderEpoch(0).setStartOffset(2).setDeliveryCompleteCount(1)
                                    .setStateBatches(List.of(new WriteShareGroupStateRequestData.StateBatch().setFirstOffset(2)
                                            .setLastOffset(3).setDeliveryState((byte) 4).setDeliveryCount((short) 5))))))))
                    .build((short) 1), WriteShareGroupStateResponse.class);
            assertThat(written.data().results().get(0).partitions().get(0).errorCode()).isZero();
        }
        broker.closeClients();
        broker.stop();

        Path segment = SegmentFile.onlyLogSegment(broker.partitionDir("__share_group_state", 0));
        KafkaTool.Output dump = KafkaTool.run(DumpLogSegments::main, "--files", segment.toString(), "--share-group-state-decoder");

        assertThat(dump.stdout()).doesNotContain("Error at offset", "Unknown record type", "invalid bytes", "Failed to decode");
        List<JsonNode[]> records = new ArrayList<>();
        for (String line : dump.stdout().lines().filter(l -> l.startsWith("|")).toList()) {
            Matcher m = RECORD.matcher(line);
            assertThat(m.matches()).as(line).isTrue();
            records.add(new JsonNode[] {JSON.readTree(m.group(2)), JSON.readTree(m.group(3))});
        }
        assertThat(records).hasSize(2);
        JsonNode snapshotKey = records.get(0)[0];
        JsonNode snapshot = records.get(0)[1].get("data");
        assertThat(snapshotKey.get("type").asText()).isEqualTo("0");
        assertThat(snapshotKey.get("data").get("groupId").asText()).isEqualTo("dump-share");
        assertThat(snapshotKey.get("data").get("topicId").asText()).isEqualTo(topicId.toString());
        assertThat(snapshot.get("stateEpoch").asInt()).isEqualTo(1);
        assertThat(snapshot.get("startOffset").asLong()).isZero();
        assertThat(snapshot.get("stateBatches")).isEmpty();

        JsonNode updateKey = records.get(1)[0];
        JsonNode update = records.get(1)[1].get("data");
        assertThat(updateKey.get("type").asText()).isEqualTo("1");
        assertThat(update.get("startOffset").asLong()).isEqualTo(2);
        assertThat(update.get("deliveryCompleteCount").asInt()).isEqualTo(1);
        JsonNode batch = update.get("stateBatches").get(0);
        assertThat(List.of(batch.get("firstOffset").asLong(), batch.get("lastOffset").asLong(),
                batch.get("deliveryState").asLong(), batch.get("deliveryCount").asLong())).containsExactly(2L, 3L, 4L, 5L);
    }
}
