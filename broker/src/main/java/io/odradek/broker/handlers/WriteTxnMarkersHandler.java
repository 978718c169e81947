package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionMarkerWriter;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.WriteTxnMarkersApi;
import io.odradek.wire.api.WriteTxnMarkersApi.Request.WritableTxnMarker;
import io.odradek.wire.api.WriteTxnMarkersApi.Request.WritableTxnMarker.WritableTxnMarkerTopic;
import io.odradek.wire.api.WriteTxnMarkersApi.Response;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult.WritableTxnMarkerPartitionResult;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * WriteTxnMarkers (key 27), versions 0-2. v0 (non-flexible, sent by transaction coordinators before Kafka 2.4,
 * dropped by Kafka 4) carries and answers the same fields as v1 and is handled the same way.
 *
 * <p>Behaviour / version notes (Kafka's KafkaApis.handleWriteTxnMarkersRequest):
 * <ul>
 * <li>Sent to a partition leader by a transaction coordinator, and by {@code kafka-transactions abort} for
 *     a hanging transaction. Our own transaction coordinator writes its markers in-process through the same
 *     {@link TransactionMarkerWriter}, so this handler is what outside tools reach.</li>
 * <li>Each marker (producer id, epoch, commit or abort, coordinator epoch) is written to each of its
 *     partitions: a control batch in a data partition (which moves its last stable offset and wakes parked
 *     read_committed fetches); for {@code __consumer_offsets} partitions the group coordinator writes it and
 *     commits or drops the transaction's offsets. The response is sent once every marker is committed.</li>
 * <li>Errors per partition: UNKNOWN_TOPIC_OR_PARTITION (no such partition here); INVALID_PRODUCER_EPOCH
 *     (an epoch older than the producer's); TRANSACTION_COORDINATOR_FENCED (a coordinator epoch older than
 *     the one of the producer's last marker); NOT_LEADER_OR_FOLLOWER when the group coordinator of an offsets
 *     partition is not ready; the log's storage errors.</li>
 * <li>As in Kafka, the response has one entry per producer id (markers of the same producer are merged), in
 *     the order the request names them. v2's transaction_version is read and not needed (the marker format
 *     is the same). Writes are not timed out (Kafka bounds them by request.timeout.ms; on one node a marker
 *     is committed as soon as it is in the log).</li>
 * <li>Authorization, as Kafka 4.4: ALTER on the cluster, or else CLUSTER_ACTION on it; without either nothing
 *     is written and every partition of every marker answers CLUSTER_AUTHORIZATION_FAILED (Kafka's error
 *     response: one entry per producer id, markers without partitions included).</li>
 * </ul>
 */
public final class WriteTxnMarkersHandler implements ApiHandler {
    private final TransactionMarkerWriter markers;

    public WriteTxnMarkersHandler(TransactionMarkerWriter markers) {
        this.markers = markers;
    }

    @Override
    public ApiSpec api() {
        return WriteTxnMarkersApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        List<Struct> requested = request.get(WriteTxnMarkersApi.Request.MARKERS);
        if (!CoordinatorAccess.allowedOnCluster(context, AclOperation.ALTER)
                && !CoordinatorAccess.allowedOnCluster(context, AclOperation.CLUSTER_ACTION)) {
            return CompletableFuture.completedFuture(refused(requested));
        }
        // Results per producer id, in request order; each a sorted map of its partitions' errors.
        Map<Long, Map<TopicPartition, ErrorCode>> results = new LinkedHashMap<>();
        List<CompletableFuture<Void>> writes = new ArrayList<>(requested.size());
        for (Struct marker : requested) {
            long producerId = marker.get(WritableTxnMarker.PRODUCER_ID);
            Set<TopicPartition> partitions = new LinkedHashSet<>();
            for (Struct topic : marker.get(WritableTxnMarker.TOPICS)) {
                String name = topic.get(WritableTxnMarkerTopic.NAME);
                for (int index : topic.get(WritableTxnMarkerTopic.PARTITION_INDEXES)) {
                    partitions.add(new TopicPartition(name, index));
                }
            }
            if (partitions.isEmpty()) {
                continue; // nothing to write, nothing to answer (as Kafka)
            }
            Map<TopicPartition, ErrorCode> errors = results.computeIfAbsent(producerId, id -> new TreeMap<>());
            writes.add(markers.writeMarkers(producerId, marker.get(WritableTxnMarker.PRODUCER_EPOCH),
                    marker.get(WritableTxnMarker.COORDINATOR_EPOCH), marker.get(WritableTxnMarker.TRANSACTION_RESULT),
                    partitions).thenAcceptAsync(written -> errors.putAll(written), context.executor()));
        }
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new))
                .thenApplyAsync(v -> response(results), context.executor());
    }

    /** Every partition of every marker refused with CLUSTER_AUTHORIZATION_FAILED, as Kafka's error response. */
    private static Struct refused(List<Struct> requested) {
        Map<Long, Map<TopicPartition, ErrorCode>> results = new LinkedHashMap<>();
        for (Struct marker : requested) {
            Map<TopicPartition, ErrorCode> errors = results.computeIfAbsent(marker.get(WritableTxnMarker.PRODUCER_ID),
                    id -> new TreeMap<>());
            for (Struct topic : marker.get(WritableTxnMarker.TOPICS)) {
                for (int index : topic.get(WritableTxnMarkerTopic.PARTITION_INDEXES)) {
                    errors.put(new TopicPartition(topic.get(WritableTxnMarkerTopic.NAME), index),
                            ErrorCode.CLUSTER_AUTHORIZATION_FAILED);
                }
            }
        }
        return response(results);
    }

    private static Struct response(Map<Long, Map<TopicPartition, ErrorCode>> results) {
        Struct response = Response.SCHEMA.newStruct();
        for (Map.Entry<Long, Map<TopicPartition, ErrorCode>> result : results.entrySet()) {
            Struct marker = response.add(Response.MARKERS).set(WritableTxnMarkerResult.PRODUCER_ID, result.getKey());
            Struct topic = null;
            for (Map.Entry<TopicPartition, ErrorCode> e : result.getValue().entrySet()) {
                if (topic == null || !topic.get(WritableTxnMarkerTopicResult.NAME).equals(e.getKey().topic())) {
                    topic = marker.add(WritableTxnMarkerResult.TOPICS)
                            .set(WritableTxnMarkerTopicResult.NAME, e.getKey().topic());
                }
                topic.add(WritableTxnMarkerTopicResult.PARTITIONS)
                        .set(WritableTxnMarkerPartitionResult.PARTITION_INDEX, e.getKey().partition())
                        .set(WritableTxnMarkerPartitionResult.ERROR_CODE, e.getValue().code());
            }
        }
        return response;
    }
}
