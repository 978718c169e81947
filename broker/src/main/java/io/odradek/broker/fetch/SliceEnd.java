package io.odradek.broker.fetch;

import io.odradek.log.FileSlice;
import io.odradek.wire.batch.RecordBatchHeader;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The offset just past the batches of a fetch slice: the upper bound of the aborted transactions a
 * read_committed response carries (Kafka bounds them by the offset after the data it returns, so a consumer
 * catching up does not get the whole partition's aborted list with every fetch). Found by reading the batch
 * headers of the slice, 27 bytes each, from the page cache the slice is about to be sent from anyway.
 */
public final class SliceEnd {
    /** Base offset, length, ..., last offset delta: the header bytes needed to step and to end. */
    private static final int NEEDED = RecordBatchHeader.LAST_OFFSET_DELTA_OFFSET + 4;

    private SliceEnd() {
    }

    /**
     * The last offset + 1 of the last batch whose header lies inside the slice (a batch cut short at the
     * end counts: the consumer drops it, and an aborted transaction it belongs to is harmless); the slice's
     * first offset when it is empty; {@code fallback} if the file cannot be read.
     */
    public static long nextOffset(FileSlice slice, long fallback) {
        long end = slice.position() + slice.size();
        long position = slice.position();
        long next = slice.firstOffset();
        ByteBuffer header = ByteBuffer.allocate(NEEDED);
        try {
            while (end - position >= NEEDED) {
                header.clear();
                while (header.hasRemaining()) {
                    if (slice.channel().read(header, position + header.position()) < 0) {
                        return fallback;
                    }
                }
                int length = header.getInt(RecordBatchHeader.BATCH_LENGTH_OFFSET);
                if (length < NEEDED) {
                    return fallback; // not a batch the log would have written
                }
                next = header.getLong(RecordBatchHeader.BASE_OFFSET_OFFSET)
                        + header.getInt(RecordBatchHeader.LAST_OFFSET_DELTA_OFFSET) + 1;
                position += RecordBatchHeader.LOG_OVERHEAD + length;
            }
        } catch (IOException e) {
            return fallback;
        }
        return next;
    }
}
