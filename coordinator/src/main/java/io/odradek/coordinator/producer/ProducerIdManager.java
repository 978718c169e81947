package io.odradek.coordinator.producer;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * Hands out producer ids no producer has had before, in this broker or any other, restarts included.
 * Single node: {@link FileProducerIdManager} reserves blocks in a file; cluster: {@link BlockProducerIdManager}
 * gets blocks from the controller. Thread-safe; callers on event loops must not wait on the future.
 */
public interface ProducerIdManager extends AutoCloseable {
    /** The file-based manager's file, in the broker's first log dir. */
    String FILE_NAME = "producer-ids";
    /** Kafka's block size (ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE). */
    int DEFAULT_BLOCK_SIZE = 1000;

    /**
     * A new producer id; completes at once unless the next block is still being fetched. Fails when no
     * block could be had (the next call tries again).
     */
    CompletableFuture<Long> nextProducerId();

    /** Fails what still waits for an id; no id is handed out afterwards. */
    @Override
    void close();

    /** A single node's manager over the file in {@code dir} (see {@link FileProducerIdManager#open}). */
    static ProducerIdManager open(Path dir, int blockSize) {
        return FileProducerIdManager.open(dir, blockSize);
    }

    static ProducerIdManager open(Path dir) {
        return FileProducerIdManager.open(dir, DEFAULT_BLOCK_SIZE);
    }
}
