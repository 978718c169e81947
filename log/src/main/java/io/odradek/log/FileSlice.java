package io.odradek.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A range of a segment file holding whole record batches (the last one may be cut short, which fetchers
 * accept). The broker sends it with {@code FileChannel.transferTo}; no record bytes are read into the heap.
 *
 * @param channel     the segment's channel; it stays open at least file.delete.delay.ms after a segment is deleted
 * @param position    byte position of the first batch
 * @param size        bytes in the slice; 0 for a read at the log end offset
 * @param firstOffset base offset of the first batch in the slice (the fetch offset itself when empty)
 * @param upperBoundOffset an offset at or past the end of the slice's last batch, found without reading
 *                    the file (Kafka's fetchUpperBoundOffset): exactly the offset after the slice when it
 *                    ends at whole batches, else the sparse offset index's next entry, the next segment's
 *                    base or the read's end. A read_committed fetch lists the aborted transactions below it
 *                    (any that start past the data returned are ignored by consumers)
 */
public record FileSlice(FileChannel channel, long position, int size, long firstOffset, long upperBoundOffset) {

    /** A slice whose upper bound is unknown: Long.MAX_VALUE, which bounds nothing. */
    public FileSlice(FileChannel channel, long position, int size, long firstOffset) {
        this(channel, position, size, firstOffset, Long.MAX_VALUE);
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** Copies the slice to {@code target} with sendfile where the OS supports it; handy for tests and tools. */
    public long transferTo(WritableByteChannel target) throws IOException {
        long done = 0;
        while (done < size) {
            long n = channel.transferTo(position + done, size - done, target);
            if (n <= 0) {
                break;
            }
            done += n;
        }
        return done;
    }

    /**
     * The slice's bytes in a new heap buffer, for the few readers that must parse records (a coordinator
     * loading its state); the fetch path never calls this. Shorter if the file ends first.
     */
    public ByteBuffer readIntoHeap() {
        ByteBuffer buf = ByteBuffer.allocate(size);
        try {
            long at = position;
            while (buf.hasRemaining()) {
                int n = channel.read(buf, at);
                if (n < 0) {
                    break;
                }
                at += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + size + " bytes at " + position, e);
        }
        return buf.flip();
    }
}
