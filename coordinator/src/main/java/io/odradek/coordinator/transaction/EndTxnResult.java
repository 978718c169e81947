package io.odradek.coordinator.transaction;

import io.odradek.wire.ErrorCode;

/**
 * EndTxn's answer: the producer id and epoch the producer goes on with. Under transaction protocol v2
 * (EndTxn v5+, which carries them) the epoch is bumped by every EndTxn (KIP-890), and past an epoch
 * overflow the producer id changes; under v1 they are unchanged. -1 / -1 with an error.
 */
public record EndTxnResult(ErrorCode error, long producerId, short producerEpoch) {
    public static EndTxnResult error(ErrorCode error) {
        return new EndTxnResult(error, -1L, (short) -1);
    }
}
