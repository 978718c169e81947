package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.OffsetCommitRequest;
import io.odradek.coordinator.group.TxnOffsetCommitRequest;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionVerifier;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.TxnOffsetCommitApi;
import io.odradek.wire.api.TxnOffsetCommitApi.Request;
import io.odradek.wire.api.TxnOffsetCommitApi.Request.TxnOffsetCommitRequestTopic;
import io.odradek.wire.api.TxnOffsetCommitApi.Request.TxnOffsetCommitRequestTopic.TxnOffsetCommitRequestPartition;
import io.odradek.wire.api.TxnOffsetCommitApi.Response;
import io.odradek.wire.api.TxnOffsetCommitApi.Response.TxnOffsetCommitResponseTopic;
import io.odradek.wire.api.TxnOffsetCommitApi.Response.TxnOffsetCommitResponseTopic.TxnOffsetCommitResponsePartition;
import io.odradek.wire.schema.Struct;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * TxnOffsetCommit (key 28), versions 0-6: a transactional producer commits a group's offsets inside its
 * transaction (sendOffsetsToTransaction); they become visible to OffsetFetch only when the transaction
 * commits (the commit marker in {@code __consumer_offsets}), and an abort drops them.
 *
 * <p>Before writing, the transaction coordinator is asked whether the group's {@code __consumer_offsets}
 * partition is part of the producer's transaction (as Kafka 4.4's coordinator runtime does): v0-4 only
 * verify it (the v1 protocol added it with AddOffsetsToTxn; INVALID_TXN_STATE when it did not), v5+ add it
 * if missing (transaction protocol v2, KIP-890). Verification errors as Kafka's AddPartitionsToTxnManager
 * gives them: PRODUCER_FENCED answers INVALID_PRODUCER_EPOCH, TRANSACTION_ABORTABLE answers
 * INVALID_TXN_STATE below v4; coordinator errors as the group coordinator maps them.
 *
 * <p>v0-2 carry no group membership; v3+ carry the consumer's generation (or KIP-848 / streams member epoch), member
 * id and instance id, checked as Kafka does for a transactional commit (not held back by a rebalance).
 * v6 names topics by id (KIP-1319) and answers GROUP_ID_NOT_FOUND for an unknown group with a generation and
 * STALE_MEMBER_EPOCH for a stale KIP-848 member (ILLEGAL_GENERATION before v6). As Kafka 4.4's KafkaApis: an
 * unknown topic id (v6) answers UNKNOWN_TOPIC_ID for all its partitions, an unknown topic or partition
 * UNKNOWN_TOPIC_OR_PARTITION, and v0-1 get COORDINATOR_NOT_AVAILABLE instead of COORDINATOR_LOAD_IN_PROGRESS.
 *
 * <p>Authorization, as Kafka 4.4: WRITE on the transactional id (else every partition answers
 * TRANSACTIONAL_ID_AUTHORIZATION_FAILED), then READ on the group (else GROUP_AUTHORIZATION_FAILED), neither
 * verifying nor writing anything; then READ on each topic, else its partitions answer
 * TOPIC_AUTHORIZATION_FAILED while the others are committed.
 */
public final class TxnOffsetCommitHandler implements ApiHandler {
    /** The first version whose verification adds the offsets partition to the transaction (Kafka: above 4). */
    private static final short FIRST_ADDING_VERSION = 5;
    /** The first version whose clients know TRANSACTION_ABORTABLE (Kafka's genericErrorSupported: above 3). */
    private static final short FIRST_ABORTABLE_VERSION = 4;
    /** v6 names topics by id (KIP-1319). */
    private static final CommittedOffsetTopics TOPICS = new CommittedOffsetTopics((short) 6,
            CommittedOffsetTopics.UnknownTopicId.WHEN_ID_UNKNOWN,
            new CommittedOffsetTopics.RequestFields(TxnOffsetCommitRequestTopic.NAME, TxnOffsetCommitRequestTopic.TOPIC_ID,
                    TxnOffsetCommitRequestTopic.PARTITIONS, TxnOffsetCommitRequestPartition.PARTITION_INDEX,
                    TxnOffsetCommitRequestPartition.COMMITTED_OFFSET, TxnOffsetCommitRequestPartition.COMMITTED_LEADER_EPOCH,
                    TxnOffsetCommitRequestPartition.COMMITTED_METADATA),
            new CommittedOffsetTopics.ResponseFields(Response.TOPICS, TxnOffsetCommitResponseTopic.NAME,
                    TxnOffsetCommitResponseTopic.TOPIC_ID, TxnOffsetCommitResponseTopic.PARTITIONS,
                    TxnOffsetCommitResponsePartition.PARTITION_INDEX, TxnOffsetCommitResponsePartition.ERROR_CODE));

