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
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ElectLeadersApi;
import io.odradek.wire.api.ElectLeadersApi.Request.TopicPartitions;
import io.odradek.wire.api.ElectLeadersApi.Response;
import io.odradek.wire.api.ElectLeadersApi.Response.ReplicaElectionResult;
import io.odradek.wire.api.ElectLeadersApi.Response.ReplicaElectionResult.PartitionResult;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * ElectLeaders (key 43), versions 0-2 (flexible from v2): {@code kafka-leader-election}, Admin.electLeaders.
 * ElectionType (v1+; v0 is preferred): 0 = PREFERRED (the first replica, if it is in sync and live), 1 =
 * UNCLEAN (any live replica when no in-sync one is left). Results as Kafka's controller gives them:
 * <ul>
 * <li>Named partitions: one result each, in request order; an unknown topic is UNKNOWN_TOPIC_OR_PARTITION
 *     "No such topic as T", an unknown partition "No such partition as T-P"; a partition already led as
 *     asked is ELECTION_NOT_NEEDED (Kafka's message "Leader election not needed for topic partition.").</li>
 * <li>TopicPartitions null: every partition of every topic, but, as Kafka, without the ELECTION_NOT_NEEDED
 *     ones (each topic still listed).</li>
 * <li>In a cluster the known partitions go to the controller quorum as one {@code ElectLeaders} command
 *     (per-partition results keyed "topic-partition"; errors PREFERRED_LEADER_NOT_AVAILABLE,
 *     ELIGIBLE_LEADERS_NOT_AVAILABLE...), and the answer waits until this broker applied it, bounded by
 *     TimeoutMs (REQUEST_TIMED_OUT for each partition sent, and top-level from v1).</li>
 * <li>On a single node this broker is every partition's only replica: an election is never needed
 *     (ELECTION_NOT_NEEDED); a partition whose log dir is offline has no leader to elect:
 *     PREFERRED_LEADER_NOT_AVAILABLE, or ELIGIBLE_LEADERS_NOT_AVAILABLE for an unclean election.</li>
 * <li>An election type other than 0 or 1 is INVALID_REQUEST for every partition.</li>
 * <li>Authorization (issue 10), as Kafka 4.4's controller: ALTER on the cluster, else the top-level error (v1+)
 *     CLUSTER_AUTHORIZATION_FAILED and every partition named with it (none when all were asked for), message
 *     "Cluster authorization failed." (Kafka's names its request); nothing is elected.</li>
 * </ul>
 */
public final class ElectLeadersHandler implements ApiHandler {
    private static final byte PREFERRED = 0;
    private static final byte UNCLEAN = 1;
    private static final String NOT_NEEDED = "Leader election not needed for topic partition.";

    private final ClusterView cluster;

    public ElectLeadersHandler(ClusterView cluster) {
        this.cluster = cluster;
    }

    @Override
    public ApiSpec api() {
        return ElectLeadersApi.SPEC;
    }

    private record Result(ErrorCode error, String message) {
        static final Result OK = new Result(ErrorCode.NONE, null);
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!context.session().authorizedOnCluster(AclOperation.ALTER)) {
            return CompletableFuture.completedFuture(refused(request));
        }
        byte type = context.version() >= 1 ? request.get(ElectLeadersApi.Request.ELECTION_TYPE) : PREFERRED;
        List<Struct> requested = request.get(ElectLeadersApi.Request.TOPIC_PARTITIONS);
        boolean all = requested == null;
        ClusterImage image = cluster.image();

        // Every partition asked for, by topic in request order, with what is known before any election.
        Map<String, Map<Integer, Result>> results = new LinkedHashMap<>();
        List<PartitionRef> toElect = new ArrayList<>();
        if (all) {
            for (TopicImage t : image.topics().values()) {
                Map<Integer, Result> partitions = results.computeIfAbsent(t.name(), k -> new LinkedHashMap<>());
                for (int p = 0; p < t.partitions().size(); p++) {
                    partitions.put(p, Result.OK);
                    toElect.add(new PartitionRef(t.name(), p));
                }
            }
        } else {
            for (Struct t : requested) {
                String topic = t.get(TopicPartitions.TOPIC);
                Map<Integer, Result> partitions = results.computeIfAbsent(topic, k -> new LinkedHashMap<>());
                TopicImage known = image.topics().get(topic);
                for (int p : t.get(TopicPartitions.PARTITIONS)) {
                    if (known == null) {
                        partitions.put(p, new Result(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "No such topic as " + topic));
                    } else if (known.partition(p) == null) {
                        partitions.put(p, new Result(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                                "No such partition as " + topic + "-" + p));
                    } else {
                        partitions.put(p, Result.OK);
                        toElect.add(new PartitionRef(topic, p));
                    }
                }
            }
        }
        if (type != PREFERRED && type != UNCLEAN) {
            Result invalid = new Result(ErrorCode.INVALID_REQUEST, "Unknown election type " + type);
            toElect.forEach(ref -> results.get(ref.topic()).put(ref.partition(), invalid));
            return CompletableFuture.completedFuture(response(results, all, ErrorCode.NONE));
        }

        ControllerChannel controller = cluster.controller().orElse(null);
        if (controller == null || toElect.isEmpty()) {
            toElect.forEach(ref -> results.get(ref.topic()).put(ref.partition(),
                    singleNode(image.partition(ref.topic(), ref.partition()).orElseThrow(), type)));
            return CompletableFuture.completedFuture(response(results, all, ErrorCode.NONE));
        }
        int timeoutMs = request.get(ElectLeadersApi.Request.TIMEOUT_MS);
        CompletableFuture<CommandResult> elected = controller
                .submit(new ControllerCommand.ElectLeaders(type == UNCLEAN, all ? null : toElect))
                .thenCompose(result -> cluster.awaitApplied(result.offset()).thenApply(applied -> result));
        if (timeoutMs > 0) {
            elected = elected.orTimeout(timeoutMs, TimeUnit.MILLISECONDS);
        }
        return elected.handle((result, failure) -> {
            if (failure != null) {
                Result failed = new Result(ControllerFailures.error(failure), ControllerFailures.message(failure));
                toElect.forEach(ref -> results.get(ref.topic()).put(ref.partition(), failed));
                return response(results, all, failed.error());
            }
            if (result.error() != ErrorCode.NONE) {
                Result failed = new Result(result.error(), result.message());
                toElect.forEach(ref -> results.get(ref.topic()).put(ref.partition(), failed));
                return response(results, all, ErrorCode.NONE);
            }
            Map<String, ItemResult> byKey = new HashMap<>();
            result.items().forEach(item -> byKey.put(item.key(), item));
            for (PartitionRef ref : toElect) {
                // Asked for all partitions, the controller leaves out those that needed no election.
                ItemResult item = byKey.getOrDefault(ref.toString(),
                        new ItemResult(ref.toString(), ErrorCode.ELECTION_NOT_NEEDED, null));
                results.get(ref.topic()).put(ref.partition(), new Result(item.error(),
                        item.error() == ErrorCode.ELECTION_NOT_NEEDED && item.message() == null
                                ? NOT_NEEDED : item.message()));
            }
            return response(results, all, ErrorCode.NONE);
        });
    }

    /** This broker is the only replica: its leadership is the only possible outcome. */
    private static Result singleNode(PartitionRegistration partition, byte type) {
        if (partition.hasLeader()) {
            return new Result(ErrorCode.ELECTION_NOT_NEEDED, NOT_NEEDED);
        }
        return type == PREFERRED
                ? new Result(ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE,
                        "Failed to elect leader for partition: the preferred replica is not available.")
                : new Result(ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE,
                        "Failed to elect leader for partition: no live replica is left.");
    }

    private static Struct response(Map<String, Map<Integer, Result>> results, boolean all, ErrorCode topLevel) {
        Struct response = Response.SCHEMA.newStruct().set(Response.ERROR_CODE, topLevel.code());
        results.forEach((topic, partitions) -> {
            Struct t = response.add(Response.REPLICA_ELECTION_RESULTS).set(ReplicaElectionResult.TOPIC, topic);
            partitions.forEach((p, r) -> {
                if (!all || r.error() != ErrorCode.ELECTION_NOT_NEEDED) {
                    t.add(ReplicaElectionResult.PARTITION_RESULT)
                            .set(PartitionResult.PARTITION_ID, p)
                            .set(PartitionResult.ERROR_CODE, r.error().code())
                            .set(PartitionResult.ERROR_MESSAGE, r.message());
                }
            });
        });
        return response;
    }

    /** Kafka's ElectLeadersRequest.getErrorResponse for CLUSTER_AUTHORIZATION_FAILED. */
    private static Struct refused(Struct request) {
        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0)
                .set(Response.ERROR_CODE, ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());
        List<Struct> requested = request.get(ElectLeadersApi.Request.TOPIC_PARTITIONS);
        for (Struct t : requested == null ? List.<Struct>of() : requested) {
            Struct topic = response.add(Response.REPLICA_ELECTION_RESULTS)
                    .set(ReplicaElectionResult.TOPIC, t.get(TopicPartitions.TOPIC));
            for (int p : t.get(TopicPartitions.PARTITIONS)) {
                topic.add(ReplicaElectionResult.PARTITION_RESULT)
                        .set(PartitionResult.PARTITION_ID, p)
                        .set(PartitionResult.ERROR_CODE, ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code())
                        .set(PartitionResult.ERROR_MESSAGE, "Cluster authorization failed.");
            }
        }
        return response;
    }
}
