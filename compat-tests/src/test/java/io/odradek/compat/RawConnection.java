package io.odradek.compat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;

/** A plain socket to the broker: whole requests built with Kafka's classes, or any bytes at all. */
final class RawConnection implements AutoCloseable {
    private static final AtomicInteger CORRELATION = new AtomicInteger(1);
    private static final int TIMEOUT_MS = 10_000;

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    RawConnection(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(TIMEOUT_MS);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    /** Sends a request built by Kafka's own classes and parses the answer with them. */
    <R extends AbstractResponse> R roundTrip(AbstractRequest request, Class<R> responseType) throws IOException {
        return receive(send(request), responseType);
    }

    /** Sends a request without waiting for its answer (clients pipeline); returns its header. */
    RequestHeader send(AbstractRequest request) throws IOException {
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), "compat-raw",
                CORRELATION.getAndIncrement());
        ByteBuffer bytes = request.serializeWithHeader(header);
        byte[] payload = new byte[bytes.remaining()];
        bytes.get(payload);
        sendFrame(payload);
        return header;
    }

    /** Reads the next answer, which must be the one to {@code header}'s request (checked by correlation id). */
    <R extends AbstractResponse> R receive(RequestHeader header, Class<R> responseType) throws IOException {
        return responseType.cast(AbstractResponse.parseResponse(ByteBuffer.wrap(readFrame()), header));
    }

    /** ApiVersions at the version a 4.x client starts with; returns its error code (0 when all is well). */
    short apiVersions() throws IOException {
        short version = ApiKeys.API_VERSIONS.latestVersion();
        ApiVersionsResponseData data = roundTrip(new ApiVersionsRequest.Builder().build(version),
                ApiVersionsResponse.class).data();
        return data.errorCode();
    }

    /** Produce (v12, the newest that names topics) of one partition's records with acks=all; its answer. */
    ProduceResponseData.PartitionProduceResponse produce(String topic, int partition, ByteBuffer records)
            throws IOException {
        ProduceRequestData data = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(10_000);
        data.topicData().add(new ProduceRequestData.TopicProduceData().setName(topic).setPartitionData(List.of(
                new ProduceRequestData.PartitionProduceData().setIndex(partition)
                        .setRecords(MemoryRecords.readableRecords(records.duplicate())))));
        ProduceResponse response = roundTrip(ProduceRequest.builder(data).build((short) 12), ProduceResponse.class);
        List<ProduceResponseData.PartitionProduceResponse> partitions = response.data().responses().stream()
                .flatMap(t -> t.partitionResponses().stream()).toList();
        if (partitions.size() != 1) {
            throw new AssertionError("expected one partition in " + response.data());
        }
        return partitions.get(0);
    }

    /** A length prefix and then the payload. */
    void sendFrame(byte[] payload) throws IOException {
        out.writeInt(payload.length);
        out.write(payload);
        out.flush();
    }

    /** Any bytes, length prefix included or not. */
    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next response frame, without its length prefix. */
    byte[] readFrame() throws IOException {
        int length = in.readInt();
        byte[] frame = new byte[length];
        in.readFully(frame);
        return frame;
    }

    /** True once the broker has closed the connection; false if it stays open (and silent) for the timeout. */
    boolean closedByBroker() throws IOException {
        try {
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (EOFException | SocketException e) {
            return true; // reset
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    static int nextCorrelationId() {
        return CORRELATION.getAndIncrement();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