    private final GroupCoordinator groups;
    private final TransactionVerifier transactions;
    private final TopicService topics;

    public TxnOffsetCommitHandler(GroupCoordinator groups, TransactionVerifier transactions, TopicService topics) {
        this.groups = groups;
        this.transactions = transactions;
        this.topics = topics;
    }

    @Override
    public ApiSpec api() {
        return TxnOffsetCommitApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        short version = context.version();
        ErrorCode refused = !CoordinatorAccess.allowed(context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID,
                request.get(Request.TRANSACTIONAL_ID)) ? ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
                : !CoordinatorAccess.allowed(context, AclOperation.READ, ResourceType.GROUP, request.get(Request.GROUP_ID))
                ? ErrorCode.GROUP_AUTHORIZATION_FAILED : null;
        if (refused != null) {
            return CompletableFuture.completedFuture(TOPICS.refuseAll(request.get(Request.TOPICS), Response.SCHEMA.newStruct(),
                    refused));
        }
        CommittedOffsetTopics.Resolved resolved = TOPICS.resolve(request.get(Request.TOPICS), version, topics,
                CoordinatorAccess.topics(context, AclOperation.READ));
        List<OffsetCommitRequest.Partition> valid = resolved.valid();
        if (valid.isEmpty()) {
            return CompletableFuture.completedFuture(response(resolved, Map.of(), version));
        }
        TxnOffsetCommitRequest req = new TxnOffsetCommitRequest(request.get(Request.TRANSACTIONAL_ID),
                request.get(Request.GROUP_ID), request.get(Request.PRODUCER_ID), request.get(Request.PRODUCER_EPOCH),
                request.get(Request.GENERATION_ID_OR_MEMBER_EPOCH), request.get(Request.MEMBER_ID),
                request.get(Request.GROUP_INSTANCE_ID), valid, version);
        return commit(req, version).thenApply(results -> response(resolved, results, version));
    }

    /** Verifies (or adds) the group's offsets partition in the transaction, then commits through the group coordinator. */
    private CompletableFuture<Map<TopicPartition, ErrorCode>> commit(TxnOffsetCommitRequest req, short version) {
        if (req.groupId() == null || req.groupId().isEmpty()) {
            return CompletableFuture.completedFuture(all(req, ErrorCode.INVALID_GROUP_ID));
        }
        TopicPartition offsetsPartition = new TopicPartition(OffsetsTopic.NAME, groups.partitionFor(req.groupId()));
        CompletableFuture<Map<TopicPartition, ErrorCode>> verified;
        try {
            verified = transactions.verify(req.transactionalId(), req.producerId(), req.producerEpoch(),
                    List.of(offsetsPartition), version >= FIRST_ADDING_VERSION);
        } catch (RuntimeException e) {
            verified = CompletableFuture.failedFuture(e);
        }
        return verified.handle((errors, failure) -> failure != null ? TxnErrors.ofFailure(failure, "TxnOffsetCommit verification")
                        : errors.getOrDefault(offsetsPartition, ErrorCode.UNKNOWN_SERVER_ERROR))
                .thenCompose(error -> error == ErrorCode.NONE ? groups.txnOffsetCommit(req)
                        : CompletableFuture.completedFuture(all(req, verificationError(error, version))));
    }

    /** A failed verification as the client sees it (Kafka's AddPartitionsToTxnManager, then the coordinator's mapping). */
    static ErrorCode verificationError(ErrorCode error, short version) {
        return switch (error) {
            case PRODUCER_FENCED -> ErrorCode.INVALID_PRODUCER_EPOCH;
            case TRANSACTION_ABORTABLE -> version < FIRST_ABORTABLE_VERSION ? ErrorCode.INVALID_TXN_STATE : error;
            case UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, REQUEST_TIMED_OUT -> ErrorCode.COORDINATOR_NOT_AVAILABLE;
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> ErrorCode.NOT_COORDINATOR;
            default -> error;
        };
    }

    private static Map<TopicPartition, ErrorCode> all(TxnOffsetCommitRequest req, ErrorCode error) {
        Map<TopicPartition, ErrorCode> out = new LinkedHashMap<>();
        req.partitions().forEach(p -> out.put(p.partition(), error));
        return out;
    }

    private static Struct response(CommittedOffsetTopics.Resolved resolved, Map<TopicPartition, ErrorCode> results, short version) {
        return resolved.addTo(Response.SCHEMA.newStruct(), results,
                // v0-1 clients do not know COORDINATOR_LOAD_IN_PROGRESS (Kafka's KafkaApis)
                error -> version < 2 && error == ErrorCode.COORDINATOR_LOAD_IN_PROGRESS ? ErrorCode.COORDINATOR_NOT_AVAILABLE : error);
    }
}
