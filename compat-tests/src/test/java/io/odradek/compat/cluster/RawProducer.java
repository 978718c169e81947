package io.odradek.compat.cluster;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * One Produce request on a plain socket to one broker, its answer read later: unlike a Kafka producer it
 * neither retries nor reconnects nor closes the connection on a timeout, so a request written to a frozen
 * (SIGSTOPped) broker waits in the socket until the broker runs again, and what the broker does with it is
 * exactly what the test sees.
 */
final class RawProducer implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private RequestHeader pending;

    RawProducer(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    /** Sends (v12, acks=all) these values as one batch to the partition, without waiting for the answer. */
    void send(String topic, int partition, int timeoutMs, List<String> values) throws IOException {
        SimpleRecord[] records = values.stream().map(v -> new SimpleRecord(("k-" + v).getBytes(StandardCharsets.UTF_8),
                v.getBytes(StandardCharsets.UTF_8))).toArray(SimpleRecord[]::new);
        ProduceRequestData data = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(timeoutMs);
        data.topicData().add(new ProduceRequestData.TopicProduceData().setName(topic).setPartitionData(List.of(
                new ProduceRequestData.PartitionProduceData().setIndex(partition)
                        .setRecords(MemoryRecords.withRecords(Compression.NONE, records)))));
        ProduceRequest request = ProduceRequest.builder(data).build((short) 12);
        pending = new RequestHeader(request.apiKey(), request.version(), "cluster-raw", 1);
        ByteBuffer bytes = request.serializeWithHeader(pending);
        out.writeInt(bytes.remaining());
        out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
        out.flush();
    }

    /**
     * The partition's answer to the request sent, waiting up to {@code timeoutMs}; null when the broker closed the
     * connection or did not answer in time (neither is an acknowledgement).
     */
    ProduceResponseData.PartitionProduceResponse answer(int timeoutMs) {
        try {
            socket.setSoTimeout(timeoutMs);
            byte[] frame = new byte[in.readInt()];
            in.readFully(frame);
            ProduceResponse response = (ProduceResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(frame), pending);
            return response.data().responses().iterator().next().partitionResponses().get(0);
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
