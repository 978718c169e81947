package io.odradek.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.FileRegion;
import io.netty.util.ReferenceCountUtil;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayDeque;

/**
 * Sends file regions (fetched records) over TLS, which cannot use sendfile: a region is read into pooled direct
 * buffers of {@value #CHUNK_BYTES} bytes (one TLS record each), one chunk at a time, and only while the channel is
 * writable, so a multi-megabyte fetch holds at most about the write buffer's high water mark in memory, however
 * slowly the client reads. No record is copied on its own: the bytes go file -> direct buffer -> TLS engine.
 *
 * <p>Sits between the SslHandler and the request stages of TLS connections only (PLAINTEXT connections keep the
 * zero-copy path and have no such stage). Buffers written while a region is being sent wait behind it, so the
 * response bytes keep their order; with no region pending, buffers pass straight through.
 */
final class TlsFileRegionWriter extends ChannelDuplexHandler {
    static final int CHUNK_BYTES = 16 * 1024;

    private record Queued(Object message, ChannelPromise promise) {
    }

    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    /** How much of the region at the head of the queue has been sent. */
    private long sentOfHead;
    private boolean draining;

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (queue.isEmpty() && !(msg instanceof FileRegion)) {
            ctx.write(msg, promise);
        } else {
            queue.add(new Queued(msg, promise));
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (queue.isEmpty()) {
            ctx.flush();
        } else {
            drain(ctx);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable() && !queue.isEmpty()) {
            drain(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        discard(new ClosedChannelException());
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        discard(new ClosedChannelException());
    }

    /** Writes what is queued while the channel takes it, flushing as it goes; resumes when it is writable again. */
    private void drain(ChannelHandlerContext ctx) {
        if (draining) {
            return; // a flush below made the channel writable again: the loop continues by itself
        }
        draining = true;
        try {
            while (true) {
                writeWhileWritable(ctx);
                ctx.flush();
                if (queue.isEmpty() || !ctx.channel().isWritable() || !ctx.channel().isActive()) {
                    return;
                }
            }
        } finally {
            draining = false;
        }
    }

    private void writeWhileWritable(ChannelHandlerContext ctx) {
        while (!queue.isEmpty()) {
            Queued head = queue.peek();
            if (!(head.message instanceof FileRegion region)) {
                queue.poll();
                ctx.write(head.message, head.promise);
                continue;
            }
            if (!ctx.channel().isWritable()) {
                return;
            }
            long remaining = region.count() - sentOfHead;
            int length = (int) Math.min(CHUNK_BYTES, remaining);
            ByteBuf chunk = null;
            if (length > 0) {
                chunk = ctx.alloc().directBuffer(length);
                try {
                    read(region, chunk, sentOfHead, length);
                } catch (IOException | RuntimeException e) {
                    chunk.release();
                    queue.poll();
                    sentOfHead = 0;
                    region.release();
                    fail(head.promise, e);
                    // The frame's length promised these bytes: the connection cannot continue.
                    ctx.fireExceptionCaught(e);
                    return;
                }
                sentOfHead += length;
            }
            if (sentOfHead < region.count()) {
                ctx.write(chunk, ctx.voidPromise());
            } else {
                queue.poll();
                sentOfHead = 0;
                region.release();
                if (chunk != null) {
                    ctx.write(chunk, head.promise);
                } else if (!head.promise.isVoid()) {
                    head.promise.trySuccess();
                }
            }
        }
    }

    /** Reads straight from the segment file when the region allows it, else through the region's transferTo. */
    private static void read(FileRegion region, ByteBuf into, long offset, int length) throws IOException {
        if (region instanceof ReadableFileRegion readable) {
            readable.readInto(into, offset, length);
            return;
        }
        int target = into.writerIndex() + length;
        WritableByteChannel sink = new WritableByteChannel() {
            @Override
            public int write(ByteBuffer src) {
                int n = Math.min(src.remaining(), target - into.writerIndex());
                ByteBuffer part = src.duplicate();
                part.limit(part.position() + n);
                into.writeBytes(part);
                src.position(src.position() + n);
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        while (into.writerIndex() < target) {
            long n = region.transferTo(sink, offset + (length - (target - into.writerIndex())));
            if (n <= 0) {
                throw new EOFException("file region ended early");
            }
        }
    }

    private void discard(Throwable cause) {
        Queued q;
        while ((q = queue.poll()) != null) {
            ReferenceCountUtil.release(q.message);
            fail(q.promise, cause);
        }
        sentOfHead = 0;
    }

    private static void fail(ChannelPromise promise, Throwable cause) {
        if (!promise.isVoid()) {
            promise.tryFailure(cause);
        }
    }
}
