package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.fetch.CancelOnClose;
import io.odradek.log.LogException;
import io.odradek.replication.metadata.TopicNames;
import io.odradek.replication.partition.DelayedOperation;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.Partitions;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DeleteRecordsApi;
import io.odradek.wire.api.DeleteRecordsApi.Request;
import io.odradek.wire.api.DeleteRecordsApi.Request.DeleteRecordsTopic;
import io.odradek.wire.api.DeleteRecordsApi.Request.DeleteRecordsTopic.DeleteRecordsPartition;
import io.odradek.wire.api.DeleteRecordsApi.Response;
import io.odradek.wire.api.DeleteRecordsApi.Response.DeleteRecordsTopicResult;
import io.odradek.wire.api.DeleteRecordsApi.Response.DeleteRecordsTopicResult.DeleteRecordsPartitionResult;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * DeleteRecords (key 21), versions 0-2 (v1 only marks throttling after the response, v2 is flexible).
 *
 * <p>Behaviour notes (Kafka 4.4's KafkaApis.handleDeleteRecordsRequest, ReplicaManager.deleteRecords,
 * Partition.deleteRecordsOnLeader and DelayedDeleteRecords):
 * <ul>
 * <li>Per partition the leader's log start offset moves forward to the requested offset (-1: the high
 *     watermark) on the partition's writer; segments wholly below it are deleted and the new start is
 *     checkpointed in {@code log-start-offset-checkpoint} before the answer (see
 *     {@code PartitionLog.maybeIncrementLogStartOffset}). An offset at or below the current start changes
 *     nothing and is answered with the current start.</li>
 * <li>low_watermark is Kafka's: the smallest log start over the leader and every alive replica of the
 *     assignment, as the followers last reported it in their fetches. The request waits (in the
 *     waiting-operations set, woken by follower fetches) until the low watermark reaches the offset of every
 *     partition; after timeout_ms the partitions still short answer REQUEST_TIMED_OUT with the low
 *     watermark of the moment of deletion. On one node the leader is the only replica: answered at once.</li>
 * <li>Errors, low_watermark -1: UNKNOWN_TOPIC_OR_PARTITION (not in the metadata), INVALID_TOPIC_EXCEPTION
 *     (an internal topic), NOT_LEADER_OR_FOLLOWER (not led here, also when leadership moves while waiting),
 *     OFFSET_OUT_OF_RANGE (above the high watermark, or below -1), POLICY_VIOLATION (cleanup.policy without
 *     delete), KAFKA_STORAGE_ERROR (offline log dir).</li>
 * <li>Authorization (issue 10), as Kafka 4.4: DELETE on each topic, else its partitions are
 *     TOPIC_AUTHORIZATION_FAILED (low_watermark -1) before whether they exist is looked at.</li>
 * <li>A partition listed twice is deleted once, with its last offset, as Kafka's map of partitions does.
 *     Topics are answered in request order (Kafka's order is its map's).</li>
 * </ul>
 */
public final class DeleteRecordsHandler implements ApiHandler {
    private static final long INVALID_LOW_WATERMARK = -1L;

    private final Partitions partitions;
    private final ClusterView cluster;

    /** @param cluster the metadata image: whether a partition not hosted here exists elsewhere */
    public DeleteRecordsHandler(Partitions partitions, ClusterView cluster) {
        this.partitions = partitions;
        this.cluster = cluster;
    }

    @Override
    public ApiSpec api() {
        return DeleteRecordsApi.SPEC;
    }

    private record TopicPartition(String topic, int partition) {
    }

    /** One partition's answer in the making. {@code required}: the low watermark it waits for, -1 if decided. */
    private static final class Pending {
        final Partition partition;
        final Struct out;
        volatile long required = -1L;

