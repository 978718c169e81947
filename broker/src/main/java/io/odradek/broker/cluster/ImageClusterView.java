package io.odradek.broker.cluster;

import io.odradek.broker.topics.TopicService;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.ControllerChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The cluster as a cluster node's handlers see it: the newest metadata image this broker has applied
 * (catalog, logs and replicas brought in line with it first) and its channel to the controller quorum.
 * {@link #awaitApplied} lets a caller that changed metadata wait until the change is visible here.
 */
public final class ImageClusterView implements ClusterView {
    private final int brokerId;
    private final String clientListener;
    private final ControllerChannel channel;
    private final TopicService topics;
    private volatile ClusterImage image = ClusterImage.EMPTY;
    /** Callers waiting for an offset; guarded by this. */
    private final List<Waiter> waiters = new ArrayList<>();

    private record Waiter(long offset, CompletableFuture<ClusterImage> future) {
    }

    public ImageClusterView(int brokerId, String clientListener, ControllerChannel channel, TopicService topics) {
        this.brokerId = brokerId;
        this.clientListener = clientListener;
        this.channel = channel;
        this.topics = topics;
    }

    @Override
    public ClusterImage image() {
        return image;
    }

    /** Publishes an applied image and completes the waits it satisfies (called in offset order). */
    void applied(ClusterImage next) {
        List<Waiter> done = new ArrayList<>();
        synchronized (this) {
            image = next;
            waiters.removeIf(w -> {
                if (w.offset <= next.offset()) {
                    done.add(w);
                    return true;
                }
                return false;
            });
        }
        done.forEach(w -> w.future.complete(next));
    }

    @Override
    public int localBrokerId() {
        return brokerId;
    }

    @Override
    public String clientListener() {
        return clientListener;
    }

    @Override
    public Optional<ControllerChannel> controller() {
        return Optional.of(channel);
    }

    @Override
    public CompletableFuture<ClusterImage> awaitApplied(long offset) {
        synchronized (this) {
            ClusterImage current = image;
            if (current.offset() >= offset) {
                return CompletableFuture.completedFuture(current);
            }
            CompletableFuture<ClusterImage> future = new CompletableFuture<>();
            waiters.add(new Waiter(offset, future));
            return future;
        }
    }

    @Override
    public boolean isLocalLogOffline(String topic, int partition) {
        return topics.isOffline(topic, partition);
    }

    /** Fails every wait (the node is closing). */
    void close() {
        List<Waiter> pending;
        synchronized (this) {
            pending = new ArrayList<>(waiters);
            waiters.clear();
        }
        pending.forEach(w -> w.future.completeExceptionally(new IllegalStateException("the broker is shutting down")));
    }
}
