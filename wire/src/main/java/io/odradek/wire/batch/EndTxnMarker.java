package io.odradek.wire.batch;

import java.nio.ByteBuffer;

/**
 * A transaction marker: the one control record of a control batch that commits or aborts a producer's
 * transaction on a partition (Kafka's EndTransactionMarker). Key: version int16 (0), type int16
 * (0 abort, 1 commit). Value: version int16 (0), coordinator epoch int32; newer value versions may append
 * fields, which a reader skips.
 */
public record EndTxnMarker(boolean commit, int coordinatorEpoch) {
    public static final short ABORT_TYPE = 0;
    public static final short COMMIT_TYPE = 1;
    private static final short CURRENT_VERSION = 0;

    /** The control batch holding this marker for a producer, ready for the log to stamp offset and epoch. */
    public ByteBuffer toBatch(long producerId, short producerEpoch, long timestamp) {
        return new RecordBatchBuilder(timestamp)
                .producer(producerId, producerEpoch, RecordBatchHeader.NO_SEQUENCE)
                .control()
                .append(key(), value())
                .build();
    }

    public byte[] key() {
        return ByteBuffer.allocate(4).putShort(CURRENT_VERSION).putShort(commit ? COMMIT_TYPE : ABORT_TYPE).array();
    }

    public byte[] value() {
        return ByteBuffer.allocate(6).putShort(CURRENT_VERSION).putInt(coordinatorEpoch).array();
    }

    /**
     * The control record type from a control record's key (0 abort, 1 commit, others are not transaction
     * markers, e.g. KRaft's), or -1 when the key is too short.
     */
    public static short controlType(ByteBuffer key) {
        if (key == null || key.remaining() < 4) {
            return -1;
        }
        return key.getShort(key.position() + 2);
    }

    /**
     * Parses a control record's key and value; throws IllegalArgumentException when they are not a
     * transaction marker.
     */
    public static EndTxnMarker parse(ByteBuffer key, ByteBuffer value) {
        short type = controlType(key);
        if (type != ABORT_TYPE && type != COMMIT_TYPE) {
            throw new IllegalArgumentException("not a transaction marker: control type " + type);
        }
        if (value == null || value.remaining() < 6) {
            throw new IllegalArgumentException("transaction marker value too short");
        }
        return new EndTxnMarker(type == COMMIT_TYPE, value.getInt(value.position() + 2));
    }
}