        Pending(Partition partition, Struct out) {
            this.partition = partition;
            this.out = out;
        }
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        for (Struct topic : request.get(Request.TOPICS)) {
            for (Struct p : topic.get(DeleteRecordsTopic.PARTITIONS)) {
                offsets.put(new TopicPartition(topic.get(DeleteRecordsTopic.NAME), p.get(DeleteRecordsPartition.PARTITION_INDEX)),
                        p.get(DeleteRecordsPartition.OFFSET));
            }
        }
        TopicAccess deletable = TopicAccess.of(context, AclOperation.DELETE);
        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
        Map<String, Struct> topics = new LinkedHashMap<>();
        List<Pending> pending = new ArrayList<>();
        List<CompletableFuture<Void>> deletions = new ArrayList<>();
        for (Map.Entry<TopicPartition, Long> e : offsets.entrySet()) {
            TopicPartition tp = e.getKey();
            Struct out = topics.computeIfAbsent(tp.topic(), name -> response.add(Response.TOPICS)
                            .set(DeleteRecordsTopicResult.NAME, name))
                    .add(DeleteRecordsTopicResult.PARTITIONS)
                    .set(DeleteRecordsPartitionResult.PARTITION_INDEX, tp.partition());
            ErrorCode refused = deletable.allowed(tp.topic()) ? refusal(tp) : ErrorCode.TOPIC_AUTHORIZATION_FAILED;
            if (refused != ErrorCode.NONE) {
                fail(out, refused);
                continue;
            }
            Pending p = new Pending(partitions.partition(tp.topic(), tp.partition()).orElseThrow(), out);
            deletions.add(p.partition.deleteRecordsOnLeader(e.getValue()).handle((deleted, error) -> {
                if (error != null) {
                    fail(out, errorCode(error));
                } else {
                    out.set(DeleteRecordsPartitionResult.LOW_WATERMARK, deleted.lowWatermark())
                            .set(DeleteRecordsPartitionResult.ERROR_CODE, ErrorCode.NONE.code());
                    if (deleted.lowWatermark() < deleted.requestedOffset()) {
                        p.required = deleted.requestedOffset();
                    }
                }
                return null;
            }));
            pending.add(p);
        }
        int timeoutMs = Math.max(0, request.get(Request.TIMEOUT_MS));
        return CompletableFuture.allOf(deletions.toArray(CompletableFuture[]::new))
                .thenComposeAsync(v -> awaitLowWatermarks(context, pending, timeoutMs, response), context.executor());
    }

    /** Why a partition is not even tried (Kafka's checks before and in getPartitionOrException), else NONE. */
    private ErrorCode refusal(TopicPartition tp) {
        if (cluster.image().partition(tp.topic(), tp.partition()).isEmpty()
                && partitions.partition(tp.topic(), tp.partition()).isEmpty()) {
            return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
        }
        if (TopicNames.isInternal(tp.topic())) {
            return ErrorCode.INVALID_TOPIC_EXCEPTION;
        }
        if (partitions.partition(tp.topic(), tp.partition()).isEmpty()) {
            return ErrorCode.NOT_LEADER_OR_FOLLOWER; // the metadata knows it; this broker holds no replica
        }
        return ErrorCode.NONE;
    }

    /**
     * Kafka's DelayedDeleteRecords: answers once every partition whose low watermark was short of its offset
     * has reached it or is no longer led here; after {@code timeoutMs} the rest answer REQUEST_TIMED_OUT.
     */
    private CompletableFuture<Struct> awaitLowWatermarks(RequestContext context, List<Pending> all, int timeoutMs,
            Struct response) {
        List<Pending> waiting = all.stream().filter(p -> p.required >= 0).toList();
        if (waiting.isEmpty()) {
            return CompletableFuture.completedFuture(response);
        }
        CompletableFuture<Struct> answered = new CompletableFuture<>();
        DelayedOperation op = new DelayedOperation(timeoutMs, DelayedOperation.INLINE) {
            @Override
            protected boolean canComplete() {
                for (Pending p : waiting) {
                    if (p.partition.isLeader() && p.partition.lowWatermark() < p.required) {
                        return false;
                    }
                }
                return true;
            }

            @Override
            protected void onComplete(Outcome outcome) {
                for (Pending p : waiting) {
                    long low = p.partition.lowWatermark();
                    if (!p.partition.isLeader()) {
                        fail(p.out, ErrorCode.NOT_LEADER_OR_FOLLOWER);
                    } else if (low >= p.required) {
                        p.out.set(DeleteRecordsPartitionResult.LOW_WATERMARK, low);
                    } else {
                        // Kafka keeps the low watermark of the moment of deletion on a timed-out partition.
                        p.out.set(DeleteRecordsPartitionResult.ERROR_CODE, ErrorCode.REQUEST_TIMED_OUT.code());
                    }
                }
                answered.complete(outcome == Outcome.CANCELLED ? null : response);
            }
        };
        List<Partition> keys = waiting.stream().map(p -> p.partition).distinct().toList();
        partitions.waiting().watch(op, keys);
        CancelOnClose.bind(op, context);
        return answered;
    }

    private static void fail(Struct out, ErrorCode error) {
        out.set(DeleteRecordsPartitionResult.LOW_WATERMARK, INVALID_LOW_WATERMARK)
                .set(DeleteRecordsPartitionResult.ERROR_CODE, error.code());
    }

    private static ErrorCode errorCode(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof LogException le ? le.errorCode() : ErrorCode.UNKNOWN_SERVER_ERROR;
    }
}
