package io.odradek.log.validation;

import static io.odradek.log.validation.RecordChecks.invalid;

import io.odradek.log.LogAppendException;
import io.odradek.wire.batch.RecordBatchHeader;
import java.nio.ByteBuffer;

/**
 * Walks the records of an uncompressed v2 batch in place: absolute reads and index arithmetic on the
 * request's buffer, varints decoded inline, nothing allocated per record. Checks each record's framing
 * as Kafka's {@code DefaultRecord.readFrom} would reject it (errors are INVALID_RECORD), plus what Kafka
 * lets through but a reader trips on: a key, value or header value length below -1, and any length that
 * runs past its record. The batch must hold exactly its declared count of records and nothing after them.
 *
 * <p>Record layout: length varint, attributes int8, timestampDelta varlong, offsetDelta varint, key length
 * varint + key, value length varint + value, header count varint, then per header key length varint + key
 * and value length varint + value.
 */
final class UncompressedRecords {
    private final ByteBuffer buf;
    private final int end;
    private int pos;
    /** The record being read, for messages. */
    private int index;

    private UncompressedRecords(ByteBuffer buf, int start, int end) {
        this.buf = buf;
        this.pos = start;
        this.end = end;
    }

    /** Walks the records of the batch {@code h} points at (its whole length is in the buffer). */
    static void walk(RecordBatchHeader h, RecordChecks checks) {
        int start = h.position() + RecordBatchHeader.HEADER_SIZE;
        new UncompressedRecords(h.buffer(), start, h.position() + h.totalSize()).walk(h.recordsCount(), checks);
    }

    private void walk(int count, RecordChecks checks) {
        for (index = 0; index < count; index++) {
            if (pos >= end) {
                throw invalid("Incorrect declared batch size, premature EOF reached: the batch declares " + count
                        + " records but holds " + index);
            }
            int length = readVarint(end);
            if (length < 0) {
                throw invalid("Invalid record size: " + length + " is negative.");
            }
            if (length > end - pos) {
                throw invalid("Invalid record size: expected " + length + " bytes in record payload, but instead the"
                        + " buffer has only " + (end - pos) + " remaining bytes.");
            }
            int bodyStart = pos;
            int bodyEnd = pos + length;
            if (pos >= bodyEnd) {
                throw overrun("attributes", bodyEnd);
            }
            pos++; // attributes: unused in v2 records
            long timestampDelta = readVarlong(bodyEnd);
            int offsetDelta = readVarint(bodyEnd);
            int keyLength = readVarint(bodyEnd);
            skipBytes("key", keyLength, bodyEnd);
            int valueLength = readVarint(bodyEnd);
            skipBytes("value", valueLength, bodyEnd);
            int headers = readVarint(bodyEnd);
            if (headers < 0) {
                throw invalid("Found invalid number of record headers " + headers);
            }
            if (headers > bodyEnd - pos) {
                throw invalid("Found invalid number of record headers. " + headers
                        + " is larger than the remaining size of the buffer");
            }
            for (int i = 0; i < headers; i++) {
                int keySize = readVarint(bodyEnd);
                if (keySize < 0) {
                    throw invalid("Invalid negative header key size " + keySize);
                }
                skipBytes("header key", keySize, bodyEnd);
                skipBytes("header value", readVarint(bodyEnd), bodyEnd);
            }
            if (pos != bodyEnd) {
                throw invalid("Invalid record size: expected to read " + length + " bytes in record payload, but"
                        + " instead read " + (pos - bodyStart));
            }
            checks.record(index, timestampDelta, offsetDelta, keyLength, valueLength);
        }
        if (pos != end) {
            throw invalid("Incorrect declared batch size, records still remaining in file: " + (end - pos)
                    + " bytes after record " + (count - 1));
        }
    }

    /** Skips a length-prefixed field: -1 is null, below that or past the record is malformed. */
    private void skipBytes(String what, int length, int bodyEnd) {
        if (length < -1) {
            throw invalid("Record " + index + " has invalid " + what + " length " + length);
        }
        if (length > bodyEnd - pos) {
            throw invalid("Record " + index + " has " + what + " length " + length + " but only " + (bodyEnd - pos)
                    + " bytes of the record are left");
        }
        if (length > 0) {
            pos += length;
        }
    }

    private int readVarint(int limit) {
        int raw = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            if (pos >= limit) {
                throw overrun("varint", limit);
            }
            byte b = buf.get(pos++);
            raw |= (b & 0x7f) << shift;
            if (b >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw invalid("Found invalid record structure: varint longer than 5 bytes in record " + index);
    }

    private long readVarlong(int limit) {
        long raw = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (pos >= limit) {
                throw overrun("varlong", limit);
            }
            byte b = buf.get(pos++);
            raw |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw invalid("Found invalid record structure: varlong longer than 10 bytes in record " + index);
    }

    private LogAppendException overrun(String what, int limit) {
        return limit == end
                ? invalid("Incorrect declared batch size, premature EOF reached inside record " + index)
                : invalid("Found invalid record structure: record " + index + " ends inside its " + what);
    }
}
