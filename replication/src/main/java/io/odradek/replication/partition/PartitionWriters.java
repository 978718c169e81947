package io.odradek.replication.partition;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The writer threads ({@code num.io.threads}): every append to a partition runs on the one thread its
 * name hashes to, so a partition's appends are serialised without waiting on its log lock, and the disk
 * work they do (segment roll, index mapping, producer snapshots) stays off the network event loops.
 */
public final class PartitionWriters implements AutoCloseable {
    private final ExecutorService[] threads;

    public PartitionWriters(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("num.io.threads must be at least 1, not " + count);
        }
        threads = new ExecutorService[count];
        for (int i = 0; i < count; i++) {
            String name = "odradek-writer-" + i;
            threads[i] = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
        }
    }

    /** The writer of {@code topic}-{@code partition}: always the same one. */
    public ExecutorService writerFor(String topic, int partition) {
        int hash = topic.hashCode() * 31 + partition;
        return threads[Math.floorMod(hash ^ (hash >>> 16), threads.length)];
    }

    /** Every writer thread, as an executor. */
    public java.util.List<ExecutorService> threads() {
        return java.util.List.of(threads);
    }

    public int size() {
        return threads.length;
    }

    /** Finishes the appends already handed over, then stops; call before the logs close. */
    @Override
    public void close() {
        for (ExecutorService t : threads) {
            t.shutdown();
        }
        for (ExecutorService t : threads) {
            try {
                if (!t.awaitTermination(10, TimeUnit.SECONDS)) {
                    t.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                t.shutdownNow();
            }
        }
    }
}
