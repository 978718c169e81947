package io.odradek.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * Splits a connection's bytes into length-prefixed request frames, as Kafka's receive does. A length prefix
 * beyond {@code socket.request.max.bytes} (or negative) closes the connection before anything more is
 * buffered. A frame's size is reserved in the broker-wide {@link RequestMemoryPool} as soon as its prefix is
 * read, so frames being received (a client claiming 100 MiB and trickling it) count against the bound; when
 * the pool is spent the connection is muted until memory comes back. On SASL listeners a lower bound applies until
 * the client is authenticated (and while it re-authenticates): {@code sasl.server.max.receive.size}, asked of the
 * connection's authenticator at each prefix and likewise enforced before anything is reserved, as Kafka's
 * SaslServerAuthenticator does.
 *
 * <p>Frames are handed on only while the connection's {@link ReadGate} is open: what a muted connection had
 * already read stays here (at most one socket read's worth beyond the frame in progress) until it reopens.
 */
final class RequestFrameDecoder extends ChannelInboundHandlerAdapter {
    private static final int PREFIX = 4;

    private final int maxRequestBytes;
    private final RequestMemoryPool pool;
    private final Runnable wakeOnMemory = this::memoryAvailable;
    private final AtomicInteger mutedConnections;
    private ChannelHandlerContext ctx;
    private ReadGate gate;
    private ByteBuf buffered;
    /** The size of the frame being received, already reserved; -1 between frames. */
    private int frameSize = -1;
    private boolean draining;
    private boolean closed;
    /** issue 10 (sasl): the connection's current bound on a frame (Integer.MAX_VALUE: none beyond the above). */
    private IntSupplier saslReceiveLimit = () -> Integer.MAX_VALUE;

    RequestFrameDecoder(int maxRequestBytes, RequestMemoryPool pool, AtomicInteger mutedConnections) {
        this.maxRequestBytes = maxRequestBytes;
        this.pool = pool;
        this.mutedConnections = mutedConnections;
    }

    /** issue 10 (sasl): set by the SASL connection's handler; read before each frame's memory is reserved. */
    void limitFramesBeforeAuthentication(IntSupplier limit) {
        this.saslReceiveLimit = limit;
    }

    ReadGate gate() {
        return gate;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.gate = new ReadGate(ctx.channel(), this::drain, mutedConnections);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        if (closed) {
            in.release();
            return;
        }
        buffered = buffered == null ? in : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), buffered, in);
        drain();
    }

    /** Hands on every complete frame while the gate is open; re-entered (from a handler) it does nothing. */
    void drain() {
        if (draining || closed) {
            return;
        }
        draining = true;
        try {
            while (!closed && gate.isOpen() && buffered != null) {
                if (frameSize < 0 && !startFrame()) {
                    break;
                }
                if (buffered.readableBytes() < frameSize) {
                    break;
                }
                RequestFrame frame = new RequestFrame(buffered.readRetainedSlice(frameSize), frameSize);
                frameSize = -1;
                ctx.fireChannelRead(frame);
            }
        } finally {
            draining = false;
            compact();
        }
    }

    /** Reads the next length prefix and reserves its size; false if that cannot be done yet. */
    private boolean startFrame() {
        if (buffered.readableBytes() < PREFIX) {
            return false;
        }
        int size = buffered.getInt(buffered.readerIndex());
        if (size < 0 || size > maxRequestBytes) {
            closed = true;
            ctx.fireExceptionCaught(new InvalidFrameSizeException(size < 0
                    ? "invalid request size " + size
                    : "request size " + size + " is larger than socket.request.max.bytes=" + maxRequestBytes));
            return false;
        }
        int saslLimit = saslReceiveLimit.getAsInt();
        if (size > saslLimit) {
            closed = true;
            ctx.fireExceptionCaught(new InvalidFrameSizeException("Failing SASL authentication due to invalid receive "
                    + "size " + size + " (sasl.server.max.receive.size=" + saslLimit + ")"));
            return false;
        }
        if (!pool.reserveOrWait(size, wakeOnMemory)) {
            gate.set(ReadGate.Reason.MEMORY, true);
            return false;
        }
        buffered.skipBytes(PREFIX);
        frameSize = size;
        return true;
    }

    /** Runs on whichever thread released memory: back to this connection's event loop to try again. */
    private void memoryAvailable() {
        ctx.executor().execute(() -> {
            if (!closed) {
                gate.set(ReadGate.Reason.MEMORY, false);
                drain();
            }
        });
    }

    private void compact() {
        if (buffered == null) {
            return;
        }
        if (!buffered.isReadable()) {
            buffered.release();
            buffered = null;
        } else if (buffered.refCnt() == 1) {
            buffered.discardSomeReadBytes();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseAll();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseAll();
    }

    private void releaseAll() {
        closed = true;
        gate.closed();
        pool.stopWaiting(wakeOnMemory);
        if (frameSize >= 0) {
            pool.cancel(frameSize);
            frameSize = -1;
        }
        if (buffered != null) {
            buffered.release();
            buffered = null;
        }
    }

    /** A length prefix no request may have; Kafka's InvalidReceiveException. */
    static final class InvalidFrameSizeException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidFrameSizeException(String message) {
            super(message, null, false, false);
        }
    }
}
