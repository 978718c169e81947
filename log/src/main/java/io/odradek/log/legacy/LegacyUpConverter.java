package io.odradek.log.legacy;

import io.odradek.log.LogAppendException;
import io.odradek.log.LogAppendException.RecordError;
import io.odradek.log.LogConfig;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.LegacyCodecs;
import io.odradek.wire.batch.LegacyMessage;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.xerial.snappy.SnappyError;

/**
 * Turns a produced magic 0 or magic 1 message set into the one v2 batch the log stores, validating it as
 * Kafka 3.9 did (UnifiedLog.analyzeAndValidateRecords, then LogValidator converting to magic 2):
 * <ul>
 * <li>Every outer message: size field at least 14 and magic 0-2 (CORRUPT_MESSAGE), at most
 *     max.message.bytes with its 12-byte overhead (MESSAGE_TOO_LARGE), CRC32 (CORRUPT_MESSAGE). Trailing bytes
 *     shorter than a whole message are dropped, as Kafka trims them; a set without one whole message is
 *     CORRUPT_MESSAGE (Kafka appended nothing and answered no error).</li>
 * <li>All messages of one magic (INVALID_RECORD); a compressed (wrapper) message must be the only one
 *     (INVALID_RECORD); its codec gzip, snappy or lz4 (zstd, or codec 5-7, INVALID_RECORD), its value not null,
 *     and it must hold at least one message (INVALID_RECORD). Magic 0 lz4 wrappers skip the frame header
 *     checksum (Kafka's ignoreFlagDescriptorChecksum); a stream that does not decompress is INVALID_RECORD.</li>
 * <li>Inner messages: CRC32 and size (CORRUPT_MESSAGE), not compressed themselves (INVALID_RECORD), a
 *     truncated last one dropped (as Kafka's DataLogInputStream); a magic 1 wrapper whose offset is neither 0
 *     nor at least its last inner (relative) offset is INVALID_RECORD.</li>
 * <li>Key and value lengths must fill each message exactly (CORRUPT_MESSAGE: Kafka would fail reading them).</li>
 * <li>Per record, collected as Kafka's record errors: magic of an inner message other than its wrapper's
 *     (INVALID_RECORD), no key on a compacted topic (INVALID_RECORD), a timestamp outside
 *     message.timestamp.before/after.max.ms of now on a CreateTime topic, or a LogAppendTime message where
 *     that check does not apply ("Producer should not set timestamp type to LogAppendTime") (INVALID_TIMESTAMP
 *     if any timestamp failed). An uncompressed set is checked message by message as Kafka's batches.</li>
 * </ul>
 * The batch: records in order with offset deltas 0..n-1, each with its message's timestamp (-1 for magic 0;
 * the wrapper's for messages in a magic 1 LogAppendTime wrapper), key and value, no headers; no producer id;
 * compressed with the topic's compression.type, "producer" meaning the wrapper's codec (none for an
 * uncompressed set). Offsets, LogAppendTime and the v2 checks are the normal append's.
 *
 * <p>Bounded: each inner message, and the whole decompressed set, may be at most
 * max.decompressed.message.bytes (INVALID_RECORD, as the magic 2 path answers a record past it), and the
 * whole set at most {@value #DECOMPRESSION_RATIO} x max.message.bytes (MESSAGE_TOO_LARGE; ~16 MB by default,
 * where max.decompressed.message.bytes is ~2 GB), each checked from the message's size field before its bytes are
 * read, and the decompressor itself stops one byte past the bound (snappy's declared block lengths are checked
 * before they are allocated). Inner messages are read one at a time, each decompressed straight into one
 * buffer of its size, and written at once into the output (compressed as it goes), which may not pass
 * max.message.bytes (MESSAGE_TOO_LARGE, as Kafka's check after conversion). So a produce holds at most one
 * inner message, the output and the codecs' windows.
 */
public final class LegacyUpConverter {
    private static final int MAX_REPORTED_ERRORS = 100;
    /** Decompressed bytes a produced message set may hold per byte of max.message.bytes. */
    static final int DECOMPRESSION_RATIO = 16;

    private final LogConfig config;
    private final String partitionName;
    private final long now;
    private final List<RecordError> errors = new ArrayList<>();
    private boolean timestampError;

    private LegacyUpConverter(LogConfig config, String topic, int partition, long now) {
        this.config = config;
        this.partitionName = topic + "-" + partition;
        this.now = now;
    }

