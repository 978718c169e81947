package io.odradek.replication.quorum;

import io.odradek.replication.cluster.ClusterImage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Holds a node's newest image and hands every newer one to the listeners, in offset order, on one dedicated
 * thread (never Ratis's apply thread, so a slow listener cannot stall the metadata log). A listener added late
 * first gets the current image; no listener ever sees an offset twice or go backwards.
 */
final class ImagePublisher implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ImagePublisher.class.getName());

    private final ExecutorService thread;
    private final List<Subscriber> subscribers = new ArrayList<>(); // touched on the thread only
    private volatile ClusterImage current = ClusterImage.EMPTY;

    ImagePublisher(String threadName) {
        thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    ClusterImage current() {
        return current;
    }

    /** Makes {@code image} current (ignored if not newer) and queues its delivery. */
    void publish(ClusterImage image) {
        synchronized (this) {
            if (image.offset() <= current.offset()) {
                return;
            }
            current = image;
        }
        run(() -> subscribers.forEach(s -> s.deliver(image)));
    }

    void addListener(Consumer<ClusterImage> listener) {
        run(() -> {
            Subscriber s = new Subscriber(listener);
            subscribers.add(s);
            s.deliver(current);
        });
    }

    private void run(Runnable task) {
        try {
            thread.execute(task);
        } catch (RejectedExecutionException closed) {
            // closing: nobody listens any more
        }
    }

    @Override
    public void close() {
        thread.shutdown();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class Subscriber {
        private final Consumer<ClusterImage> listener;
        private long delivered = -1;

        Subscriber(Consumer<ClusterImage> listener) {
            this.listener = listener;
        }

        void deliver(ClusterImage image) {
            if (image.offset() <= delivered) {
                return;
            }
            delivered = image.offset();
            try {
                listener.accept(image);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "cluster image listener failed at offset " + image.offset(), e);
            }
        }
    }
}
