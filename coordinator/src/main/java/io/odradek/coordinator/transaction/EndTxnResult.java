package io.odradek.coordinator.transaction;

import io.odradek.wire.ErrorCode;

/**
 * EndTxn's answer. Under transaction protocol v2 (EndTxn v5+) the producer id and epoch are the ones the
 * producer uses next (the epoch is bumped by every EndTxn, KIP-890); under v1 they are -1 / -1.
 */
public record EndTxnResult(ErrorCode error, long producerId, short producerEpoch) {
    public static EndTxnResult error(ErrorCode error) {
        return new EndTxnResult(error, -1L, (short) -1);
    }
}
