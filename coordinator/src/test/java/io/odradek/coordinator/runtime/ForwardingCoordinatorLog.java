package io.odradek.coordinator.runtime;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/** A CoordinatorLog passing every call to another; tests override the calls they change. */
public class ForwardingCoordinatorLog implements CoordinatorLog {
    private final CoordinatorLog delegate;

    public ForwardingCoordinatorLog(CoordinatorLog delegate) {
        this.delegate = delegate;
    }

    @Override
    public CompletableFuture<Long> append(ByteBuffer batch) {
        return delegate.append(batch);
    }

    @Override
    public CompletableFuture<Long> appendMarker(long producerId, short producerEpoch, int coordinatorEpoch,
            boolean commit) {
        return delegate.appendMarker(producerId, producerEpoch, coordinatorEpoch, commit);
    }

    @Override
    public CompletableFuture<Void> whenCaughtUp() {
        return delegate.whenCaughtUp();
    }

    @Override
    public long startOffset() {
        return delegate.startOffset();
    }

    @Override
    public long committedEndOffset() {
        return delegate.committedEndOffset();
    }

    @Override
    public ByteBuffer read(long offset, int maxBytes) {
        return delegate.read(offset, maxBytes);
    }
}
