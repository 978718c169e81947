package io.odradek.replication.fetcher;

import io.netty.buffer.Unpooled;
import io.odradek.log.EpochEndOffset;
import io.odradek.replication.partition.FetchIsolation;
import io.odradek.replication.partition.Partition;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.codec.Request;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiFunction;

/**
 * The leader side of a replica fetch for tests, as the broker's Fetch handler does it: leader check,
 * DivergingEpoch, a read to the log end, the follower's fetch state, the high watermark.
 */
public final class LeaderFetchServing {
    private LeaderFetchServing() {
    }

    /** The Fetch response of {@code leaders} (by topic id and partition; null: not here) to a replica's request. */
    public static Struct answer(Request request, BiFunction<UUID, Integer, Partition> leaders, ErrorCode forcedError) {
        Struct body = FetchApi.Response.SCHEMA.newStruct();
        int replicaId = request.body().get(FetchApi.Request.REPLICA_STATE).get(FetchApi.Request.ReplicaState.REPLICA_ID);
        long replicaEpoch = request.body().get(FetchApi.Request.REPLICA_STATE).get(FetchApi.Request.ReplicaState.REPLICA_EPOCH);
        boolean sentData = false;
        for (Struct t : request.body().get(FetchApi.Request.TOPICS)) {
            Struct topic = body.add(FetchApi.Response.RESPONSES)
                    .set(FetchApi.Response.FetchableTopicResponse.TOPIC_ID, t.get(FetchApi.Request.FetchTopic.TOPIC_ID));
            for (Struct p : t.get(FetchApi.Request.FetchTopic.PARTITIONS)) {
                Struct out = topic.add(FetchApi.Response.FetchableTopicResponse.PARTITIONS)
                        .set(FetchApi.Response.FetchableTopicResponse.PartitionData.PARTITION_INDEX,
                                p.get(FetchApi.Request.FetchTopic.FetchPartition.PARTITION));
                Partition leader = leaders.apply(t.get(FetchApi.Request.FetchTopic.TOPIC_ID),
                        p.get(FetchApi.Request.FetchTopic.FetchPartition.PARTITION));
                ErrorCode error = forcedError != ErrorCode.NONE ? forcedError
                        : leader == null ? ErrorCode.UNKNOWN_TOPIC_ID : leader.checkLeader(p.get(FetchApi.Request.FetchTopic.FetchPartition.CURRENT_LEADER_EPOCH));
                if (error != ErrorCode.NONE) {
                    out.set(FetchApi.Response.FetchableTopicResponse.PartitionData.ERROR_CODE, error.code());
                    continue;
                }
                long offset = p.get(FetchApi.Request.FetchTopic.FetchPartition.FETCH_OFFSET);
                Optional<EpochEndOffset> diverging = leader.divergingEpoch(
                        p.get(FetchApi.Request.FetchTopic.FetchPartition.LAST_FETCHED_EPOCH), offset);
                if (diverging.isPresent()) {
                    out.set(FetchApi.Response.FetchableTopicResponse.PartitionData.DIVERGING_EPOCH,
                            FetchApi.Response.FetchableTopicResponse.PartitionData.EpochEndOffset.SCHEMA.newStruct()
                                    .set(FetchApi.Response.FetchableTopicResponse.PartitionData.EpochEndOffset.EPOCH,
                                            diverging.get().leaderEpoch())
                                    .set(FetchApi.Response.FetchableTopicResponse.PartitionData.EpochEndOffset.END_OFFSET,
                                            diverging.get().endOffset()));
                } else {
                    ByteBuffer data = leader.read(offset, 1 << 20, FetchIsolation.LOG_END).readIntoHeap();
                    sentData |= data.hasRemaining();
                    out.set(FetchApi.Response.FetchableTopicResponse.PartitionData.RECORDS,
                            new MemoryRecords(Unpooled.wrappedBuffer(data)));
                    leader.updateFollowerFetchState(replicaId, replicaEpoch, offset,
                            p.get(FetchApi.Request.FetchTopic.FetchPartition.LOG_START_OFFSET), System.currentTimeMillis());
                }
                out.set(FetchApi.Response.FetchableTopicResponse.PartitionData.HIGH_WATERMARK, leader.highWatermark())
                        .set(FetchApi.Response.FetchableTopicResponse.PartitionData.LOG_START_OFFSET, leader.logStartOffset());
            }
        }
        if (!sentData) {
            sleep(20); // a little of the fetch's max wait, so an idle follower does not spin
        }
        return body;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
