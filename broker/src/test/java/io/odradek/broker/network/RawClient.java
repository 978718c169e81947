package io.odradek.broker.network;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.RequestHeader;

/** A plain socket to the broker: requests framed with Kafka's classes, or any bytes, and frames read back. */
final class RawClient implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    RawClient(int port) throws IOException {
        this(port, 0);
    }

    /** {@code receiveBufferBytes > 0}: a small socket receive buffer, so unread responses back up quickly. */
    RawClient(int port, int receiveBufferBytes) throws IOException {
        socket = new Socket();
        if (receiveBufferBytes > 0) {
            socket.setReceiveBufferSize(receiveBufferBytes);
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** One request with its length prefix, as a client sends it. */
    static byte[] frame(AbstractRequest request, String clientId, int correlationId) {
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), clientId, correlationId);
        ByteBuffer body = request.serializeWithHeader(header);
        ByteBuffer framed = ByteBuffer.allocate(4 + body.remaining()).putInt(body.remaining()).put(body);
        return framed.array();
    }

    static byte[] apiVersionsFrame(int correlationId) {
        return frame(new ApiVersionsRequest.Builder().build((short) 3), "raw-client", correlationId);
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next response frame without its length prefix. */
    ByteBuffer readFrame() throws IOException {
        int length = in.readInt();
        byte[] frame = new byte[length];
        in.readFully(frame);
        return ByteBuffer.wrap(frame);
    }

    /** ApiVersions v3 round trip; the response's correlation id must be ours. Returns its error code. */
    short apiVersions(int correlationId) throws IOException {
        send(apiVersionsFrame(correlationId));
        ByteBuffer answer = readFrame();
        int got = answer.getInt();
        if (got != correlationId) {
            throw new AssertionError("correlation id " + got + ", expected " + correlationId);
        }
        RequestHeader header = new RequestHeader(ApiKeys.API_VERSIONS, (short) 3, "raw-client", correlationId);
        answer.rewind();
        return ((ApiVersionsResponse) org.apache.kafka.common.requests.AbstractResponse.parseResponse(answer, header))
                .data().errorCode();
    }

    /** True once the broker has closed the connection; false if it stays open and silent for the timeout. */
    boolean closedByBroker(int timeoutMs) throws IOException {
        socket.setSoTimeout(timeoutMs);
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
        } finally {
            socket.setSoTimeout(10_000);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
