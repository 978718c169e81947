package io.odradek.log.txn;

import io.odradek.wire.batch.EndTxnMarker;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.batch.RecordBatchReader;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Reads what a control batch holds: its control type and transaction marker (Kafka reads only its first
 * record, as here). The batch's whole bytes must be in the buffer.
 */
public final class ControlBatches {
    private ControlBatches() {
    }

    /** The key and (if asked for) value of a control batch's first record. */
    private record FirstRecord(byte[] key, byte[] value) {
    }

    /** The first record of {@code whole}, or null when it has none; its value only if {@code withValue}. */
    private static FirstRecord firstRecord(RecordBatchHeader whole, boolean withValue) throws IOException {
        try (RecordBatchReader records = RecordBatchReader.open(whole)) {
            if (!records.next()) {
                return null;
            }
            byte[] key = records.key();
            return new FirstRecord(key, withValue ? records.value() : null);
        }
    }

    /**
     * The control record type of {@code whole} (0 abort, 1 commit, others are not transaction markers),
     * or -1 when the batch is empty (the cleaner removed its record already) or unreadable.
     */
    public static short controlType(RecordBatchHeader whole) {
        if (whole.recordsCount() == 0) {
            return -1;
        }
        try {
            FirstRecord first = firstRecord(whole, false);
            if (first == null || first.key() == null) {
                return -1;
            }
            return EndTxnMarker.controlType(ByteBuffer.wrap(first.key()));
        } catch (IOException | RuntimeException unreadable) {
            return -1;
        }
    }

    /**
     * The marker of the control batch {@code whole} points at, or null when it holds none: an empty control
     * batch (the cleaner removed its record), another control type, or a record that does not parse.
     */
    public static EndTxnMarker marker(RecordBatchHeader whole) {
        try {
            FirstRecord first = firstRecord(whole, true);
            if (first == null) {
                return null;
            }
            byte[] key = first.key();
            byte[] value = first.value();
            short type = EndTxnMarker.controlType(key == null ? null : ByteBuffer.wrap(key));
            if (type != EndTxnMarker.ABORT_TYPE && type != EndTxnMarker.COMMIT_TYPE) {
                return null;
            }
            return EndTxnMarker.parse(ByteBuffer.wrap(key), value == null ? null : ByteBuffer.wrap(value));
        } catch (IOException | IllegalArgumentException malformed) {
            return null;
        }
    }
}
