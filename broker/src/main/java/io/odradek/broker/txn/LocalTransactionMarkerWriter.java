package io.odradek.broker.txn;

import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionMarkerWriter;
import io.odradek.log.LogException;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.Partitions;
import io.odradek.wire.ErrorCode;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes transaction markers to the partitions this broker leads (what Kafka's WriteTxnMarkers does on the
 * partition leader): a data partition gets the control batch through {@link Partition#appendMarker}, which
 * moves its last stable offset and wakes the fetches parked on it; a {@code __consumer_offsets} partition is
 * handed to the group coordinator, which writes the marker there and commits or drops the transaction's
 * offsets. Used by the transaction coordinator (in-process) and by the WriteTxnMarkers handler.
 *
 * <p>Errors per partition, never an exceptional future: NONE (nothing written) for a partition of a topic
 * that no longer exists or beyond its partition count, as Kafka's TransactionMarkerChannelManager skips a
 * deleted partition and drops it from the transaction (else the transaction would stay prepared for good);
 * UNKNOWN_TOPIC_OR_PARTITION for a partition that exists but has no log here yet, which the coordinator
 * retries. Without a topic catalog (the WriteTxnMarkers handler, answering another coordinator as Kafka's
 * KafkaApis does) every partition with no log is UNKNOWN_TOPIC_OR_PARTITION. Then the log's refusal (INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED, KAFKA_STORAGE_ERROR,
 * ...); from the group coordinator, NOT_COORDINATOR / COORDINATOR_NOT_AVAILABLE / COORDINATOR_LOAD_IN_PROGRESS
 * become NOT_LEADER_OR_FOLLOWER, as Kafka's KafkaApis translates them for the transaction coordinator, which
 * retries it. A marker completes once committed (the high watermark past it); nothing times out here.
 */
public final class LocalTransactionMarkerWriter implements TransactionMarkerWriter {
    /** The group coordinator's side ({@code GroupCoordinator::completeTransaction}). */
    @FunctionalInterface
    public interface OffsetsTransactions {
        CompletableFuture<ErrorCode> completeTransaction(int offsetsPartition, long producerId, short producerEpoch,
                int coordinatorEpoch, boolean commit);
    }

    /** The topic catalog's partition count of a topic, empty when the topic does not exist. */
    @FunctionalInterface
    public interface TopicCatalog {
        OptionalInt partitionCount(String topic);

        /** For the WriteTxnMarkers handler: no partition is ever taken as deleted. */
        TopicCatalog NONE_DELETED = topic -> OptionalInt.of(Integer.MAX_VALUE);
    }

    private final Partitions partitions;
    private final OffsetsTransactions offsets;
    private final TopicCatalog topics;

    /** For the transaction coordinator: partitions of deleted topics are skipped. */
    public LocalTransactionMarkerWriter(Partitions partitions, GroupCoordinator groups, TopicCatalog topics) {
        this(partitions, groups::completeTransaction, topics);
    }

    /** For the WriteTxnMarkers handler: a partition with no log is UNKNOWN_TOPIC_OR_PARTITION. */
    public LocalTransactionMarkerWriter(Partitions partitions, GroupCoordinator groups) {
        this(partitions, groups::completeTransaction, TopicCatalog.NONE_DELETED);
    }

    public LocalTransactionMarkerWriter(Partitions partitions, OffsetsTransactions offsets) {
        this(partitions, offsets, TopicCatalog.NONE_DELETED);
    }

    public LocalTransactionMarkerWriter(Partitions partitions, OffsetsTransactions offsets, TopicCatalog topics) {
        this.partitions = partitions;
        this.offsets = offsets;
        this.topics = topics;
    }

    @Override
    public CompletableFuture<Map<TopicPartition, ErrorCode>> writeMarkers(long producerId, short producerEpoch,
            int coordinatorEpoch, boolean commit, Collection<TopicPartition> targets) {
        Map<TopicPartition, ErrorCode> errors = new ConcurrentHashMap<>();
        CompletableFuture<?>[] writes = new CompletableFuture<?>[targets.size()];
        int i = 0;
        for (TopicPartition tp : targets) {
            CompletableFuture<ErrorCode> write;
            try {
                write = write(tp, producerId, producerEpoch, coordinatorEpoch, commit);
            } catch (RuntimeException e) {
                write = CompletableFuture.failedFuture(e);
            }
            writes[i++] = write.handle((error, failure) -> {
                errors.put(tp, failure != null ? errorOf(failure) : error);
                return null;
            });
        }
        return CompletableFuture.allOf(writes).handle((v, ignored) -> Map.copyOf(errors));
    }

    private CompletableFuture<ErrorCode> write(TopicPartition tp, long producerId, short producerEpoch,
            int coordinatorEpoch, boolean commit) {
        if (OffsetsTopic.NAME.equals(tp.topic())) {
            return offsets.completeTransaction(tp.partition(), producerId, producerEpoch, coordinatorEpoch, commit)
                    .thenApply(LocalTransactionMarkerWriter::fromGroupCoordinator);
        }
        Optional<Partition> partition = partitions.partition(tp.topic(), tp.partition());
        if (partition.isEmpty()) {
            return CompletableFuture.completedFuture(isDeleted(tp) ? ErrorCode.NONE : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        }
        return partition.get().appendMarker(producerId, producerEpoch, coordinatorEpoch, commit)
                .thenApply(appended -> ErrorCode.NONE);
    }

    /** The topic is gone, or the partition is beyond its count: no marker can ever be written there. */
    private boolean isDeleted(TopicPartition tp) {
        OptionalInt count = topics.partitionCount(tp.topic());
        return count.isEmpty() || tp.partition() < 0 || tp.partition() >= count.getAsInt();
    }

    /** The transaction coordinator retries NOT_LEADER_OR_FOLLOWER; it does not know the group coordinator's errors. */
    private static ErrorCode fromGroupCoordinator(ErrorCode error) {
        return switch (error) {
            case NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS -> ErrorCode.NOT_LEADER_OR_FOLLOWER;
            default -> error;
        };
    }

    private static ErrorCode errorOf(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause instanceof LogException e ? fromGroupCoordinator(e.errorCode()) : ErrorCode.UNKNOWN_SERVER_ERROR;
    }
}
