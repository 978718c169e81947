package io.odradek.replication.fetcher;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.schema.MalformedMessageException;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import io.odradek.wire.schema.Varints;
import io.odradek.wire.schema.WireWriter;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A blocking Kafka-protocol client to one other broker, over our own codec (the inverse of the broker's
 * RequestDecoder/ResponseEncoder): request header v1 (v2 for flexible versions) and body out, response header
 * v0 (v1 for flexible versions, never for ApiVersions) and body back. For inter-broker traffic: replica
 * fetches, transaction markers, AddPartitionsToTxn verification.
 *
 * <p>One request at a time ({@link #send} is synchronized); the connection opens on first use and after a
 * failure, so a caller just retries. Records in a response body are slices of a heap copy of the frame:
 * valid as long as the caller holds them, nothing to release.
 */
public final class BrokerClient implements AutoCloseable {
    private static final UnpooledByteBufAllocator HEAP = new UnpooledByteBufAllocator(false);
    private static final Schema NO_FIELDS = Schema.of();
    /**
     * The largest response frame accepted (as the broker's socket.request.max.bytes default): a frame's length
     * prefix comes from the peer and is checked before anything is allocated. A fetch may ask for more.
     */
    public static final int MAX_RESPONSE_BYTES = 100 * 1024 * 1024;
    /** Room for the headers and per-partition fields around a fetch's MaxBytes of records. */
    private static final int FETCH_OVERHEAD_BYTES = 1024 * 1024;
    /** Even a fetch asking for more (MaxBytes defaults to 2^31-1) gets no frame above 1 GiB. */
    private static final long MAX_FETCH_RESPONSE_BYTES = 1024L * 1024 * 1024 - FETCH_OVERHEAD_BYTES;

    private final String host;
    private final int port;
    private final String clientId;
    private final int connectTimeoutMs;
    private final int requestTimeoutMs;
    private final ClientSecurity security;
    /** KIP-368: when the authenticated session ends (System.nanoTime), so the next send reconnects first. */
    private long sessionEndNanos;
    private boolean sessionExpires;
    /** Volatile so {@link #close} can close it from another thread without the monitor a blocked send holds. */
    private volatile Socket socket;
    private DataInputStream in;
    private OutputStream out;
    private int nextCorrelationId;
    private volatile boolean closed;

    /**
     * @param clientId         sent in every request header (Kafka's brokers use e.g. "broker-1-fetcher-0")
     * @param connectTimeoutMs how long a connection attempt may take
     * @param requestTimeoutMs how long to wait for a response; must exceed any wait the request asks the
     *                         other broker for (a fetch's MaxWaitMs)
     */
    public BrokerClient(String host, int port, String clientId, int connectTimeoutMs, int requestTimeoutMs) {
        this(host, port, clientId, connectTimeoutMs, requestTimeoutMs, ClientSecurity.PLAINTEXT);
    }

    /** As above, over the inter-broker listener's {@code security} (TLS socket, SASL authentication). */
    public BrokerClient(String host, int port, String clientId, int connectTimeoutMs, int requestTimeoutMs,
            ClientSecurity security) {
        this.security = security;
        this.host = host;
        this.port = port;
        this.clientId = clientId;
        this.connectTimeoutMs = connectTimeoutMs;
        this.requestTimeoutMs = requestTimeoutMs;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /**
     * Sends {@code body} as {@code api} at {@code version} and returns the response body. On an
     * {@link IOException} (connection refused or lost, timeout, unparseable response) the connection is
     * closed and the next call reconnects.
     */
    public synchronized Struct send(ApiSpec api, short version, Struct body) throws IOException {
        if (closed) {
            throw new IOException("client to " + host + ":" + port + " is closed");
        }
        try {
            if (socket != null && sessionExpires && System.nanoTime() - sessionEndNanos >= 0) {
                disconnect(); // the authenticated session is over: a new connection authenticates again
            }
            connectIfNeeded();
            return exchange(api, version, body);
        } catch (IOException | RuntimeException e) {
            disconnect();
            if (e instanceof IOException io) {
                throw io;
            }
            throw new IOException("bad " + api.name() + " v" + version + " response from " + host + ":" + port, e);
        }
    }

    private Struct exchange(ApiSpec api, short version, Struct body) throws IOException {
        int correlationId = nextCorrelationId++;
        out.write(encodeRequest(api, version, correlationId, clientId, body));
        out.flush();
        int size = in.readInt();
        if (size < 4) {
            throw new IOException("response frame of " + size + " bytes from " + host + ":" + port);
        }
        long limit = maxResponseBytes(api, version, body);
        if (size > limit) {
            throw new IOException("response frame of " + size + " bytes from " + host + ":" + port
                    + " is larger than the " + limit + " accepted for " + api.name());
        }
        byte[] frame = new byte[size];
        in.readFully(frame);
        return decodeResponse(api, version, correlationId, Unpooled.wrappedBuffer(frame));
    }

    /**
     * {@link #MAX_RESPONSE_BYTES}, or for a fetch (v3+) its MaxBytes and some overhead when that is more (a
     * response can exceed MaxBytes by one batch, KIP-74, which message.max.bytes bounds), at most 1 GiB.
     */
    private static long maxResponseBytes(ApiSpec api, short version, Struct body) {
        if (api.key() == FetchApi.SPEC.key() && version >= 3) {
            long asked = Math.min(body.get(FetchApi.Request.MAX_BYTES), MAX_FETCH_RESPONSE_BYTES);
            return Math.max(MAX_RESPONSE_BYTES, asked + FETCH_OVERHEAD_BYTES);
        }
        return MAX_RESPONSE_BYTES;
    }

    /** Whether a connection is open now (it may still be found dead by the next send). */
    public boolean isConnected() {
        Socket s = socket;
        return s != null && s.isConnected() && !s.isClosed();
    }

    /**
     * Closes the client for good, at once: without the monitor, so a send blocked in a read (up to the request
     * timeout, e.g. on a leader that stopped answering) fails now with an IOException instead of holding the
     * caller until the timeout; that send then drops the connection.
     */
    @Override
    public void close() {
        closed = true;
        Socket s = socket;
        if (s != null) {
            closeQuietly(s);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing more to do with a socket we drop
        }
    }

    /** Closes the connection but not the client: the next send reconnects. */
    public synchronized void disconnect() {
        Socket s = socket;
        if (s != null) {
            closeQuietly(s);
        }
        socket = null;
        in = null;
        out = null;
    }

    private void connectIfNeeded() throws IOException {
        if (socket != null) {
            return;
        }
        Socket s = security.connect(host, port, connectTimeoutMs);
        // Published before anything else blocks, so a close() from another thread also cuts a TLS handshake's
        // or an authentication's read short; close() sets closed before it reads the socket, so one of the two
        // always sees the other.
        socket = s;
        try {
            s.setSoTimeout(requestTimeoutMs);
            if (closed) {
                throw new IOException("client to " + host + ":" + port + " is closed");
            }
            in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 64 * 1024));
            out = new BufferedOutputStream(s.getOutputStream(), 64 * 1024);
            long lifetimeMs = security.authenticate(this::exchange);
            // Reconnect a little before the server would close the session (KIP-368), never below a second.
            sessionExpires = lifetimeMs > 0;
            sessionEndNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(1000, lifetimeMs * 9 / 10));
        } catch (IOException | RuntimeException e) {
            closeQuietly(s);
            socket = null;
            in = null;
            out = null;
            throw e;
        }
    }

    /** The whole request frame: int32 length, header, body. No I/O; shared with tests that play the server. */
    public static byte[] encodeRequest(ApiSpec api, short version, int correlationId, String clientId, Struct body) {
        WireWriter w = new WireWriter(HEAP);
        try {
            ByteBuf first = w.buf();
            first.writeInt(0); // the frame length, set below
            first.writeShort(api.key());
            first.writeShort(version);
            first.writeInt(correlationId);
            // Header v1 and v2 both carry the client id as a classic nullable string.
            Types.STRING.write(w, clientId, version, false);
            if (api.requestHeaderVersion(version) >= 2) {
                Varints.writeUnsignedVarint(first, 0);
            }
            api.request().write(w, body, version, api.isFlexible(version));
        } catch (RuntimeException e) {
            w.discard();
            throw e;
        }
        List<Object> parts = w.finish();
        ByteBuf frame = Unpooled.buffer();
        try {
            for (Object part : parts) {
                if (!(part instanceof ByteBuf b)) {
                    throw new IllegalArgumentException("a request cannot carry a file region");
                }
                frame.writeBytes(b);
            }
            frame.setInt(0, frame.readableBytes() - 4);
            byte[] bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
            return bytes;
        } finally {
            for (Object part : parts) {
                io.netty.util.ReferenceCountUtil.release(part);
            }
        }
    }

    /** Reads a response frame (without its length prefix): header, then body at {@code version}. No I/O. */
    public static Struct decodeResponse(ApiSpec api, short version, int expectedCorrelationId, ByteBuf frame)
            throws IOException {
        int correlationId = frame.readInt();
        if (correlationId != expectedCorrelationId) {
            throw new IOException("response with correlation id " + correlationId + " to request "
                    + expectedCorrelationId);
        }
        try {
            if (api.responseHeaderVersion(version) >= 1) {
                NO_FIELDS.read(frame, version, true);
            }
            return api.response().read(frame, version, api.isFlexible(version));
        } catch (IndexOutOfBoundsException | MalformedMessageException e) {
            throw new IOException(api.name() + " v" + version + " response does not parse: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "BrokerClient(" + host + ":" + port + ")";
    }
}