    /** Whether the records of a produce request are an old message set: the first entry's magic is 0 or 1. */
    public static boolean isLegacy(ByteBuffer records) {
        int at = records.position() + LegacyMessage.MAGIC_OFFSET;
        return records.limit() > at && (records.get(at) == 0 || records.get(at) == 1);
    }

    /**
     * Validates the message set in {@code set} (position to limit; not modified) for {@code topic}-{@code partition}
     * under {@code config} at time {@code now} and returns the v2 batch it becomes, positioned at 0.
     *
     * @throws LogAppendException with Kafka's error code when the set is refused
     */
    public static ByteBuffer toBatch(ByteBuffer set, LogConfig config, String topic, int partition, long now) {
        return new LegacyUpConverter(config, topic, partition, now).convert(set.duplicate());
    }

    private ByteBuffer convert(ByteBuffer set) {
        int start = set.position();
        int end = analyze(set, start);
        LegacyMessage first = new LegacyMessage(set, start);
        byte magic = first.magic();
        int sourceCodec = LegacyCodecs.NONE;
        int messages = 0;
        LegacyMessage m = new LegacyMessage(set, start);
        for (int pos = start; pos < end; pos += m.totalSize()) {
            m.wrap(set, pos);
            if (m.magic() != magic) {
                throw invalid("Batch magic " + m.magic() + " is not the same as the first batch's magic byte " + magic
                        + " in topic partition " + partitionName);
            }
            if (m.codec() != LegacyCodecs.NONE) {
                sourceCodec = m.codec();
            }
            messages++;
        }
        if (sourceCodec != LegacyCodecs.NONE && messages > 1) {
            throw invalid("Compressed outer record has more than one batch");
        }
        if (sourceCodec > LegacyCodecs.LZ4) {
            // zstd (never allowed in these formats) or an unknown codec: refused before anything is built
            throw invalid("Invalid wrapper compressionType " + sourceCodec + " found in legacy deep record iterator"
                    + " (magic " + magic + ")");
        }
        int topicCodec = LegacyCodecs.forTopicConfig(config.get(LogConfig.COMPRESSION_TYPE));
        int target = topicCodec < 0 ? sourceCodec : topicCodec;
        ConvertedBatchBuilder out = new ConvertedBatchBuilder(target, config.maxMessageBytes(), partitionName);
        try {
            if (sourceCodec == LegacyCodecs.NONE) {
                for (int pos = start; pos < end; pos += m.totalSize()) {
                    m.wrap(set, pos);
                    checkFraming(m);
                    check(0, m, m.timestamp(), m.isLogAppendTime(), magic);
                    throwRecordErrors(); // Kafka: each uncompressed message is a batch of its own
                    out.add(m.timestamp(), m.key(), m.value());
                }
            } else {
                convertWrapper(first, out);
            }
            return out.build();
        } catch (IOException e) {
            out.abort();
            throw invalid("Failed to convert the message set: " + e);
        } catch (RuntimeException e) {
            out.abort();
            throw e;
        }
    }

    /**
     * Kafka's shallow pass over the outer messages; returns where the whole messages end.
     */
    private int analyze(ByteBuffer set, int start) {
        int limit = set.limit();
        int pos = start;
        LegacyMessage m = new LegacyMessage(set, start);
        while (limit - pos >= LegacyMessage.LOG_OVERHEAD) {
            m.wrap(set, pos);
            int size = m.size();
            if (size < LegacyMessage.RECORD_OVERHEAD_V0) {
                throw corrupt("Record size " + size + " is less than the minimum record overhead ("
                        + LegacyMessage.RECORD_OVERHEAD_V0 + ")");
            }
            if (limit - pos < LegacyMessage.MAGIC_OFFSET + 1) {
                break;
            }
            byte magic = m.magic();
            if (magic < 0 || magic > 2) {
                throw corrupt("Invalid magic found in record: " + magic);
            }
            if ((long) size + LegacyMessage.LOG_OVERHEAD > limit - pos) {
                break; // a partial message at the end: trimmed, as Kafka does
            }
            if (magic == 2) {
                throw invalid("Batch magic 2 is not the same as the first batch's magic byte "
                        + set.get(start + LegacyMessage.MAGIC_OFFSET) + " in topic partition " + partitionName);
            }
            long total = (long) size + LegacyMessage.LOG_OVERHEAD;
            if (total > config.maxMessageBytes()) {
                throw new LogAppendException(ErrorCode.MESSAGE_TOO_LARGE, "The record batch size in the append to "
                        + partitionName + " is " + total + " bytes which exceeds the maximum configured value of "
                        + config.maxMessageBytes() + ".");
            }
            if (!m.isValidCrc()) {
                throw corrupt("Record is corrupt (stored crc = " + m.storedCrc() + ") in topic partition "
                        + partitionName + ".");
            }
            pos += (int) total;
        }
        if (pos == start) {
            throw corrupt("no complete message in the message set of " + (limit - start) + " bytes for "
                    + partitionName);
        }
        return pos;
    }

