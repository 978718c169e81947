package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.log.LogException;
import io.odradek.log.PartitionLog;
import io.odradek.replication.metadata.TopicNames;
import io.odradek.replication.partition.Partitions;
import io.odradek.replication.partition.ReplicaManager;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AlterReplicaLogDirsApi;
import io.odradek.wire.api.AlterReplicaLogDirsApi.Request.AlterReplicaLogDir;
import io.odradek.wire.api.AlterReplicaLogDirsApi.Request.AlterReplicaLogDir.AlterReplicaLogDirTopic;
import io.odradek.wire.api.AlterReplicaLogDirsApi.Response;
import io.odradek.wire.api.AlterReplicaLogDirsApi.Response.AlterReplicaLogDirTopicResult;
import io.odradek.wire.api.AlterReplicaLogDirsApi.Response.AlterReplicaLogDirTopicResult.AlterReplicaLogDirPartitionResult;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

/**
 * AlterReplicaLogDirs (key 34), versions 0-2 (v1 only marks throttling after the response, v2 is flexible):
 * {@code kafka-reassign-partitions} with {@code log_dirs}, Admin.alterReplicaLogDirs.
 *
 * <p>Behaviour notes (Kafka 4.4's ReplicaManager.alterReplicaLogDirs), per partition, in Kafka's order of checks:
 * <ul>
 * <li>INVALID_TOPIC_EXCEPTION when the future dir name ({@code <topic>-<p>.<32 hex>-future}) would pass 255
 *     characters; LOG_DIR_NOT_FOUND when the path is not one of {@code log.dirs} as an absolute path;
 *     KAFKA_STORAGE_ERROR when that dir, or the partition's own, is offline; REPLICA_NOT_AVAILABLE when this
 *     broker holds no replica of the partition (Kafka's answer for NOT_LEADER_OR_FOLLOWER here).</li>
 * <li>Already in that dir: NONE, nothing happens.</li>
 * <li>Otherwise the log moves before the answer (Kafka answers at once and copies in the background through
 *     a future replica that DescribeLogDirs lists with isFuture): on the partition's writer, so no append
 *     interleaves, the log is closed, copied, forced and opened again in the new dir (see
 *     {@code LogManager.moveLog}). On one node the next request finds a fresh Partition over the moved log;
 *     in a cluster the ReplicaManager retires the replica's Partition and installs a fresh one with the same
 *     registration ({@code ReplicaManager.moveReplica}, on the metadata thread): a leader starts over at its
 *     epoch, a follower fetches again. Appends wait for the copy; reads still sending from the old files fail
 *     and are retried by the client.</li>
 * <li>Not done: on one node, internal topics (their coordinators hold their partition) answer
 *     INVALID_TOPIC_EXCEPTION without moving; Kafka moves them.</li>
 * <li>A partition listed twice goes to the last dir named, as Kafka's map does.</li>
 * <li>Authorization (issue 10), as Kafka 4.4: ALTER on the cluster, else every partition of the request is
 *     CLUSTER_AUTHORIZATION_FAILED (one result per dir and topic entry, as Kafka's error response) and nothing
 *     moves.</li>
 * </ul>
 */
public final class AlterReplicaLogDirsHandler implements ApiHandler {
    /** Kafka's logFutureDirName: {@code <topic>-<partition>.<32 hex>-future}, which a file system caps at 255. */
    private static final int FUTURE_DIR_EXTRA = 1 + 32 + "-future".length();

    private final TopicService topics;
    private final Partitions partitions;
    /** The cluster's replicas; null on one node. */
    private final ReplicaManager replicaManager;

    /** @param replicaManager null on one node */
    public AlterReplicaLogDirsHandler(TopicService topics, Partitions partitions, ReplicaManager replicaManager) {
        this.topics = topics;
        this.partitions = partitions;
        this.replicaManager = replicaManager;
    }

    @Override
    public ApiSpec api() {
        return AlterReplicaLogDirsApi.SPEC;
    }

