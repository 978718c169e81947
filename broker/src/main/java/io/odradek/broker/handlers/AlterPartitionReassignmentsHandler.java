package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerCommand.PartitionRef;
import io.odradek.replication.cluster.ItemResult;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AlterPartitionReassignmentsApi;
import io.odradek.wire.api.AlterPartitionReassignmentsApi.Request.ReassignableTopic;
import io.odradek.wire.api.AlterPartitionReassignmentsApi.Request.ReassignableTopic.ReassignablePartition;
import io.odradek.wire.api.AlterPartitionReassignmentsApi.Response;
import io.odradek.wire.api.AlterPartitionReassignmentsApi.Response.ReassignableTopicResponse;
import io.odradek.wire.api.AlterPartitionReassignmentsApi.Response.ReassignableTopicResponse.ReassignablePartitionResponse;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * AlterPartitionReassignments (key 45), versions 0-1 (flexible): {@code kafka-reassign-partitions --execute
 * / --cancel}, Admin.alterPartitionReassignments. Each partition gets a target replica list, or null to
 * cancel its reassignment. One result per partition, in request order, as Kafka's controller answers:
 * <ul>
 * <li>Unknown topic or partition: UNKNOWN_TOPIC_OR_PARTITION ("Unable to find a topic named T." / "Unable
 *     to find partition T:P."), answered here from the image.</li>
 * <li>v1 AllowReplicationFactorChange false (echoed in the response): a target whose size differs from the
 *     partition's replica count is INVALID_REPLICATION_FACTOR "The replication factor is changed from N to M".</li>
 * <li>In a cluster the rest go to the controller quorum as one {@code AlterReassignments} command (results
 *     keyed "topic-partition": INVALID_REPLICA_ASSIGNMENT for empty, duplicate or unregistered brokers,
 *     NO_REASSIGNMENT_IN_PROGRESS for a cancel with nothing to cancel); the replicas then move as in Kafka
 *     (adding/removing until the targets are in sync). The answer waits until this broker applied the
 *     command, bounded by TimeoutMs (REQUEST_TIMED_OUT, per partition and top level).</li>
 * <li>On a single node this broker is the only possible replica: a target of [us] is a no-op success, an
 *     empty target, us twice or any other broker is INVALID_REPLICA_ASSIGNMENT with Kafka's message, and a
 *     cancel is NO_REASSIGNMENT_IN_PROGRESS.</li>
 * <li>Authorization (issue 10), as Kafka 4.4's controller: ALTER on the cluster, else the top-level error and
 *     every partition CLUSTER_AUTHORIZATION_FAILED, message "Cluster authorization failed." (Kafka's names its
 *     request); nothing moves.</li>
 * </ul>
 */
public final class AlterPartitionReassignmentsHandler implements ApiHandler {
    private final ClusterView cluster;

    public AlterPartitionReassignmentsHandler(ClusterView cluster) {
        this.cluster = cluster;
    }

    @Override
    public ApiSpec api() {
        return AlterPartitionReassignmentsApi.SPEC;
    }

    private record Result(ErrorCode error, String message) {
        static final Result OK = new Result(ErrorCode.NONE, null);
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!context.session().authorizedOnCluster(AclOperation.ALTER)) {
            return CompletableFuture.completedFuture(refused(request));
        }
        boolean allowRfChange = request.get(AlterPartitionReassignmentsApi.Request.ALLOW_REPLICATION_FACTOR_CHANGE);
        ClusterImage image = cluster.image();
        Map<String, Map<Integer, Result>> results = new LinkedHashMap<>();
        Map<PartitionRef, List<Integer>> targets = new LinkedHashMap<>();
        for (Struct t : request.get(AlterPartitionReassignmentsApi.Request.TOPICS)) {
            String topic = t.get(ReassignableTopic.NAME);
            Map<Integer, Result> partitions = results.computeIfAbsent(topic, k -> new LinkedHashMap<>());
            TopicImage known = image.topics().get(topic);
            for (Struct p : t.get(ReassignableTopic.PARTITIONS)) {
                int index = p.get(ReassignablePartition.PARTITION_INDEX);
                List<Integer> target = p.get(ReassignablePartition.REPLICAS);
                PartitionRegistration current = known == null ? null : known.partition(index);
                if (known == null) {
                    partitions.put(index, new Result(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                            "Unable to find a topic named " + topic + "."));
                } else if (current == null) {
                    partitions.put(index, new Result(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                            "Unable to find partition " + topic + ":" + index + "."));
                } else if (target != null && !allowRfChange && target.size() != originalReplicas(current).size()) {
                    partitions.put(index, new Result(ErrorCode.INVALID_REPLICATION_FACTOR,
                            "The replication factor is changed from " + originalReplicas(current).size() + " to "
                                    + target.size()));
                } else {
                    partitions.put(index, Result.OK);
                    targets.put(new PartitionRef(topic, index), target == null ? null : List.copyOf(target));
                }
            }
        }

        ControllerChannel controller = cluster.controller().orElse(null);
        if (controller == null || targets.isEmpty()) {
            targets.forEach((ref, target) -> results.get(ref.topic()).put(ref.partition(), singleNode(target)));
            return CompletableFuture.completedFuture(response(results, allowRfChange, ErrorCode.NONE, null));
        }
        int timeoutMs = request.get(AlterPartitionReassignmentsApi.Request.TIMEOUT_MS);
        CompletableFuture<CommandResult> altered = controller.submit(new ControllerCommand.AlterReassignments(targets))
                .thenCompose(result -> cluster.awaitApplied(result.offset()).thenApply(applied -> result));
        if (timeoutMs > 0) {
            altered = altered.orTimeout(timeoutMs, TimeUnit.MILLISECONDS);
        }
        return altered.handle((result, failure) -> {
            if (failure != null) {
                Result failed = new Result(ControllerFailures.error(failure), ControllerFailures.message(failure));
                targets.keySet().forEach(ref -> results.get(ref.topic()).put(ref.partition(), failed));
                return response(results, allowRfChange, failed.error(), failed.message());
            }
            if (result.error() != ErrorCode.NONE) {
                Result failed = new Result(result.error(), result.message());
                targets.keySet().forEach(ref -> results.get(ref.topic()).put(ref.partition(), failed));
                return response(results, allowRfChange, ErrorCode.NONE, null);
            }
            Map<String, ItemResult> byKey = new HashMap<>();
            result.items().forEach(item -> byKey.put(item.key(), item));
            for (PartitionRef ref : targets.keySet()) {
                ItemResult item = byKey.get(ref.toString());
                if (item != null) {
                    results.get(ref.topic()).put(ref.partition(), new Result(item.error(), item.message()));
                }
            }
            return response(results, allowRfChange, ErrorCode.NONE, null);
        });
    }

    /** The replicas before the reassignment in progress, if any (its targets then are replicas minus removing). */
    private static List<Integer> originalReplicas(PartitionRegistration p) {
        List<Integer> original = new ArrayList<>(p.replicas());
        original.removeAll(p.adding());
        return original;
    }

    private Result singleNode(List<Integer> target) {
        if (target == null) {
            return new Result(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, null);
        }
        if (target.isEmpty()) {
            return new Result(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                    "The manual partition assignment includes an empty replica list.");
        }
        int us = cluster.localBrokerId();
        Set<Integer> seen = new HashSet<>();
        for (int broker : target) {
            if (broker != us) {
                return new Result(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment includes "
                        + "broker " + broker + ", but no such broker is registered.");
            }
            if (!seen.add(broker)) {
                return new Result(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes the broker " + broker + " more than once.");
            }
        }
        return Result.OK;
    }

    private static Struct response(Map<String, Map<Integer, Result>> results, boolean allowRfChange,
            ErrorCode topLevel, String message) {
        Struct response = Response.SCHEMA.newStruct()
                .set(Response.ALLOW_REPLICATION_FACTOR_CHANGE, allowRfChange)
                .set(Response.ERROR_CODE, topLevel.code())
                .set(Response.ERROR_MESSAGE, message);
        results.forEach((topic, partitions) -> {
            Struct t = response.add(Response.RESPONSES).set(ReassignableTopicResponse.NAME, topic);
            partitions.forEach((p, r) -> t.add(ReassignableTopicResponse.PARTITIONS)
                    .set(ReassignablePartitionResponse.PARTITION_INDEX, p)
                    .set(ReassignablePartitionResponse.ERROR_CODE, r.error().code())
                    .set(ReassignablePartitionResponse.ERROR_MESSAGE, r.message()));
        });
        return response;
    }

    /** Kafka's AlterPartitionReassignmentsRequest.getErrorResponse for CLUSTER_AUTHORIZATION_FAILED. */
    private static Struct refused(Struct request) {
        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0)
                .set(Response.ERROR_CODE, ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code())
                .set(Response.ERROR_MESSAGE, "Cluster authorization failed.");
        for (Struct t : request.get(AlterPartitionReassignmentsApi.Request.TOPICS)) {
            Struct topic = response.add(Response.RESPONSES)
                    .set(ReassignableTopicResponse.NAME, t.get(ReassignableTopic.NAME));
            for (Struct p : t.get(ReassignableTopic.PARTITIONS)) {
                topic.add(ReassignableTopicResponse.PARTITIONS)
                        .set(ReassignablePartitionResponse.PARTITION_INDEX, p.get(ReassignablePartition.PARTITION_INDEX))
                        .set(ReassignablePartitionResponse.ERROR_CODE, ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code())
                        .set(ReassignablePartitionResponse.ERROR_MESSAGE, "Cluster authorization failed.");
            }
        }
        return response;
    }
}
