package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.log.EpochEndOffset;
import io.odradek.log.LogException;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.Partitions;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.OffsetForLeaderEpochApi;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Request.OffsetForLeaderTopic;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Request.OffsetForLeaderTopic.OffsetForLeaderPartition;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Response;
import io.odradek.wire.api.OffsetForLeaderEpochApi.Response.OffsetForLeaderTopicResult;
import io.odradek.wire.schema.Struct;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * OffsetForLeaderEpoch (key 23), versions 0-4. v0-1 (Kafka 3.9's minimum, dropped by Kafka 4; sent by
 * brokers and clients before Kafka 2.1) are answered as Kafka 3.9 did: they carry no current leader epoch
 * (-1, so no fencing check) and no replica id (-2); v0's answer has no leader epoch, and v0-1 no
 * throttle time.
 *
 * <p>Behaviour / version notes (Kafka's ReplicaManager.lastOffsetForLeaderEpoch and
 * Partition.lastOffsetForLeaderEpoch):
 * <ul>
 * <li>For each partition: where leader epoch {@code leader_epoch} ended in the leader's log, from its epoch
 *     history (Kafka's LeaderEpochFileCache.endOffsetFor): the largest epoch at or below the one asked for and
 *     the start offset of the epoch after it, or the log end for the latest epoch. An epoch the log has no
 *     history for (below its first, or an empty history) is answered with no error and leader_epoch -1,
 *     end_offset -1, as Kafka does. On one node every batch carries epoch 0, so epoch 0 answers the log end.</li>
 * <li>Asked by consumers (replica_id -1, v3+; -2, Kafka's default, before v3) validating their position
 *     after a leader change (KIP-320) and by followers (replica_id >= 0) looking for where to truncate.
 *     Either way only the leader answers, as in Kafka: current_leader_epoch (-1: none) is checked first:
 *     NOT_LEADER_OR_FOLLOWER (not the leader here, or a partition the cluster metadata knows that this broker
 *     holds no replica of), FENCED_LEADER_EPOCH (the request's epoch is older), UNKNOWN_LEADER_EPOCH (newer:
 *     our metadata lags). A partition nobody knows: UNKNOWN_TOPIC_OR_PARTITION. A log that went offline: its
 *     storage error. The end offset is not bounded by the high watermark, as in Kafka.</li>
 * <li>Authorization (issue 10), as Kafka 4.4: CLUSTER_ACTION on the cluster (followers) allows every topic;
 *     otherwise (consumers, KIP-320) DESCRIBE on each topic, else its partitions are TOPIC_AUTHORIZATION_FAILED
 *     (epoch and end offset -1) without looking further. throttle_time_ms is 0.</li>
 * </ul>
 */
public final class OffsetForLeaderEpochHandler implements ApiHandler {
    private final Partitions partitions;
    private final ClusterView cluster;

    /** @param cluster the metadata image: whether a partition not hosted here exists elsewhere */
    public OffsetForLeaderEpochHandler(Partitions partitions, ClusterView cluster) {
        this.partitions = partitions;
        this.cluster = cluster;
    }

    @Override
    public ApiSpec api() {
        return OffsetForLeaderEpochApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        TopicAccess describable = TopicAccess.of(context, AclOperation.DESCRIBE);
        boolean everyTopic = describable.allowsEverything()
                || context.session().authorizedOnCluster(AclOperation.CLUSTER_ACTION);
        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
        for (Struct topic : request.get(OffsetForLeaderEpochApi.Request.TOPICS)) {
            String name = topic.get(OffsetForLeaderTopic.TOPIC);
            Struct topicResponse = response.add(Response.TOPICS).set(OffsetForLeaderTopicResult.TOPIC, name);
            for (Struct partition : topic.get(OffsetForLeaderTopic.PARTITIONS)) {
                int index = partition.get(OffsetForLeaderPartition.PARTITION);
                Struct out = topicResponse.add(OffsetForLeaderTopicResult.PARTITIONS)
                        .set(OffsetForLeaderTopicResult.EpochEndOffset.PARTITION, index);
                if (!everyTopic && !describable.allowed(name)) {
                    set(out, ErrorCode.TOPIC_AUTHORIZATION_FAILED, EpochEndOffset.UNDEFINED);
                    continue;
                }
                answer(name, index, partition.get(OffsetForLeaderPartition.CURRENT_LEADER_EPOCH),
                        partition.get(OffsetForLeaderPartition.LEADER_EPOCH), out);
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private void answer(String topic, int index, int currentLeaderEpoch, int leaderEpoch, Struct out) {
        Optional<Partition> found = partitions.partition(topic, index);
        if (found.isEmpty()) {
            set(out, cluster.image().partition(topic, index).isPresent() ? ErrorCode.NOT_LEADER_OR_FOLLOWER
                    : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, EpochEndOffset.UNDEFINED);
            return;
        }
        ErrorCode leadership = found.get().checkLeader(currentLeaderEpoch);
        if (leadership != ErrorCode.NONE) {
            set(out, leadership, EpochEndOffset.UNDEFINED);
            return;
        }
        try {
            set(out, ErrorCode.NONE, found.get().endOffsetForEpoch(leaderEpoch));
        } catch (LogException e) {
            set(out, e.errorCode(), EpochEndOffset.UNDEFINED);
        }
    }

    private static void set(Struct out, ErrorCode error, EpochEndOffset end) {
        out.set(OffsetForLeaderTopicResult.EpochEndOffset.ERROR_CODE, error.code())
                .set(OffsetForLeaderTopicResult.EpochEndOffset.LEADER_EPOCH, end.leaderEpoch())
                .set(OffsetForLeaderTopicResult.EpochEndOffset.END_OFFSET, end.endOffset());
    }
}
