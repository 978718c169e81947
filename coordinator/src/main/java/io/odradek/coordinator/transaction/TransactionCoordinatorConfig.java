package io.odradek.coordinator.transaction;

import java.util.Map;

/**
 * The transaction coordinator's settings, under Kafka's keys with Kafka's defaults (the broker maps its
 * configuration onto this with {@link #from}).
 *
 * @param stateLogPartitions                   {@code transaction.state.log.num.partitions} (50)
 * @param maxTransactionTimeoutMs              {@code transaction.max.timeout.ms} (900000): a longer
 *                                             {@code transaction.timeout.ms} gets INVALID_TRANSACTION_TIMEOUT
 * @param abortTimedOutTransactionsIntervalMs  {@code transaction.abort.timed.out.transaction.cleanup.interval.ms} (10000)
 * @param removeExpiredTransactionalIdsIntervalMs {@code transaction.remove.expired.transaction.cleanup.interval.ms} (3600000)
 * @param transactionalIdExpirationMs          {@code transactional.id.expiration.ms} (604800000): an idle id
 *                                             (no transaction open) is forgotten after this long
 * @param offsetsTopicPartitions               {@code offsets.topic.num.partitions} (50): where AddOffsetsToTxn's
 *                                             group lives when no group coordinator is given (the broker gives
 *                                             one, so an existing topic's own count wins)
 * @param twoPhaseCommitEnabled                {@code transaction.two.phase.commit.enable} (false, KIP-939)
 * @param transactionVersionLevel              the finalized {@code transaction.version} feature level (2 on a
 *                                             new Kafka 4.x cluster): TransactionLogValue is written as
 *                                             version 1 (flexible) from level 1, version 0 below
 * @param markerRetryBackoffMs                 wait before markers that failed on some partitions are sent
 *                                             to those partitions again (Kafka retries on its next channel poll)
 * @param requestTimeoutMs                     {@code request.timeout.ms} (30000): how long a write to
 *                                             {@code __transaction_state} may wait for its commit; after it the
 *                                             client gets COORDINATOR_NOT_AVAILABLE, as Kafka's TransactionStateManager
 *                                             (which appends with this timeout) answers a timed-out append
 */
public record TransactionCoordinatorConfig(int stateLogPartitions, int maxTransactionTimeoutMs,
        long abortTimedOutTransactionsIntervalMs, long removeExpiredTransactionalIdsIntervalMs,
        long transactionalIdExpirationMs, int offsetsTopicPartitions, boolean twoPhaseCommitEnabled,
        short transactionVersionLevel, long markerRetryBackoffMs, int requestTimeoutMs) {

    public static TransactionCoordinatorConfig defaults() {
        return from(Map.of());
    }

    /** From broker properties under Kafka's keys; absent keys take Kafka's defaults. */
    public static TransactionCoordinatorConfig from(Map<String, String> props) {
        return new TransactionCoordinatorConfig(
                intOf(props, "transaction.state.log.num.partitions", 50),
                intOf(props, "transaction.max.timeout.ms", 900_000),
                longOf(props, "transaction.abort.timed.out.transaction.cleanup.interval.ms", 10_000),
                longOf(props, "transaction.remove.expired.transaction.cleanup.interval.ms", 3_600_000),
                longOf(props, "transactional.id.expiration.ms", 604_800_000),
                intOf(props, "offsets.topic.num.partitions", 50),
                Boolean.parseBoolean(props.getOrDefault("transaction.two.phase.commit.enable", "false").trim()),
                (short) 2,
                100,
                intOf(props, "request.timeout.ms", 30_000));
    }

    /** The same settings over an existing {@code __transaction_state}, whose partition count wins over the config. */
    public TransactionCoordinatorConfig withStateLogPartitions(int partitions) {
        return new TransactionCoordinatorConfig(partitions, maxTransactionTimeoutMs, abortTimedOutTransactionsIntervalMs,
                removeExpiredTransactionalIdsIntervalMs, transactionalIdExpirationMs, offsetsTopicPartitions,
                twoPhaseCommitEnabled, transactionVersionLevel, markerRetryBackoffMs, requestTimeoutMs);
    }

    /** The same settings with the finalized {@code transaction.version} level (0, 1 or 2). */
    public TransactionCoordinatorConfig withTransactionVersionLevel(short level) {
        return new TransactionCoordinatorConfig(stateLogPartitions, maxTransactionTimeoutMs, abortTimedOutTransactionsIntervalMs,
                removeExpiredTransactionalIdsIntervalMs, transactionalIdExpirationMs, offsetsTopicPartitions,
                twoPhaseCommitEnabled, level, markerRetryBackoffMs, requestTimeoutMs);
    }

    private static int intOf(Map<String, String> props, String key, int def) {
        String v = props.get(key);
        return v == null || v.isBlank() ? def : Integer.parseInt(v.trim());
    }

    private static long longOf(Map<String, String> props, String key, long def) {
        String v = props.get(key);
        return v == null || v.isBlank() ? def : Long.parseLong(v.trim());
    }
}
