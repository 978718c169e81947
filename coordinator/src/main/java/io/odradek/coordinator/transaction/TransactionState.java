package io.odradek.coordinator.transaction;

/**
 * A transactional id's state, with the byte Kafka stores in TransactionLogValue's TransactionStatus and
 * the name ListTransactions/DescribeTransactions answer with.
 */
public enum TransactionState {
    EMPTY(0, "Empty"),
    ONGOING(1, "Ongoing"),
    PREPARE_COMMIT(2, "PrepareCommit"),
    PREPARE_ABORT(3, "PrepareAbort"),
    COMPLETE_COMMIT(4, "CompleteCommit"),
    COMPLETE_ABORT(5, "CompleteAbort"),
    DEAD(6, "Dead"),
    PREPARE_EPOCH_FENCE(7, "PrepareEpochFence");

    private final byte id;
    private final String kafkaName;

    TransactionState(int id, String kafkaName) {
        this.id = (byte) id;
        this.kafkaName = kafkaName;
    }

    public byte id() {
        return id;
    }

    public String kafkaName() {
        return kafkaName;
    }

    public static TransactionState ofId(byte id) {
        for (TransactionState s : values()) {
            if (s.id == id) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown transaction status " + id);
    }

    /** The state of that Kafka name (exact, as Kafka matches ListTransactions filters), or null. */
    public static TransactionState ofKafkaName(String name) {
        for (TransactionState s : values()) {
            if (s.kafkaName.equals(name)) {
                return s;
            }
        }
        return null;
    }

    /** No transaction open: a new one may start, the id may expire. */
    public boolean isIdle() {
        return this == EMPTY || this == COMPLETE_COMMIT || this == COMPLETE_ABORT;
    }

    @Override
    public String toString() {
        return kafkaName;
    }
}