    private void convertWrapper(LegacyMessage wrapper, ConvertedBatchBuilder out) throws IOException {
        int codec = wrapper.codec();
        byte magic = wrapper.magic();
        checkFraming(wrapper);
        ByteBuffer value = wrapper.value();
        if (value == null) {
            throw invalid("Found invalid compressed record set with null value (magic = " + magic + ")");
        }
        boolean wrapperLogAppendTime = wrapper.isLogAppendTime();
        long wrapperTimestamp = wrapper.timestamp();
        int maxRecord = config.maxDecompressedMessageBytes();
        long limit = Math.min(maxRecord, decompressionLimit(config));
        long decompressed = 0;
        long lastInnerOffset = -1;
        int index = 0;
        byte[] head = new byte[LegacyMessage.LOG_OVERHEAD];
        try (InputStream in = LegacyCodecs.input(codec, magic, value, limit)) {
            while (true) {
                int n = in.readNBytes(head, 0, head.length);
                if (n < head.length) {
                    break; // the end, or a truncated entry that Kafka's reader drops
                }
                int size = ByteBuffer.wrap(head).getInt(8);
                if (size < LegacyMessage.RECORD_OVERHEAD_V0) {
                    throw corrupt("Record size is less than the minimum record overhead ("
                            + LegacyMessage.RECORD_OVERHEAD_V0 + ")");
                }
                if (size > maxRecord) {
                    // as the magic 2 path answers a record over max.decompressed.message.bytes
                    throw invalid("Invalid record size: " + size + " exceeds the configured maximum record size of "
                            + maxRecord + ".");
                }
                decompressed += LegacyMessage.LOG_OVERHEAD + (long) size;
                if (decompressed > limit) {
                    throw tooMuchDecompressed();
                }
                // The one copy of the message: the decompressor writes it in place; at most the limit, checked above.
                ByteBuffer entry = ByteBuffer.allocate(LegacyMessage.LOG_OVERHEAD + size).put(head);
                if (in.readNBytes(entry.array(), LegacyMessage.LOG_OVERHEAD, size) < size) {
                    break; // truncated last message: dropped, as Kafka's DataLogInputStream
                }
                LegacyMessage inner = new LegacyMessage(entry, 0);
                if (!inner.isValidCrc()) {
                    throw corrupt("Record is corrupt (stored crc = " + inner.storedCrc() + ", computed crc = "
                            + inner.computeCrc() + ") in topic partition " + partitionName);
                }
                if (inner.codec() != LegacyCodecs.NONE) {
                    throw invalid("Inner messages must not be compressed");
                }
                checkFraming(inner);
                // Kafka: a magic 1 inner message takes its wrapper's timestamp type, and its time when that is LogAppendTime.
                long timestamp = inner.magic() == 0 ? LegacyMessage.NO_TIMESTAMP
                        : wrapperLogAppendTime ? wrapperTimestamp : inner.timestamp();
                check(index, inner, timestamp, inner.magic() > 0 && wrapperLogAppendTime, magic);
                if (errors.isEmpty()) {
                    out.add(timestamp, inner.key(), inner.value());
                }
                lastInnerOffset = inner.offset();
                index++;
            }
        } catch (LegacyCodecs.LimitExceeded e) {
            throw tooMuchDecompressed();
        } catch (SnappyError | RuntimeException e) {
            if (e instanceof LogAppendException refused) {
                throw refused;
            }
            throw invalid("Failed to decompress the message set (codec " + codec + "): " + e);
        } catch (EOFException e) {
            throw invalid("Failed to decompress the message set (codec " + codec + "): " + e);
        }
        if (index == 0) {
            throw invalid("Found invalid compressed record set with no inner records");
        }
        if (magic == 1 && wrapper.offset() != 0 && wrapper.offset() < lastInnerOffset) {
            throw invalid("Found invalid wrapper offset in compressed v1 message set, wrapper offset '"
                    + wrapper.offset() + "' is less than the last inner message offset '" + lastInnerOffset
                    + "' and it is not zero.");
        }
        throwRecordErrors();
    }

