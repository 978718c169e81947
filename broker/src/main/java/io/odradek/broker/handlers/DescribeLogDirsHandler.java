package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.log.PartitionLog;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeLogDirsApi;
import io.odradek.wire.api.DescribeLogDirsApi.Request.DescribableLogDirTopic;
import io.odradek.wire.api.DescribeLogDirsApi.Response;
import io.odradek.wire.api.DescribeLogDirsApi.Response.DescribeLogDirsResult;
import io.odradek.wire.api.DescribeLogDirsApi.Response.DescribeLogDirsResult.DescribeLogDirsTopic;
import io.odradek.wire.api.DescribeLogDirsApi.Response.DescribeLogDirsResult.DescribeLogDirsTopic.DescribeLogDirsPartition;
import io.odradek.wire.schema.Struct;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeLogDirs (key 35), versions 0-5 (flexible from v2; v0, dropped by Kafka 4, answered as v1, as Kafka
 * 3.9 did; they differ only in how a quota throttles them): {@code kafka-log-dirs
 * --describe}, Admin.describeLogDirs / describeReplicaLogDirs. Every log dir of this broker ({@code log.dirs},
 * as absolute paths) with the replicas it holds here, as Kafka's ReplicaManager.describeLogDirs:
 * <ul>
 * <li>Topics null = every local replica; otherwise only the named partitions (unknown ones are left out).
 *     Per partition: size of its segments in bytes, offset lag 0 (the lag of the log end behind the high
 *     watermark, which never exceeds it), IsFutureKey false (no AlterReplicaLogDirs moves here). A topic
 *     with no partition listed in a dir is left out of that dir.</li>
 * <li>v4+: the dir's volume total and usable bytes (Long.MAX_VALUE when the store overflows a long, as
 *     Kafka); v5 IsCordoned false (no cordoning here).</li>
 * <li>A log dir taken offline by an I/O error: KAFKA_STORAGE_ERROR and nothing else; a dir whose volume
 *     cannot be read: UNKNOWN_SERVER_ERROR.</li>
 * <li>Top-level error (v3+) NONE.</li>
 * <li>Authorization (issue 10), as Kafka 4.4: DESCRIBE on the cluster, else no results and (v3+) the top-level
 *     error CLUSTER_AUTHORIZATION_FAILED.</li>
 * </ul>
 * In a cluster this lists the replicas this broker holds (leaders and followers alike): the tool asks each
 * broker in turn.
 */
public final class DescribeLogDirsHandler implements ApiHandler {
    private final TopicService topics;

    public DescribeLogDirsHandler(TopicService topics) {
        this.topics = topics;
    }

    @Override
    public ApiSpec api() {
        return DescribeLogDirsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!context.session().authorizedOnCluster(AclOperation.DESCRIBE)) {
            return CompletableFuture.completedFuture(Response.SCHEMA.newStruct()
                    .set(Response.ERROR_CODE, ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code()));
        }
        Map<String, Set<Integer>> wanted = wanted(request.get(DescribeLogDirsApi.Request.TOPICS));
        Set<Path> offline = topics.offlineDirs();
        Map<Path, Map<String, List<PartitionLog>>> byDir = new HashMap<>();
        for (TopicInfo t : topics.topics()) {
            Set<Integer> partitions = wanted == null ? null : wanted.get(t.name());
            if (wanted != null && partitions == null) {
                continue;
            }
            for (int p = 0; p < t.partitions(); p++) {
                if (partitions != null && !partitions.contains(p)) {
                    continue;
                }
                topics.partitionLog(t.name(), p).ifPresent(log -> byDir
                        .computeIfAbsent(log.dir().getParent().toAbsolutePath().normalize(), d -> new LinkedHashMap<>())
                        .computeIfAbsent(log.topic(), n -> new ArrayList<>()).add(log));
            }
        }

        Struct response = Response.SCHEMA.newStruct().set(Response.ERROR_CODE, ErrorCode.NONE.code());
        for (Path configured : topics.settings().logDirs()) {
            Path dir = configured.toAbsolutePath().normalize();
            Struct result = response.add(Response.RESULTS).set(DescribeLogDirsResult.LOG_DIR, dir.toString());
            if (offline.contains(configured) || offline.contains(dir)) {
                result.set(DescribeLogDirsResult.ERROR_CODE, ErrorCode.KAFKA_STORAGE_ERROR.code());
                continue;
            }
            try {
                FileStore store = Files.getFileStore(dir);
                result.set(DescribeLogDirsResult.TOTAL_BYTES, orMax(store.getTotalSpace()))
                        .set(DescribeLogDirsResult.USABLE_BYTES, orMax(store.getUsableSpace()));
            } catch (IOException e) {
                result.set(DescribeLogDirsResult.ERROR_CODE, ErrorCode.UNKNOWN_SERVER_ERROR.code());
                continue;
            }
            result.set(DescribeLogDirsResult.ERROR_CODE, ErrorCode.NONE.code());
            byDir.getOrDefault(dir, Map.of()).forEach((name, logs) -> {
                Struct topic = result.add(DescribeLogDirsResult.TOPICS).set(DescribeLogDirsTopic.NAME, name);
                for (PartitionLog log : logs) {
                    topic.add(DescribeLogDirsTopic.PARTITIONS)
                            .set(DescribeLogDirsPartition.PARTITION_INDEX, log.partition())
                            .set(DescribeLogDirsPartition.PARTITION_SIZE, log.sizeInBytes())
                            .set(DescribeLogDirsPartition.OFFSET_LAG, 0L)
                            .set(DescribeLogDirsPartition.IS_FUTURE_KEY, false);
                }
            });
        }
        return CompletableFuture.completedFuture(response);
    }

    /** Requested partitions by topic, or null for all. */
    private static Map<String, Set<Integer>> wanted(List<Struct> requested) {
        if (requested == null) {
            return null;
        }
        Map<String, Set<Integer>> wanted = new HashMap<>();
        for (Struct t : requested) {
            wanted.computeIfAbsent(t.get(DescribableLogDirTopic.TOPIC), n -> new TreeSet<>())
                    .addAll(t.get(DescribableLogDirTopic.PARTITIONS));
        }
        return wanted;
    }

    /** Kafka's adjustForLargeFileSystems: a volume larger than a long reads as negative. */
    private static long orMax(long bytes) {
        return bytes < 0 ? Long.MAX_VALUE : bytes;
    }
}
