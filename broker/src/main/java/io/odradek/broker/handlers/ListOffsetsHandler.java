package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.log.LogException;
import io.odradek.log.OffsetAndTimestamp;
import io.odradek.log.checkpoint.LeaderEpochFile;
import io.odradek.replication.partition.FetchIsolation;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.PartitionState;
import io.odradek.replication.partition.Partitions;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ListOffsetsApi;
import io.odradek.wire.api.ListOffsetsApi.Request;
import io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic;
import io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition;
import io.odradek.wire.api.ListOffsetsApi.Response;
import io.odradek.wire.api.ListOffsetsApi.Response.ListOffsetsTopicResponse;
import io.odradek.wire.api.ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse;
import io.odradek.wire.schema.Struct;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * ListOffsets (key 2), versions 0-11. v0 (a list of up to MaxNumOffsets offsets per partition, Kafka 3.9's
 * semantics, dropped by Kafka 4) is answered by {@link ListOffsetsV0}; the notes below are v1+.
 *
 * <p>Behaviour / version notes (Kafka's Partition.fetchOffsetForTimestamp and UnifiedLog.fetchOffsetByTimestamp):
 * <ul>
 * <li>-1 latest: the last fetchable offset, from the {@link Partition} (consumers: the high watermark, or
 *     the last stable offset for read_committed (v2+), i.e. the first offset of the oldest open
 *     transaction if any; replicas and the debugging id -2: the log end).</li>
 * <li>-2 earliest and -4 earliest local (v8+, no tiered storage): the log start offset.</li>
 * <li>-3 max timestamp (v7+): the first record carrying the largest timestamp.</li>
 * <li>-5 latest tiered (v9+) and -6 earliest pending upload (v11+): offset -1, as Kafka answers without
 *     remote storage.</li>
 * <li>>= 0: the first record with a timestamp at or after it, and that record's timestamp. The log finds
 *     the batch from its headers and only then reads (decompressing if needed) that one batch.</li>
 * <li>A lookup with no answer, or one at or past the last fetchable offset (so, for read_committed, at or
 *     past the last stable offset: Kafka's Partition.fetchOffsetForTimestamp), is offset -1, timestamp -1.
 *     The timestamp is -1 for the -1/-2/-4 sentinels too. Leader epoch: for latest the partition's current
 *     one; for a timestamp or max-timestamp lookup the epoch of the batch found (KIP-320), read from the
 *     leader epoch cache (the entry starting at or before the offset; Kafka reads the batch header, the same
 *     unless batches carry no epoch); for earliest the first cached epoch; -1 where Kafka would have none.</li>
 * <li>KIP-207: a consumer asking a new leader whose high watermark is still below its leader epoch's start
 *     offset gets OFFSET_NOT_AVAILABLE (v5+; LEADER_NOT_AVAILABLE below) for latest, and for a timestamp or
 *     max-timestamp lookup that finds nothing below the last fetchable offset; earliest is answered.
 *     Replicas and the debugging id -2 are not checked, as in Kafka.</li>
 * <li>A sentinel newer than the request version, or an unknown negative timestamp: UNSUPPORTED_VERSION for
 *     that partition; a partition listed twice: INVALID_REQUEST; unknown topic or partition:
 *     UNKNOWN_TOPIC_OR_PARTITION. timeout_ms (v10+) only matters with tiered storage.</li>
 * <li>Authorization (issue 10), as Kafka 4.4: DESCRIBE on each topic, else its partitions are
 *     TOPIC_AUTHORIZATION_FAILED (offset and timestamp -1) before any other check (v0 too).</li>
 * <li>Leadership (Kafka's Partition.getLocalLog): answered by the partition's leader only, checked with the
 *     request's current_leader_epoch (v4+, -1: none): NOT_LEADER_OR_FOLLOWER (not the leader here, or a
 *     partition the metadata knows that this broker holds no replica of), FENCED_LEADER_EPOCH (the
 *     request's epoch is older), UNKNOWN_LEADER_EPOCH (newer: our metadata lags). The debugging replica id
 *     -2 may ask a follower, as in Kafka. No KIP-951 fields: ListOffsets has none.</li>
 * </ul>
 */
public final class ListOffsetsHandler implements ApiHandler {
    static final long LATEST = -1;
    static final long EARLIEST = -2;
    static final long MAX_TIMESTAMP = -3;
    static final long EARLIEST_LOCAL = -4;
    static final long LATEST_TIERED = -5;
    static final long EARLIEST_PENDING_UPLOAD = -6;
    private static final int CONSUMER_REPLICA_ID = -1;
    private static final int DEBUGGING_REPLICA_ID = -2;
    private static final byte READ_UNCOMMITTED = 0;

    private final Partitions partitions;
    private final ClusterView cluster;

    /** @param cluster the metadata image: whether a partition not hosted here exists elsewhere */
    public ListOffsetsHandler(Partitions partitions, ClusterView cluster) {
        this.partitions = partitions;
        this.cluster = cluster;
    }

    @Override
    public ApiSpec api() {
        return ListOffsetsApi.SPEC;
    }

    private record TopicPartition(String topic, int partition) {
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        short version = context.version();
        if (version == 0) {
            return CompletableFuture.completedFuture(ListOffsetsV0.answer(partitions, cluster, request,
                    System.currentTimeMillis(), TopicAccess.of(context, AclOperation.DESCRIBE)));
        }
        int replicaId = request.get(Request.REPLICA_ID);
        boolean consumer = replicaId == CONSUMER_REPLICA_ID;
        boolean leaderOnly = replicaId != DEBUGGING_REPLICA_ID;
        FetchIsolation isolation = FetchIsolation.of(!consumer, version >= 2 ? request.get(Request.ISOLATION_LEVEL) : READ_UNCOMMITTED);
        Set<TopicPartition> seen = new HashSet<>();
        Set<TopicPartition> duplicates = new HashSet<>();
        for (Struct topic : request.get(Request.TOPICS)) {
            for (Struct partition : topic.get(ListOffsetsTopic.PARTITIONS)) {
                TopicPartition tp = new TopicPartition(topic.get(ListOffsetsTopic.NAME),
                        partition.get(ListOffsetsPartition.PARTITION_INDEX));
                if (!seen.add(tp)) {
                    duplicates.add(tp);
                }
            }
        }

        TopicAccess describable = TopicAccess.of(context, AclOperation.DESCRIBE);
        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
        for (Struct topic : request.get(Request.TOPICS)) {
            String name = topic.get(ListOffsetsTopic.NAME);
            Struct topicResponse = response.add(Response.TOPICS).set(ListOffsetsTopicResponse.NAME, name);
            for (Struct partition : topic.get(ListOffsetsTopic.PARTITIONS)) {
                int index = partition.get(ListOffsetsPartition.PARTITION_INDEX);
                long timestamp = partition.get(ListOffsetsPartition.TIMESTAMP);
                Struct out = topicResponse.add(ListOffsetsTopicResponse.PARTITIONS)
                        .set(ListOffsetsPartitionResponse.PARTITION_INDEX, index);
                if (!describable.allowed(name)) {
                    unknown(out, ErrorCode.TOPIC_AUTHORIZATION_FAILED);
                } else if (duplicates.contains(new TopicPartition(name, index))) {
                    unknown(out, ErrorCode.INVALID_REQUEST);
                } else if (!supported(timestamp, version)) {
                    unknown(out, ErrorCode.UNSUPPORTED_VERSION);
                } else {
                    Optional<Partition> found = partitions.partition(name, index);
                    ErrorCode leadership;
                    if (found.isEmpty()) {
                        unknown(out, cluster.image().partition(name, index).isPresent()
                                ? ErrorCode.NOT_LEADER_OR_FOLLOWER : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
                    } else if ((leadership = checkLeader(found.get(),
                            partition.get(ListOffsetsPartition.CURRENT_LEADER_EPOCH), leaderOnly)) != ErrorCode.NONE) {
                        unknown(out, leadership);
                    } else {
                        try {
                            lookup(found.get(), timestamp, isolation, consumer, version, out);
                        } catch (LogException e) {
                            unknown(out, e.errorCode());
                        }
                    }
                }
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private static void lookup(Partition log, long timestamp, FetchIsolation isolation, boolean consumer, short version,
            Struct out) {
        // Consumers see up to the high watermark; read_committed ones up to the last stable offset. Replicas
        // see the log end.
        long lastFetchable = log.fetchableEnd(isolation);
        int leaderEpoch = log.leaderEpoch();
        // KIP-207: a new leader whose high watermark has not reached the start of its epoch yet cannot say
        // where the committed end is; Kafka answers a client's latest, or a lookup that finds nothing below the
        // last fetchable offset, with OFFSET_NOT_AVAILABLE (LEADER_NOT_AVAILABLE before v5) so it retries.
        ErrorCode lagging = consumer && hwmBehindEpochStart(log)
                ? (version >= 5 ? ErrorCode.OFFSET_NOT_AVAILABLE : ErrorCode.LEADER_NOT_AVAILABLE)
                : ErrorCode.NONE;
        if (timestamp == LATEST) {
            if (lagging != ErrorCode.NONE) {
                unknown(out, lagging);
            } else {
                found(out, -1L, lastFetchable, leaderEpoch);
            }
        } else if (timestamp == EARLIEST || timestamp == EARLIEST_LOCAL) {
            long start = log.logStartOffset();
            found(out, -1L, start, earliestEpoch(log.leaderEpochs(), start));
        } else if (timestamp == LATEST_TIERED || timestamp == EARLIEST_PENDING_UPLOAD) {
            unknown(out, ErrorCode.NONE);
        } else {
            Optional<OffsetAndTimestamp> hit = timestamp == MAX_TIMESTAMP
                    ? log.maxTimestampOffset()
                    : log.offsetForTimestamp(timestamp);
            if (hit.isPresent() && hit.get().offset() < lastFetchable) {
                // KIP-320: the epoch of the batch found, so the client can validate its position against it.
                found(out, hit.get().timestamp(), hit.get().offset(), epochAt(log.leaderEpochs(), hit.get().offset()));
            } else {
                unknown(out, lagging);
            }
        }
    }

    /** Whether this leader's high watermark is still below the offset its leader epoch started at. */
    private static boolean hwmBehindEpochStart(Partition log) {
        PartitionState state = log.state();
        return state.isLeader() && state.leaderEpochStartOffset() > log.highWatermark();
    }

    /**
     * The leader epoch of the batch holding {@code offset}: the epoch cache's entry that starts at or before
     * it (the cache records each batch epoch where it starts), -1 if none does (batches without an epoch).
     */
    static int epochAt(List<LeaderEpochFile.EpochEntry> epochs, long offset) {
        int epoch = -1;
        for (LeaderEpochFile.EpochEntry e : epochs) {
            if (e.startOffset() > offset) {
                break;
            }
            epoch = e.epoch();
        }
        return epoch;
    }

    /** The partition's leader check; a debugging client (-2) may also read a follower. */
    private static ErrorCode checkLeader(Partition partition, int currentLeaderEpoch, boolean leaderOnly) {
        ErrorCode error = partition.checkLeader(currentLeaderEpoch);
        if (!leaderOnly && error == ErrorCode.NOT_LEADER_OR_FOLLOWER) {
            return ErrorCode.NONE;
        }
        return error;
    }

    /** Kafka's: the first cached epoch, if it starts at or before the log start; else none. */
    private static int earliestEpoch(List<LeaderEpochFile.EpochEntry> epochs, long logStartOffset) {
        return !epochs.isEmpty() && epochs.get(0).startOffset() <= logStartOffset ? epochs.get(0).epoch() : -1;
    }

    private static void found(Struct out, long timestamp, long offset, int leaderEpoch) {
        out.set(ListOffsetsPartitionResponse.ERROR_CODE, ErrorCode.NONE.code())
                .set(ListOffsetsPartitionResponse.TIMESTAMP, timestamp)
                .set(ListOffsetsPartitionResponse.OFFSET, offset)
                .set(ListOffsetsPartitionResponse.LEADER_EPOCH, leaderEpoch);
    }

    private static void unknown(Struct out, ErrorCode error) {
        out.set(ListOffsetsPartitionResponse.ERROR_CODE, error.code())
                .set(ListOffsetsPartitionResponse.TIMESTAMP, -1L)
                .set(ListOffsetsPartitionResponse.OFFSET, -1L)
                .set(ListOffsetsPartitionResponse.LEADER_EPOCH, -1);
    }

    /** Kafka's ReplicaManager.isListOffsetsTimestampUnsupported: each sentinel from the version that added it. */
    static boolean supported(long timestamp, short version) {
        if (timestamp >= 0) {
            return true;
        }
        int minVersion;
        if (timestamp == LATEST || timestamp == EARLIEST) {
            minVersion = 1;
        } else if (timestamp == MAX_TIMESTAMP) {
            minVersion = 7;
        } else if (timestamp == EARLIEST_LOCAL) {
            minVersion = 8;
        } else if (timestamp == LATEST_TIERED) {
            minVersion = 9;
        } else if (timestamp == EARLIEST_PENDING_UPLOAD) {
            minVersion = 11;
        } else {
            return false;
        }
        return version >= minVersion;
    }
}
