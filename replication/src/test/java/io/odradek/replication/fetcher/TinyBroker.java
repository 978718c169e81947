package io.odradek.replication.fetcher;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.odradek.wire.codec.Request;
import io.odradek.wire.codec.RequestDecoder;
import io.odradek.wire.codec.ResponseEncoder;
import io.odradek.wire.schema.Struct;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A one-connection-at-a-time server speaking our codec the broker's way (RequestDecoder in, ResponseEncoder
 * out), answering each request with what the test's handler returns (null: close the connection).
 */
public final class TinyBroker implements AutoCloseable {
    final List<Request> received = new CopyOnWriteArrayList<>();
    private final ServerSocket server;
    private final Thread thread;
    private volatile Function<Request, Struct> handler;
    private volatile Socket current;

    public TinyBroker(Function<Request, Struct> handler) throws IOException {
        this.handler = handler;
        this.server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        this.thread = new Thread(this::serve, "tiny-broker");
        thread.setDaemon(true);
        thread.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    public String host() {
        return server.getInetAddress().getHostAddress();
    }

    void handler(Function<Request, Struct> next) {
        this.handler = next;
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                current = s;
                DataInputStream in = new DataInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                while (true) {
                    byte[] frame = new byte[in.readInt()];
                    in.readFully(frame);
                    Request request = RequestDecoder.decode(Unpooled.wrappedBuffer(frame));
                    received.add(request);
                    Struct body = handler.apply(request);
                    if (body == null) {
                        break;
                    }
                    for (Object part : ResponseEncoder.encode(UnpooledByteBufAllocator.DEFAULT, request.api(),
                            request.version(), request.header().correlationId(), body)) {
                        ByteBuf b = (ByteBuf) part;
                        byte[] bytes = new byte[b.readableBytes()];
                        b.readBytes(bytes);
                        b.release();
                        out.write(bytes);
                    }
                    out.flush();
                }
            } catch (IOException e) {
                // the client went away or the server closed: wait for the next connection
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        Socket s = current;
        if (s != null) {
            s.close();
        }
    }
}
