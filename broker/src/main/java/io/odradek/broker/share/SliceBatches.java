package io.odradek.broker.share;

import io.odradek.coordinator.share.partition.LogBatch;
import io.odradek.log.FileSlice;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole record batches of a fetched file slice, found from their headers only: positional reads of each
 * batch's first bytes (offsets, length, magic), never its records, so a share fetch decides what to acquire
 * without bringing record bytes into the heap. A batch cut off by the end of the slice is left out (the next
 * fetch starts at it). v2 batches give base and last offset, producer id and transactional flag; an old-format (magic 0/1) entry counts as the
 * one offset it carries (a compressed magic 0/1 wrapper's inner offsets are not looked at).
 */
public final class SliceBatches {
    /** A v2 batch header (61 bytes): what is read of each batch, never more. */
    private static final int HEADER_READ = 61;
    private static final int LOG_OVERHEAD = 12;
    private static final int MAGIC_AT = 16;
    private static final int ATTRIBUTES_AT = 21;
    private static final int LAST_OFFSET_DELTA_AT = 23;
    private static final int PRODUCER_ID_AT = 43;
    private static final short TRANSACTIONAL = 0x10;

    private final FileSlice slice;
    private final List<LogBatch> batches;
    private final long[] positions;
    private final int[] sizes;

    private SliceBatches(FileSlice slice, List<LogBatch> batches, long[] positions, int[] sizes) {
        this.slice = slice;
        this.batches = batches;
        this.positions = positions;
        this.sizes = sizes;
    }

    /** Reads the batch headers of {@code slice}. */
    public static SliceBatches of(FileSlice slice) {
        return of(slice, 0, Long.MAX_VALUE);
    }

    /**
     * Reads the batch headers of {@code slice} until the batches read cover {@code maxRecords} offsets from
     * {@code fromOffset} (the share partition's next fetch offset): acquisition stops at MaxRecords, so the
     * headers past that are not read (on the event loop) at all.
     */
    public static SliceBatches of(FileSlice slice, long fromOffset, long maxRecords) {
        long coverUpTo = maxRecords <= 0 || fromOffset >= Long.MAX_VALUE - maxRecords
                ? Long.MAX_VALUE : fromOffset + maxRecords - 1;
        List<LogBatch> batches = new ArrayList<>();
        List<long[]> where = new ArrayList<>();
        ByteBuffer header = ByteBuffer.allocate(HEADER_READ);
        long end = slice.position() + slice.size();
        long at = slice.position();
        try {
            while (at + LOG_OVERHEAD <= end) {
                header.clear();
                int want = (int) Math.min(HEADER_READ, end - at);
                header.limit(want);
                readFully(slice, header, at);
                long baseOffset = header.getLong(0);
                int size = LOG_OVERHEAD + header.getInt(8);
                if (size <= LOG_OVERHEAD || at + size > end || want < MAGIC_AT + 1) {
                    break; // cut off by the slice's end (or not a batch): a later fetch reads it whole
                }
                byte magic = header.get(MAGIC_AT);
                if (magic >= 2 && want >= PRODUCER_ID_AT + 8) {
                    // With the producer id and transactional flag: read_committed share groups archive aborted batches.
                    batches.add(new LogBatch(baseOffset, baseOffset + header.getInt(LAST_OFFSET_DELTA_AT),
                            header.getLong(PRODUCER_ID_AT), (header.getShort(ATTRIBUTES_AT) & TRANSACTIONAL) != 0));
                } else {
                    batches.add(new LogBatch(baseOffset, baseOffset));
                }
                where.add(new long[] {at, size});
                at += size;
                if (batches.get(batches.size() - 1).lastOffset() >= coverUpTo) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read batch headers of a fetched slice", e);
        }
        long[] positions = new long[where.size()];
        int[] sizes = new int[where.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = where.get(i)[0];
            sizes[i] = (int) where.get(i)[1];
        }
        return new SliceBatches(slice, List.copyOf(batches), positions, sizes);
    }

    private static void readFully(FileSlice slice, ByteBuffer into, long at) throws IOException {
        long pos = at;
        while (into.hasRemaining()) {
            int n = slice.channel().read(into, pos);
            if (n < 0) {
                throw new EOFException("segment ended inside a fetched slice at " + pos);
            }
            pos += n;
        }
    }

    public List<LogBatch> batches() {
        return batches;
    }

    public boolean isEmpty() {
        return batches.isEmpty();
    }

    /**
     * The part of the slice from the batch holding {@code firstOffset} through the batch holding
     * {@code lastOffset} (the acquired range): the records sent, still a file range (zero-copy). Records of
     * those batches outside the acquired ranges go too; the consumer keeps only the acquired ones, as Kafka's
     * does.
     */
    public FileSlice trimTo(long firstOffset, long lastOffset) {
        int first = -1;
        int last = -1;
        for (int i = 0; i < batches.size(); i++) {
            LogBatch b = batches.get(i);
            if (first < 0 && b.lastOffset() >= firstOffset) {
                first = i;
            }
            if (b.baseOffset() <= lastOffset) {
                last = i;
            }
        }
        if (first < 0 || last < first) {
            return new FileSlice(slice.channel(), slice.position(), 0, firstOffset, firstOffset);
        }
        long start = positions[first];
        long stop = positions[last] + sizes[last];
        return new FileSlice(slice.channel(), start, (int) (stop - start), batches.get(first).baseOffset(),
                batches.get(last).lastOffset() + 1);
    }
}