    /**
     * The most bytes one produced magic 0/1 message set may decompress to: {@value #DECOMPRESSION_RATIO} times
     * max.message.bytes (max.decompressed.message.bytes bounds each record, as on the magic 2 path, but by
     * default only at ~2 GB). Kafka 3.9 had no such bound and decompressed a wrapper whole into its heap.
     */
    static long decompressionLimit(LogConfig config) {
        return Math.min(Integer.MAX_VALUE, (long) DECOMPRESSION_RATIO * config.maxMessageBytes());
    }

    /**
     * The refusal of a set that decompresses past its bound. Past max.decompressed.message.bytes: INVALID_RECORD,
     * as the magic 2 path refuses a record past it. Past {@value #DECOMPRESSION_RATIO} x max.message.bytes:
     * MESSAGE_TOO_LARGE, Kafka's RecordTooLargeException, which is what Kafka answers a message set too large
     * once converted (its check of the converted batch against max.message.bytes); a set too large once
     * decompressed is the same kind of refusal (nothing in it is invalid, it is too big for this broker), and
     * Java producers split a compressed batch refused so and retry the halves.
     */
    private LogAppendException tooMuchDecompressed() {
        long ratioLimit = decompressionLimit(config);
        int maxDecompressed = config.maxDecompressedMessageBytes();
        if (maxDecompressed <= ratioLimit) {
            return invalid("The decompressed message set exceeds the configured maximum of " + maxDecompressed
                    + " bytes (" + LogConfig.MAX_DECOMPRESSED_MESSAGE_BYTES + ").");
        }
        return new LogAppendException(ErrorCode.MESSAGE_TOO_LARGE, "The compressed message set in the append to "
                + partitionName + " decompresses to more than " + ratioLimit + " bytes, " + DECOMPRESSION_RATIO
                + " times the maximum configured message size of " + config.maxMessageBytes() + ".");
    }

    private void checkFraming(LegacyMessage m) {
        String error = m.framingError();
        if (error != null) {
            throw corrupt(error + " in topic partition " + partitionName);
        }
    }

    /** Kafka's validateRecord for one message: its magic, key and timestamp; errors collected. */
    private void check(int index, LegacyMessage m, long timestamp, boolean logAppendTimeType, byte outerMagic) {
        if (m.magic() != outerMagic) {
            add(index, "Record " + m + "'s magic does not match outer magic " + outerMagic + " in topic partition "
                    + partitionName);
            return;
        }
        if (config.isCompact() && m.keySize() < 0) {
            add(index, "Compacted topic cannot accept message without key in topic partition " + partitionName);
            return;
        }
        if (!config.isLogAppendTime() && timestamp != LegacyMessage.NO_TIMESTAMP) {
            long diff = now - timestamp;
            if (diff > config.timestampBeforeMaxMs() || -diff > config.timestampAfterMaxMs()) {
                timestampError = true;
                add(index, "Timestamp " + timestamp + " of message with offset " + m.offset()
                        + " is out of range. The timestamp should be within [" + (now - config.timestampBeforeMaxMs())
                        + ", " + (now + config.timestampAfterMaxMs()) + "]");
            }
        } else if (logAppendTimeType) {
            timestampError = true;
            add(index, "Invalid timestamp type in message " + m + ". Producer should not set timestamp type to"
                    + " LogAppendTime.");
        }
    }

    private void add(int index, String message) {
        if (errors.size() < MAX_REPORTED_ERRORS) {
            errors.add(new RecordError(index, message));
        }
    }

    private void throwRecordErrors() {
        if (errors.isEmpty()) {
            return;
        }
        if (timestampError) {
            throw new LogAppendException(ErrorCode.INVALID_TIMESTAMP,
                    "One or more records have been rejected due to invalid timestamp", errors);
        }
        throw new LogAppendException(ErrorCode.INVALID_RECORD, "One or more records have been rejected due to "
                + errors.size() + " record errors in total, and only showing the first three errors at most: "
                + errors.subList(0, Math.min(3, errors.size())), errors);
    }

    private static LogAppendException corrupt(String message) {
        return new LogAppendException(ErrorCode.CORRUPT_MESSAGE, message);
    }

    private static LogAppendException invalid(String message) {
        return new LogAppendException(ErrorCode.INVALID_RECORD, message);
    }
}
