package io.odradek.embedded;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * One ApiVersions v0 request over a plain socket, so a test can time "first request served" without the cost of
 * loading and starting a Kafka client.
 */
final class RawApiVersions {
    /** What the broker answered: the correlation id it echoed and the error code (0: none). */
    record Answer(int correlationId, short errorCode, int apiCount) {
    }

    private RawApiVersions() {
    }

    static Answer ask(String hostPort, int correlationId) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(hostPort.substring(0, colon),
                    Integer.parseInt(hostPort.substring(colon + 1))), 10_000);
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(2 + 2 + 4 + 2); // api key, version, correlation id, null client id
            out.writeShort(18); // ApiVersions
            out.writeShort(0);
            out.writeInt(correlationId);
            out.writeShort(-1);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int size = in.readInt();
            byte[] body = new byte[size];
            in.readFully(body);
            DataInputStream response = new DataInputStream(new java.io.ByteArrayInputStream(body));
            return new Answer(response.readInt(), response.readShort(), response.readInt());
        }
    }
}
