package io.odradek.broker.fetch;

import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GenericFutureListener;
import io.odradek.broker.api.RequestContext;
import io.odradek.replication.partition.DelayedOperation;

/**
 * Ties a parked operation to its request's connection: when the connection closes the operation is
 * cancelled (and leaves every watcher list) instead of waiting out its timeout; when the operation ends
 * first, the close listener is removed, so a long-lived connection does not collect one per request.
 */
public final class CancelOnClose {
    private CancelOnClose() {
    }

    public static void bind(DelayedOperation op, RequestContext context) {
        bind(op, context.connectionClosed());
    }

    private static <T> void bind(DelayedOperation op, Future<T> closed) {
        GenericFutureListener<Future<T>> cancel = f -> op.cancel();
        closed.addListener(cancel);
        op.whenDone(() -> closed.removeListener(cancel));
    }
}