    private record TopicPartition(String topic, int partition) {
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!context.session().authorizedOnCluster(AclOperation.ALTER)) {
            return CompletableFuture.completedFuture(refused(request));
        }
        Map<TopicPartition, String> destinations = new LinkedHashMap<>();
        for (Struct dir : request.get(AlterReplicaLogDirsApi.Request.DIRS)) {
            for (Struct topic : dir.get(AlterReplicaLogDir.TOPICS)) {
                for (int p : topic.get(AlterReplicaLogDirTopic.PARTITIONS)) {
                    destinations.put(new TopicPartition(topic.get(AlterReplicaLogDirTopic.NAME), p),
                            dir.get(AlterReplicaLogDir.PATH));
                }
            }
        }
        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
        Map<String, Struct> results = new LinkedHashMap<>();
        List<CompletableFuture<Void>> moves = new ArrayList<>();
        for (Map.Entry<TopicPartition, String> e : destinations.entrySet()) {
            TopicPartition tp = e.getKey();
            Struct out = results.computeIfAbsent(tp.topic(), name -> response.add(Response.RESULTS)
                            .set(AlterReplicaLogDirTopicResult.TOPIC_NAME, name))
                    .add(AlterReplicaLogDirTopicResult.PARTITIONS)
                    .set(AlterReplicaLogDirPartitionResult.PARTITION_INDEX, tp.partition());
            ErrorCode refused = check(tp, e.getValue());
            if (refused != null) {
                out.set(AlterReplicaLogDirPartitionResult.ERROR_CODE, refused.code());
                continue;
            }
            moves.add(move(tp, Path.of(e.getValue())).handle((moved, error) -> {
                out.set(AlterReplicaLogDirPartitionResult.ERROR_CODE, error == null ? ErrorCode.NONE.code()
                        : errorCode(error).code());
                return null;
            }));
        }
        return CompletableFuture.allOf(moves.toArray(CompletableFuture[]::new)).thenApply(v -> response);
    }

    /** The answer when the partition is not to be moved (NONE: already there), or null to move it. */
    private ErrorCode check(TopicPartition tp, String destination) {
        String dirName = tp.topic() + "-" + tp.partition();
        if (dirName.length() + FUTURE_DIR_EXTRA > 255) {
            return ErrorCode.INVALID_TOPIC_EXCEPTION;
        }
        Path configured = null;
        for (Path d : topics.settings().logDirs()) {
            if (d.toAbsolutePath().toString().equals(destination)
                    || d.toAbsolutePath().normalize().toString().equals(destination)) {
                configured = d;
            }
        }
        if (configured == null) {
            return ErrorCode.LOG_DIR_NOT_FOUND;
        }
        if (isOffline(configured) || topics.isOffline(tp.topic(), tp.partition())) {
            return ErrorCode.KAFKA_STORAGE_ERROR;
        }
        PartitionLog log = topics.partitionLog(tp.topic(), tp.partition()).orElse(null);
        if (log == null) {
            return ErrorCode.REPLICA_NOT_AVAILABLE;
        }
        if (log.dir().getParent().toAbsolutePath().normalize().equals(configured.toAbsolutePath().normalize())) {
            return ErrorCode.NONE;
        }
        if (replicaManager == null && TopicNames.isInternal(tp.topic())) {
            return ErrorCode.INVALID_TOPIC_EXCEPTION;
        }
        return null;
    }

    private boolean isOffline(Path dir) {
        Path normalized = dir.toAbsolutePath().normalize();
        return topics.offlineDirs().stream().anyMatch(o -> o.toAbsolutePath().normalize().equals(normalized));
    }

    /** Moves the log on the partition's writer, so that appends wait for the copy instead of racing it. */
    private CompletableFuture<PartitionLog> move(TopicPartition tp, Path destination) {
        if (replicaManager != null) {
            // Blocks until the replica serves again from its new dir: on the metadata thread, not the event loop.
            return topics.async(() -> {
                replicaManager.moveReplica(tp.topic(), tp.partition(),
                        () -> topics.moveLog(tp.topic(), tp.partition(), destination));
                return topics.partitionLog(tp.topic(), tp.partition()).orElse(null);
            });
        }
        CompletableFuture<PartitionLog> moved = new CompletableFuture<>();
        try {
            partitions.writerFor(tp.topic(), tp.partition()).execute(() -> {
                try {
                    moved.complete(topics.moveLog(tp.topic(), tp.partition(), destination));
                } catch (RuntimeException e) {
                    moved.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            moved.completeExceptionally(e);
        }
        return moved;
    }

    private static ErrorCode errorCode(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof LogException le ? le.errorCode() : ErrorCode.UNKNOWN_SERVER_ERROR;
    }

    /** Kafka's AlterReplicaLogDirsRequest.getErrorResponse: each dir's topics, each partition with the error. */
    private static Struct refused(Struct request) {
        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
        for (Struct dir : request.get(AlterReplicaLogDirsApi.Request.DIRS)) {
            for (Struct topic : dir.get(AlterReplicaLogDir.TOPICS)) {
                Struct result = response.add(Response.RESULTS)
                        .set(AlterReplicaLogDirTopicResult.TOPIC_NAME, topic.get(AlterReplicaLogDirTopic.NAME));
                for (int p : topic.get(AlterReplicaLogDirTopic.PARTITIONS)) {
                    result.add(AlterReplicaLogDirTopicResult.PARTITIONS)
                            .set(AlterReplicaLogDirPartitionResult.PARTITION_INDEX, p)
                            .set(AlterReplicaLogDirPartitionResult.ERROR_CODE,
                                    ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());
                }
            }
        }
        return response;
    }
}
