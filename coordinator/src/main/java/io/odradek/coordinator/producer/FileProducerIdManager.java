package io.odradek.coordinator.producer;

import io.odradek.log.checkpoint.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A single node's producer ids (in a cluster the controller hands out blocks: {@link BlockProducerIdManager}),
 * never reused, across restarts too. Ids are reserved in blocks: the end of
 * the reserved range is written durably to a small file (temp file, fsync, atomic rename, fsync of the
 * directory) <em>before</em> any id of the block is handed out, so after a crash the next run starts past
 * every id that may have been seen. A restart skips the rest of the last block, as Kafka's block-based
 * ProducerIdManager does.
 *
 * <p>The next block is reserved in the background once the current one is half used, so callers (event
 * loops) normally get an id at once and never wait on fsync; only a burst that drains both blocks waits
 * for the write. Thread-safe.
 */
public final class FileProducerIdManager implements ProducerIdManager {
    private static final String VERSION = "0";

    private final Path file;
    private final int blockSize;
    private final ExecutorService io;
    private final ArrayDeque<CompletableFuture<Long>> waiters = new ArrayDeque<>();
    /** Ids in [next, reservedEnd) are durably reserved and free to hand out. */
    private long next;
    private long reservedEnd;
    private boolean reserving;
    private boolean closed;

    private FileProducerIdManager(Path file, int blockSize, long persistedEnd) {
        this.file = file;
        this.blockSize = blockSize;
        this.next = persistedEnd;
        this.reservedEnd = persistedEnd;
        this.io = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "producer-id-reserve");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Opens the manager whose state lives in {@code dir}, reserving the first block before returning.
     *
     * @throws UncheckedIOException when the file cannot be read or written; a corrupt file also fails,
     *     since guessing could reissue ids
     */
    public static FileProducerIdManager open(Path dir, int blockSize) {
        if (blockSize <= 0) {
            throw new IllegalArgumentException("block size must be positive: " + blockSize);
        }
        Path file = dir.resolve(FILE_NAME);
        FileProducerIdManager manager = new FileProducerIdManager(file, blockSize, read(file));
        try {
            manager.reservedEnd = write(file, manager.next + blockSize);
        } catch (IOException e) {
            manager.io.shutdownNow();
            throw new UncheckedIOException("cannot reserve producer ids in " + file, e);
        }
        return manager;
    }

    /** A new producer id; completes at once unless a block is still being reserved. */
    @Override
    public CompletableFuture<Long> nextProducerId() {
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(new IllegalStateException("producer id manager is closed"));
            }
            CompletableFuture<Long> result;
            if (next < reservedEnd && waiters.isEmpty()) {
                result = CompletableFuture.completedFuture(next++);
            } else {
                result = new CompletableFuture<>();
                waiters.add(result);
            }
            maybeReserveNextBlock();
            return result;
        }
    }

    /** Caller holds the lock. */
    private void maybeReserveNextBlock() {
        if (reserving || closed || reservedEnd - next > blockSize / 2) {
            return;
        }
        reserving = true;
        long newEnd = reservedEnd + blockSize;
        io.execute(() -> {
            IOException failure = null;
            try {
                write(file, newEnd);
            } catch (IOException e) {
                failure = e;
            }
            onReserved(newEnd, failure);
        });
    }

    private void onReserved(long newEnd, IOException failure) {
        List<CompletableFuture<Long>> failed = List.of();
        synchronized (this) {
            reserving = false;
            if (failure != null) {
                // Nothing was handed out from the new block; waiters fail, the next call tries again.
                failed = List.copyOf(waiters);
                waiters.clear();
            } else {
                reservedEnd = newEnd;
                while (!waiters.isEmpty() && next < reservedEnd) {
                    waiters.poll().complete(next++);
                }
                maybeReserveNextBlock();
            }
        }
        for (CompletableFuture<Long> waiter : failed) {
            waiter.completeExceptionally(new UncheckedIOException("cannot reserve producer ids in " + file, failure));
        }
    }

    private static long read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        try {
            if (lines.size() >= 2 && lines.get(0).trim().equals(VERSION)) {
                long value = Long.parseLong(lines.get(1).trim());
                if (value >= 0) {
                    return value;
                }
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalStateException("corrupt producer id file " + file + ": " + lines
                + " (refusing to guess, which could reissue producer ids)");
    }

    /** Durably records that ids below {@code end} may have been handed out. */
    private static long write(Path file, long end) throws IOException {
        AtomicFile.write(file, VERSION + "\n" + end + "\n");
        return end;
    }

    @Override
    public void close() {
        List<CompletableFuture<Long>> pending;
        synchronized (this) {
            closed = true;
            pending = List.copyOf(waiters);
            waiters.clear();
        }
        for (CompletableFuture<Long> waiter : pending) {
            waiter.completeExceptionally(new IllegalStateException("producer id manager is closed"));
        }
        // Let a reservation in flight finish, so a manager reopened on the same dir never races with it.
        io.shutdown();
        try {
            io.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
