package io.odradek.log.segment;

import io.odradek.wire.batch.RecordBatchHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Reads one 61-byte batch header at a time from a file with positional reads; reuses one small buffer. */
final class BatchHeaderReader {
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(RecordBatchHeader.HEADER_SIZE);
    private final RecordBatchHeader header = new RecordBatchHeader(buffer, 0);

    BatchHeaderReader(FileChannel channel) {
        this.channel = channel;
    }

    /** The header at {@code position}, or null when a whole header does not lie before {@code end} or is malformed. */
    RecordBatchHeader read(long position, long end) throws IOException {
        if (end - position < RecordBatchHeader.HEADER_SIZE) {
            return null;
        }
        buffer.clear();
        long p = position;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, p);
            if (n < 0) {
                return null;
            }
            p += n;
        }
        // A length below the header size cannot be a batch; callers treat it like a torn tail.
        return header.batchLength() < RecordBatchHeader.MIN_BATCH_LENGTH ? null : header;
    }
}
