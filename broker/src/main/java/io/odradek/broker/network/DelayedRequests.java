package io.odradek.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * issue 11 (faults): one connection's requests held back by an injected delay. A delayed request reaches its handler
 * after its delay, and every request read after it on the connection waits for it, so handlers see the connection's
 * requests in order, as they would from a slow Kafka broker (which serves a connection one request at a time). The
 * responses keep their order anyway: they are queued in request order by the dispatcher.
 *
 * <p>A held request keeps its frame (its records are slices of it) until it is handed on. If the connection closes
 * first, the request is never handled: its frame is released at once and it completes with no answer, so the
 * dispatcher gives its memory back as for any request of a closed connection. Used on the connection's event loop.
 */
final class DelayedRequests {
    /** Completes when the last held request has been handed to its handler (or dropped at close); null: none yet. */
    private CompletableFuture<Void> tail;

    /** Whether a held request has not reached its handler yet: then the next request must wait too. */
    boolean waiting() {
        return tail != null && !tail.isDone();
    }

    /**
     * Calls {@code handler} after {@code delayMs} and after every request held before this one.
     *
     * @param frame the request's frame, retained here until the handler has been called
     * @return the handler's response once it has one; null (no answer) if the connection closed before
     */
    CompletableFuture<Struct> later(ChannelHandlerContext ctx, long delayMs, ByteBuf frame,
            Supplier<CompletableFuture<Struct>> handler) {
        CompletableFuture<Struct> response = new CompletableFuture<>();
        CompletableFuture<Void> handedOn = new CompletableFuture<>();
        CompletableFuture<Void> before = tail == null ? CompletableFuture.completedFuture(null) : tail;
        tail = handedOn;
        frame.retain();
        AtomicBoolean settled = new AtomicBoolean();
        CompletableFuture<Void> delayed = new CompletableFuture<>();
        io.netty.util.concurrent.ScheduledFuture<?> timer = delayMs <= 0 ? null
                : ctx.executor().schedule(() -> delayed.complete(null), delayMs, TimeUnit.MILLISECONDS);
        if (timer == null) {
            delayed.complete(null);
        }
        ChannelFutureListener onClose = closed -> {
            if (settled.compareAndSet(false, true)) {
                if (timer != null) {
                    timer.cancel(false);
                }
                frame.release();
                response.complete(null);
                handedOn.complete(null);
            }
        };
        ctx.channel().closeFuture().addListener(onClose);
        before.thenCombine(delayed, (a, b) -> null).whenComplete((ignored, e) -> {
            if (!settled.compareAndSet(false, true)) {
                return; // the connection closed first
            }
            ctx.channel().closeFuture().removeListener(onClose);
            try {
                if (!ctx.channel().isActive()) {
                    response.complete(null);
                    return;
                }
                handler.get().whenComplete((r, failure) -> {
                    if (failure != null) {
                        response.completeExceptionally(failure);
                    } else {
                        response.complete(r);
                    }
                });
            } catch (RuntimeException | Error failure) {
                response.completeExceptionally(failure);
            } finally {
                frame.release();
                handedOn.complete(null);
            }
        });
        return response;
    }
}
