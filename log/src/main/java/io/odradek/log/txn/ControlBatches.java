package io.odradek.log.txn;

import io.odradek.wire.batch.EndTxnMarker;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.batch.RecordBatchReader;
import java.io.IOException;
import java.nio.ByteBuffer;

/** Reads the transaction marker out of a control batch (Kafka reads only its first record, as here). */
public final class ControlBatches {
    private ControlBatches() {
    }

    /**
     * The marker of the control batch {@code whole} points at (its whole bytes in the buffer), or null when
     * it holds none: an empty control batch (the cleaner removed its record), another control type, or a
     * record that does not parse.
     */
    public static EndTxnMarker marker(RecordBatchHeader whole) {
        try (RecordBatchReader records = RecordBatchReader.open(whole)) {
            if (!records.next()) {
                return null;
            }
            byte[] key = records.key();
            byte[] value = records.value();
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
