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
import org.apache.kafka.common.protocol.ApiKeys;
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
        pending = header();
        out.write(frame(pending, topic, partition, timeoutMs, values));
        out.flush();
    }

    static RequestHeader header() {
        return new RequestHeader(ApiKeys.PRODUCE, (short) 12, "cluster-raw", 1);
    }

    /** The whole request as sent on the wire: size, header, body. */
    static byte[] frame(RequestHeader header, String topic, int partition, int timeoutMs, List<String> values) {
        SimpleRecord[] records = values.stream().map(v -> new SimpleRecord(("k-" + v).getBytes(StandardCharsets.UTF_8),
                v.getBytes(StandardCharsets.UTF_8))).toArray(SimpleRecord[]::new);
        ProduceRequestData data = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(timeoutMs);
        data.topicData().add(new ProduceRequestData.TopicProduceData().setName(topic).setPartitionData(List.of(
                new ProduceRequestData.PartitionProduceData().setIndex(partition)
                        .setRecords(MemoryRecords.withRecords(Compression.NONE, records)))));
        ProduceRequest request = ProduceRequest.builder(data).build(header.apiVersion());
        ByteBuffer bytes = request.serializeWithHeader(header);
        ByteBuffer framed = ByteBuffer.allocate(4 + bytes.remaining());
        framed.putInt(bytes.remaining()).put(bytes);
        return framed.array();
    }

    /** The partition's answer in a response frame (without its size prefix). */
    static ProduceResponseData.PartitionProduceResponse parse(byte[] frame, RequestHeader header) {
        ProduceResponse response = (ProduceResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(frame), header);
        return response.data().responses().iterator().next().partitionResponses().get(0);
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
            return parse(frame, pending);
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
