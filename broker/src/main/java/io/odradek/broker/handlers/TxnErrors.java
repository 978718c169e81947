package io.odradek.broker.handlers;

import io.odradek.coordinator.runtime.CoordinatorErrors;
import io.odradek.wire.ErrorCode;

/** Error codes the transaction handlers share: Kafka's downgrades for old clients and coordinator failures. */
final class TxnErrors {
    private static final System.Logger LOG = System.getLogger(TxnErrors.class.getName());

    private TxnErrors() {
    }

    /**
     * PRODUCER_FENCED (KIP-588) only for versions that know it; older ones get INVALID_PRODUCER_EPOCH,
     * which they handle the same way (Kafka's KafkaApis: InitProducerId before v4, AddPartitionsToTxn,
     * AddOffsetsToTxn and EndTxn before v2).
     */
    static ErrorCode fencedFor(ErrorCode error, int version, int firstVersionKnowingFenced) {
        return error == ErrorCode.PRODUCER_FENCED && version < firstVersionKnowingFenced ? ErrorCode.INVALID_PRODUCER_EPOCH : error;
    }

    /** A coordinator future that failed: its CoordinatorException's code, else UNKNOWN_SERVER_ERROR (logged: a bug). */
    static ErrorCode ofFailure(Throwable failure, String what) {
        ErrorCode error = CoordinatorErrors.of(failure);
        if (error == null) {
            LOG.log(System.Logger.Level.ERROR, what + " failed", failure);
            return ErrorCode.UNKNOWN_SERVER_ERROR;
        }
        return error;
    }
}
