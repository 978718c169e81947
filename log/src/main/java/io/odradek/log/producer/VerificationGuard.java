package io.odradek.log.producer;

/**
 * Kafka's VerificationGuard (with its VerificationStateEntry): the token a partition hands out when the
 * transaction coordinator is asked whether a producer's transaction includes it. The transactional batch
 * that waited for the answer is appended only if the partition still holds this very object for the
 * producer (compared by identity) or the producer's transaction is already open there; a marker (or the
 * append that opened the transaction) drops it, so a batch verified before its transaction ended cannot
 * open a new, hanging one.
 */
public final class VerificationGuard {
    /**
     * Kafka's SENTINEL: no verification was started because the producer's transaction was already open on
     * the partition. It matches no guard, so the batch is appended only if the transaction is still open.
     */
    public static final VerificationGuard NONE = new VerificationGuard((short) -1, false, -1L);

    private final short epoch;
    private final boolean supportsEpochBump;
    private final long createdMs;

    VerificationGuard(short epoch, boolean supportsEpochBump, long createdMs) {
        this.epoch = epoch;
        this.supportsEpochBump = supportsEpochBump;
        this.createdMs = createdMs;
    }

    /** The producer epoch the verification was started for. */
    public short epoch() {
        return epoch;
    }

    /** Whether the producer uses transaction version 2 (its markers carry the epoch the coordinator bumped). */
    public boolean supportsEpochBump() {
        return supportsEpochBump;
    }

    long createdMs() {
        return createdMs;
    }

    @Override
    public String toString() {
        return this == NONE ? "VerificationGuard(none)" : "VerificationGuard(epoch " + epoch + ")";
    }
}
