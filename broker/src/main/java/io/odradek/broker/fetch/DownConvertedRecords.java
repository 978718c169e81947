package io.odradek.broker.fetch;

import io.odradek.log.FileSlice;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.LegacyCodecs;
import io.odradek.wire.batch.LegacyMessageSetWriter;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.batch.RecordBatchReader;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.WireWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The records of a Fetch v0-3 partition: the v2 batches of this response's file slice converted down to a
 * magic 0 (Fetch v0-1) or magic 1 (Fetch v2-3) message set, as Kafka 3.9's down-conversion
 * ({@code LazyDownConversionRecords}, {@code RecordsUtil.downConvert}) served old consumers. Built once
 * when the response is, held in one heap array and copied into the response when it is written; nothing
 * is cached. The magic 2 path (Fetch v4+) never comes here and stays a file region.
 *
 * <ul>
 * <li>Only whole batches of the slice are converted; a partial last batch is dropped. Control batches
 *     (transaction markers) are dropped; transactional data is served whatever became of its transaction,
 *     as Kafka served these versions (read_uncommitted); headers are lost.</li>
 * <li>An uncompressed batch becomes one message per record, from the fetch offset on; a compressed one
 *     (gzip, snappy, lz4) becomes one wrapper message of the same codec holding its records (magic 0:
 *     absolute inner offsets; magic 1: relative ones, the wrapper at the last offset, its timestamp the
 *     largest; LogAppendTime batches stamp their time on every message). A zstd batch cannot be expressed:
 *     UNSUPPORTED_COMPRESSION_TYPE for the partition when it comes first, else the data stops before it (the
 *     consumer's next fetch starts there and gets the error), as Kafka.</li>
 * <li>Bounded: the slice is read into the heap only up to {@code readLimit} bytes. For Fetch v0-2, which
 *     have no KIP-74, that is the partition's limit, so a first batch larger than it converts to nothing
 *     (Kafka 3.9 cut the read there too and sent an empty set); Fetch v3 gets its whole first batch. The
 *     first converted batch always goes in whole; later messages only while the set stays within
 *     max(bytes read, that first converted batch), the size Kafka committed the response to (Kafka then cut
 *     the last message short; here it is left out). A slice that cannot be read (its segment deleted or
 *     closed meanwhile) is KAFKA_STORAGE_ERROR for the partition.</li>
 * <li>Decompression is bounded before it happens, from each record's length: keys and values of at most
 *     max(bytes read, a decompression limit the caller gives: the partition's share of the response's max
 *     bytes) are converted. The first record at or past the fetch offset goes whatever the limit, up to a hard
 *     cap (the response's max bytes); a first record past the cap gives an empty set, no error (Kafka 3.9
 *     sent old consumers an empty set when their first message did not fit; their clients report it too
 *     large for the fetch size). A later record past the limit ends the data before it (a wrapper then
 *     holds the records of its batch before it: the consumer's next fetch starts inside the batch); records
 *     of a compressed batch below the fetch offset are kept (as Kafka) only while they fit, so the consumer
 *     always progresses. Messages are written straight into one growing array (one past the budget is cut
 *     off again), which the response copies once. The conversion runs where the response is built (the
 *     connection's event loop), as Kafka's ran on its network threads, with a blocking positional read of
 *     the slice: its work is bounded by those limits, not moved off the loop.</li>
 * </ul>
 */
public final class DownConvertedRecords implements Records {
    private final byte[] bytes;
    private final int size;

    private DownConvertedRecords(byte[] bytes, int size) {
        this.bytes = bytes;
        this.size = size;
    }

    /**
     * What a partition answers: an error (then no records), or the converted records; {@code decompressed}
     * is the bytes of keys and values converted (what the response's conversion budget is charged).
     */
    public record Result(ErrorCode error, Records records, long decompressed) {
        Result(ErrorCode error, Records records) {
            this(error, records, 0);
        }
    }

    /** Fetch v4+ read v2 batches as stored; v0-3 get them converted here. */
    public static final short FIRST_V2_FETCH_VERSION = 4;

    /** Fetch v10 brought zstd (KIP-110): consumers fetching a zstd topic at an older version are refused. */
    public static final short FIRST_ZSTD_FETCH_VERSION = 10;

    /**
     * A Fetch v0-3 partition's answer from its read (Kafka 3.9's KafkaApis.maybeConvertFetchedData): a topic
     * whose compression.type is zstd is UNSUPPORTED_COMPRESSION_TYPE for these versions whatever its data;
     * else the slice (null when nothing was read) converted to the version's magic. v0-2 (no KIP-74) read at
     * most {@code partitionLimit} bytes of it; v3 its whole first batch. Keys and values of at most
     * max(bytes read, {@code decompressLimit}) bytes are converted; {@code firstRecordCap} is the hard cap on
     * the first record asked for (see {@link #convert(ByteBuffer, byte, long, int, int)}).
     */
    public static Result forFetch(short version, String topicCompressionType, FileSlice slice, long fetchOffset,
            int partitionLimit, int decompressLimit, int firstRecordCap) {
        if ("zstd".equals(topicCompressionType)) {
            return new Result(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, null);
        }
        if (slice == null || slice.isEmpty()) {
            return new Result(ErrorCode.NONE, null);
        }
        return convert(slice, magicFor(version), fetchOffset, version <= 2 ? partitionLimit : Integer.MAX_VALUE,
                decompressLimit, firstRecordCap);
    }

    /** The message format a Fetch version reads: magic 0 for v0-1, magic 1 for v2-3. */
    public static byte magicFor(short fetchVersion) {
        return fetchVersion <= 1 ? (byte) 0 : (byte) 1;
    }

    /**
     * Converts the whole batches among the first {@code readLimit} bytes of {@code slice} to {@code toMagic},
     * decompressing at most max(bytes read, {@code decompressLimit}) bytes of keys and values, the first
     * record at or past the fetch offset up to {@code firstRecordCap}. A slice that cannot be read (e.g. its
     * segment was deleted by retention meanwhile) is KAFKA_STORAGE_ERROR for the partition.
     *
     * @param fetchOffset records of uncompressed batches below it are left out
     */
    public static Result convert(FileSlice slice, byte toMagic, long fetchOffset, int readLimit, int decompressLimit,
            int firstRecordCap) {
        ByteBuffer read;
        try {
            read = read(slice, Math.min(slice.size(), Math.max(0, readLimit)));
        } catch (IOException | RuntimeException e) {
            return new Result(ErrorCode.KAFKA_STORAGE_ERROR, null);
        }
        return convert(read, toMagic, fetchOffset, Math.max(read.remaining(), decompressLimit), firstRecordCap);
    }

    /** As {@link #convert(FileSlice, byte, long, int, int, int)} with no limit on decompression beyond the bytes read. */
    public static Result convert(FileSlice slice, byte toMagic, long fetchOffset, int readLimit) {
        return convert(slice, toMagic, fetchOffset, readLimit, 0, Integer.MAX_VALUE);
    }

    /** Converts the batches in {@code batches} (position to limit), decompressing at most as many bytes as they hold. */
    public static Result convert(ByteBuffer batches, byte toMagic, long fetchOffset) {
        return convert(batches, toMagic, fetchOffset, batches.remaining(), Integer.MAX_VALUE);
    }

    /**
     * Converts the batches in {@code batches} (position to limit). Keys and values of at most
     * {@code decompressLimit} bytes in all are converted; the first record at or past {@code fetchOffset} goes
     * in whatever its size up to {@code firstRecordCap} (larger: nothing is answered, as Kafka 3.9 answered
     * an old consumer whose first message did not fit: an empty set, its client reports the message too
     * large for its fetch size); a later record past the limit ends the data before it (a wrapper then holds
     * the records before it), and records below the fetch offset that do not fit are left out.
     */
    public static Result convert(ByteBuffer batches, byte toMagic, long fetchOffset, int decompressLimit,
            int firstRecordCap) {
        int budget = batches.remaining();
        Output out = new Output(Math.min(budget + 64, 1 << 20));
        RecordBatchHeader h = new RecordBatchHeader(batches, batches.position());
        int limit = batches.limit();
        long decompressed = 0;
        boolean anyAtFetchOffset = false;
        try {
            convert:
            for (int pos = batches.position(); limit - pos >= RecordBatchHeader.HEADER_SIZE; pos += h.totalSize()) {
                h.wrap(batches, pos);
                if (h.magic() != RecordBatchHeader.MAGIC_V2 || h.totalSize() < RecordBatchHeader.HEADER_SIZE
                        || h.totalSize() > limit - pos) {
                    break; // a partial last batch
                }
                if (h.isControlBatch()) {
                    continue;
                }
                int codec = h.compressionType();
                if (codec == LegacyCodecs.ZSTD) {
                    if (out.size() == 0) {
                        return new Result(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, null);
                    }
                    break;
                }
                boolean logAppendTime = h.isLogAppendTime();
                // Kafka always sends the first converted batch whole, whatever the bytes read.
                boolean first = out.size() == 0;
                int outputBudget = first ? Integer.MAX_VALUE : budget;
                LegacyMessageSetWriter.Wrapper wrapper = codec == LegacyCodecs.NONE ? null
                        : new LegacyMessageSetWriter.Wrapper(toMagic, codec, logAppendTime, h.maxTimestamp());
                boolean stop = false;
                try (RecordBatchReader reader = RecordBatchReader.open(h)) {
                    while (reader.next()) {
                        boolean below = reader.offset() < fetchOffset;
                        if (below && wrapper == null) {
                            continue;
                        }
                        // Bounded before anything is decompressed: the record's remaining length caps its key and value.
                        int size = reader.bytesLeftInRecord();
                        boolean fits = decompressed + size <= decompressLimit;
                        if (!fits && !below && !anyAtFetchOffset && size <= firstRecordCap) {
                            fits = true; // the first record the consumer asked for always goes, up to the cap
                        }
                        if (!fits) {
                            if (below) {
                                continue;
                            }
                            stop = true;
                            break;
                        }
                        decompressed += size;
                        anyAtFetchOffset |= !below;
                        if (wrapper != null) {
                            wrapper.add(reader.offset(), reader.timestamp(), reader.key(), reader.value());
                            continue;
                        }
                        int mark = out.size();
                        LegacyMessageSetWriter.write(out, reader.offset(), toMagic,
                                LegacyMessageSetWriter.attributes(toMagic, 0, logAppendTime), reader.timestamp(),
                                reader.key(), reader.value());
                        if (out.size() > outputBudget) {
                            out.truncate(mark);
                            break convert;
                        }
                    }
                }
                if (wrapper != null && wrapper.count() > 0 && anyAtFetchOffset) { // else emptied by compaction, or nothing fitted
                    int mark = out.size();
                    wrapper.writeTo(out);
                    if (out.size() > outputBudget) {
                        out.truncate(mark);
                        break;
                    }
                }
                if (stop) {
                    break;
                }
            }
        } catch (IOException | RuntimeException | org.xerial.snappy.SnappyError e) {
            // A batch that does not read back (the log checked its CRC at append): serve what came before it.
            if (out.size() == 0) {
                return new Result(ErrorCode.CORRUPT_MESSAGE, null, decompressed);
            }
        }
        return new Result(ErrorCode.NONE, new DownConvertedRecords(out.bytes(), out.size()), decompressed);
    }

    /** The converted set, written in place: a message that passes the budget is cut off again, not copied. */
    private static final class Output extends ByteArrayOutputStream {
        Output(int initial) {
            super(initial);
        }

        void truncate(int size) {
            count = size;
        }

        /** The backing array, not a copy: valid up to {@link #size()}. */
        byte[] bytes() {
            return buf;
        }
    }

    private static ByteBuffer read(FileSlice slice, int length) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(length);
        long at = slice.position();
        while (buf.hasRemaining()) {
            int n = slice.channel().read(buf, at);
            if (n < 0) {
                break;
            }
            at += n;
        }
        return buf.flip();
    }

    @Override
    public int sizeInBytes() {
        return size;
    }

    @Override
    public void writeTo(WireWriter out) {
        out.buf().writeBytes(bytes, 0, size);
    }
}
