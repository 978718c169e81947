package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeQuorumApi;
import io.odradek.wire.api.DescribeQuorumApi.Request.TopicData;
import io.odradek.wire.api.DescribeQuorumApi.Response;
import io.odradek.wire.api.DescribeQuorumApi.Response.Node;
import io.odradek.wire.api.DescribeQuorumApi.Response.Node.Listener;
import io.odradek.wire.api.DescribeQuorumApi.Response.ReplicaState;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeQuorum (key 55), versions 0-2 (all flexible), what {@code kafka-metadata-quorum describe --status /
 * --replication} and Admin.describeMetadataQuorum send. A Kafka broker forwards it to the active
 * controller, which answers from its Raft state; here the metadata quorum is Ratis, so the answer comes from
 * {@code ControllerChannel.describeQuorum()}: leader id, leader epoch (the Raft term), high watermark (the
 * commit index), each voter's and observer's log end offset and last fetch / caught-up times (v1+), and
 * (v2) every voter's node with its CONTROLLER listener. Replica directory ids (v2) are zero, as for
 * voters configured statically with {@code controller.quorum.voters}.
 *
 * <p>As Kafka's Raft client: the request must name exactly the metadata partition, __cluster_metadata-0;
 * anything else is answered per partition with UNKNOWN_TOPIC_OR_PARTITION. A quorum that cannot be reached
 * is the top-level error (REQUEST_TIMED_OUT when it did not answer in time).
 *
 * <p>A single node started without {@code process.roles} has no quorum, but Kafka always has one, so it
 * answers as a one-voter quorum of itself: leader us, epoch 1, high watermark 0, us the only voter (log end
 * offset 0, caught up now) and (v2) our endpoint of the request's listener as the voter's endpoint.
 *
 * <p>Authorization (issue 10), as Kafka 4.4's controller: DESCRIBE on the cluster, checked first, else the
 * top-level error CLUSTER_AUTHORIZATION_FAILED ("Cluster authorization failed.") and nothing else.
 */
public final class DescribeQuorumHandler implements ApiHandler {
    static final String METADATA_TOPIC = "__cluster_metadata";
    private static final int METADATA_PARTITION = 0;

    private final ClusterView cluster;

    public DescribeQuorumHandler(ClusterView cluster) {
        this.cluster = cluster;
    }

    @Override
    public ApiSpec api() {
        return DescribeQuorumApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!context.session().authorizedOnCluster(AclOperation.DESCRIBE)) {
            return CompletableFuture.completedFuture(Response.SCHEMA.newStruct()
                    .set(Response.ERROR_CODE, ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code())
                    .set(Response.ERROR_MESSAGE, "Cluster authorization failed."));
        }
        if (!namesTheMetadataPartition(request)) {
            return CompletableFuture.completedFuture(partitionErrors(request, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                    "This server does not host this topic-partition."));
        }
        return cluster.controller()
                .map(c -> c.describeQuorum().handle((quorum, failure) -> failure == null ? answer(quorum)
                        : Response.SCHEMA.newStruct()
                                .set(Response.ERROR_CODE, ControllerFailures.error(failure).code())
                                .set(Response.ERROR_MESSAGE, ControllerFailures.message(failure))))
                .orElseGet(() -> CompletableFuture.completedFuture(
                        answer(singleNodeQuorum(context.session().listenerName()))));
    }

    private static boolean namesTheMetadataPartition(Struct request) {
        List<Struct> topics = request.get(DescribeQuorumApi.Request.TOPICS);
        if (topics.size() != 1 || !METADATA_TOPIC.equals(topics.get(0).get(TopicData.TOPIC_NAME))) {
            return false;
        }
        List<Struct> partitions = topics.get(0).get(TopicData.PARTITIONS);
        return partitions.size() == 1
                && partitions.get(0).get(TopicData.PartitionData.PARTITION_INDEX) == METADATA_PARTITION;
    }

    /** This broker alone, leading a quorum of one at epoch 1 with nothing committed. */
    private QuorumInfo singleNodeQuorum(String listener) {
        int us = cluster.localBrokerId();
        Endpoint endpoint = cluster.image().broker(us)
                .map(b -> b.endpoint(listener)).orElse(null);
        return new QuorumInfo(us, 1, 0, List.of(new QuorumInfo.ReplicaState(us, 0, -1, System.currentTimeMillis())),
                List.of(), endpoint == null ? List.of() : List.of(endpoint));
    }

    private static Struct answer(QuorumInfo quorum) {
        Struct response = Response.SCHEMA.newStruct().set(Response.ERROR_CODE, ErrorCode.NONE.code());
        Struct partition = response.add(Response.TOPICS)
                .set(Response.TopicData.TOPIC_NAME, METADATA_TOPIC)
                .add(Response.TopicData.PARTITIONS)
                .set(Response.TopicData.PartitionData.PARTITION_INDEX, METADATA_PARTITION)
                .set(Response.TopicData.PartitionData.ERROR_CODE, ErrorCode.NONE.code())
                .set(Response.TopicData.PartitionData.LEADER_ID, quorum.leaderId())
                .set(Response.TopicData.PartitionData.LEADER_EPOCH, quorum.leaderEpoch())
                .set(Response.TopicData.PartitionData.HIGH_WATERMARK, quorum.highWatermark());
        quorum.voters().forEach(v -> addReplica(partition.add(Response.TopicData.PartitionData.CURRENT_VOTERS), v));
        quorum.observers().forEach(o -> addReplica(partition.add(Response.TopicData.PartitionData.OBSERVERS), o));
        for (int i = 0; i < quorum.voters().size() && i < quorum.voterEndpoints().size(); i++) {
            Endpoint endpoint = quorum.voterEndpoints().get(i);
            response.add(Response.NODES)
                    .set(Node.NODE_ID, quorum.voters().get(i).replicaId())
                    .add(Node.LISTENERS)
                    .set(Listener.NAME, endpoint.listener())
                    .set(Listener.HOST, endpoint.host())
                    .set(Listener.PORT, endpoint.port());
        }
        return response;
    }

    private static void addReplica(Struct replica, QuorumInfo.ReplicaState state) {
        replica.set(ReplicaState.REPLICA_ID, state.replicaId())
                .set(ReplicaState.REPLICA_DIRECTORY_ID, Types.ZERO_UUID)
                .set(ReplicaState.LOG_END_OFFSET, state.logEndOffset())
                .set(ReplicaState.LAST_FETCH_TIMESTAMP, state.lastFetchTimestamp())
                .set(ReplicaState.LAST_CAUGHT_UP_TIMESTAMP, state.lastCaughtUpTimestamp());
    }

    /** Kafka's answer to a request for other partitions: each requested partition with the error. */
    private static Struct partitionErrors(Struct request, ErrorCode error, String message) {
        Struct response = Response.SCHEMA.newStruct().set(Response.ERROR_CODE, ErrorCode.NONE.code());
        for (Struct t : request.get(DescribeQuorumApi.Request.TOPICS)) {
            Struct topic = response.add(Response.TOPICS).set(Response.TopicData.TOPIC_NAME, t.get(TopicData.TOPIC_NAME));
            for (Struct p : t.get(TopicData.PARTITIONS)) {
                topic.add(Response.TopicData.PARTITIONS)
                        .set(Response.TopicData.PartitionData.PARTITION_INDEX, p.get(TopicData.PartitionData.PARTITION_INDEX))
                        .set(Response.TopicData.PartitionData.ERROR_CODE, error.code())
                        .set(Response.TopicData.PartitionData.ERROR_MESSAGE, message);
            }
        }
        return response;
    }
}
