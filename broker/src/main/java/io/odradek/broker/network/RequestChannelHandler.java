package io.odradek.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.ReferenceCountUtil;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.handlers.ApiVersionsHandler;
import io.odradek.wire.api.ApiVersionsApi;
import io.odradek.wire.codec.Request;
import io.odradek.wire.codec.RequestDecoder;
import io.odradek.wire.codec.ResponseEncoder;
import io.odradek.wire.codec.UnsupportedRequestException;
import io.odradek.wire.schema.MalformedMessageException;
import io.odradek.wire.schema.Struct;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One connection's requests: decode each frame, hand it to its API's handler, and write the responses
 * in request order (clients pipeline requests and match responses by order as well as correlation id).
 * A request that cannot be decoded, or names an API or version we do not handle, closes this connection
 * only, as Kafka does.
 */
public final class RequestChannelHandler extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(RequestChannelHandler.class.getName());
    private static final RateLimitedLog REJECTED = new RateLimitedLog(LOG, 1000);

    private final ApiRegistry registry;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();

    public RequestChannelHandler(ApiRegistry registry) {
        this.registry = registry;
    }

    /** A request waiting for its response, in arrival order. */
    private record Pending(Request request, CompletableFuture<Struct> response) {
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            Request request = RequestDecoder.decode(frame);
            CompletableFuture<Struct> response;
            if (request.body() == null) {
                response = CompletableFuture.completedFuture(ApiVersionsHandler.unsupportedVersionResponse(registry));
            } else {
                ApiHandler handler = registry.handler(request.api().key());
                if (handler == null) {
                    throw new UnsupportedRequestException("API " + request.api().name() + " is not handled");
                }
                RequestContext context = new RequestContext(request.header(), ctx.channel().remoteAddress(),
                        ctx.alloc(), ctx.executor(), ctx.channel().closeFuture());
                response = handler.handle(context, request.body());
            }
            pending.add(new Pending(request, response));
            if (response.isDone()) {
                writeReady(ctx);
            } else {
                response.whenComplete((r, e) -> ctx.executor().execute(() -> writeReady(ctx)));
            }
        } catch (UnsupportedRequestException | MalformedMessageException e) {
            reject(ctx, e.getMessage());
        } finally {
            ReferenceCountUtil.release(frame);
        }
    }

    /** Writes the responses at the head of the queue that are complete, stopping at the first that is not. */
    private void writeReady(ChannelHandlerContext ctx) {
        boolean wrote = false;
        while (!pending.isEmpty() && pending.peek().response().isDone()) {
            Pending head = pending.poll();
            Struct body;
            try {
                body = head.response().join();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "failed " + describe(head.request()) + " from "
                        + ctx.channel().remoteAddress() + "; closing the connection", e);
                ctx.close();
                return;
            }
            if (body == null) {
                continue; // produce with acks=0: the client expects no answer
            }
            write(ctx, head.request(), body);
            wrote = true;
        }
        if (wrote) {
            ctx.flush();
        }
    }

    private void write(ChannelHandlerContext ctx, Request request, Struct body) {
        List<Object> parts;
        if (request.body() == null) {
            // The fallback answer: a v0 body, since the client could not know our versions yet.
            parts = ResponseEncoder.encode(ctx.alloc(), ApiVersionsApi.SPEC, (short) 0, (short) 0,
                    request.header().correlationId(), body);
        } else {
            parts = ResponseEncoder.encode(ctx.alloc(), request.api(), request.version(),
                    request.header().correlationId(), body);
        }
        for (Object part : parts) {
            ctx.write(part, ctx.voidPromise());
        }
    }

    private void reject(ChannelHandlerContext ctx, String why) {
        REJECTED.warn("closing connection from " + ctx.channel().remoteAddress() + ": " + why);
        releasePending();
        ctx.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof TooLongFrameException || cause instanceof io.netty.handler.codec.CorruptedFrameException) {
            reject(ctx, cause.getMessage());
        } else if (cause instanceof java.io.IOException) {
            ctx.close(); // the peer went away
        } else {
            LOG.log(System.Logger.Level.ERROR, "unexpected error on connection from " + ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releasePending();
        ctx.fireChannelInactive();
    }

    private void releasePending() {
        pending.clear();
    }

    private static String describe(Request request) {
        return request.api().name() + " v" + request.version() + " (correlation id "
                + request.header().correlationId() + ")";
    }
}
