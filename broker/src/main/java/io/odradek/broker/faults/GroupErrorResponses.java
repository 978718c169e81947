package io.odradek.broker.faults;

import io.odradek.wire.api.ConsumerGroupHeartbeatApi;
import io.odradek.wire.api.DescribeGroupsApi;
import io.odradek.wire.api.FindCoordinatorApi;
import io.odradek.wire.api.HeartbeatApi;
import io.odradek.wire.api.JoinGroupApi;
import io.odradek.wire.api.LeaveGroupApi;
import io.odradek.wire.api.ListGroupsApi;
import io.odradek.wire.api.OffsetCommitApi;
import io.odradek.wire.api.OffsetFetchApi;
import io.odradek.wire.api.SyncGroupApi;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * issue 11 (faults): error responses of the group coordinator's APIs (see {@link ErrorResponses}); each as Kafka
 * 4.4's {@code getErrorResponse} of that request builds it. Error messages are left out (null where the field is
 * nullable): clients act on the code.
 */
final class GroupErrorResponses {
    private GroupErrorResponses() {
    }

    /** FindCoordinator: v0-3 the error at the top with no node (-1, "", -1); v4+ each requested key with it. */
    static Struct findCoordinator(short version, Struct request, short error) {
        Struct response = FindCoordinatorApi.SPEC.response().newStruct();
        if (version < 4) {
            return response.set(FindCoordinatorApi.Response.ERROR_CODE, error)
                    .set(FindCoordinatorApi.Response.ERROR_MESSAGE, null)
                    .set(FindCoordinatorApi.Response.NODE_ID, -1)
                    .set(FindCoordinatorApi.Response.HOST, "")
                    .set(FindCoordinatorApi.Response.PORT, -1);
        }
        for (String key : request.get(FindCoordinatorApi.Request.COORDINATOR_KEYS)) {
            response.add(FindCoordinatorApi.Response.COORDINATORS)
                    .set(FindCoordinatorApi.Response.Coordinator.KEY, key)
                    .set(FindCoordinatorApi.Response.Coordinator.ERROR_CODE, error)
                    .set(FindCoordinatorApi.Response.Coordinator.ERROR_MESSAGE, null)
                    .set(FindCoordinatorApi.Response.Coordinator.NODE_ID, -1)
                    .set(FindCoordinatorApi.Response.Coordinator.HOST, "")
                    .set(FindCoordinatorApi.Response.Coordinator.PORT, -1);
        }
        return response;
    }

    /** JoinGroup: the error, generation -1, no leader, member id or members; protocol name "" (v7+: null). */
    static Struct joinGroup(short version, Struct request, short error) {
        return JoinGroupApi.SPEC.response().newStruct()
                .set(JoinGroupApi.Response.ERROR_CODE, error)
                .set(JoinGroupApi.Response.GENERATION_ID, -1)
                .set(JoinGroupApi.Response.PROTOCOL_TYPE, null)
                .set(JoinGroupApi.Response.PROTOCOL_NAME, version >= 7 ? null : "")
                .set(JoinGroupApi.Response.LEADER, "")
                .set(JoinGroupApi.Response.MEMBER_ID, "")
                .set(JoinGroupApi.Response.MEMBERS, List.of());
    }

    /** SyncGroup: the error and an empty assignment. */
    static Struct syncGroup(short version, Struct request, short error) {
        return SyncGroupApi.SPEC.response().newStruct()
                .set(SyncGroupApi.Response.ERROR_CODE, error)
                .set(SyncGroupApi.Response.PROTOCOL_TYPE, null)
                .set(SyncGroupApi.Response.PROTOCOL_NAME, null)
                .set(SyncGroupApi.Response.ASSIGNMENT, new byte[0]);
    }

    /** Heartbeat: the error. */
    static Struct heartbeat(short version, Struct request, short error) {
        return HeartbeatApi.SPEC.response().newStruct().set(HeartbeatApi.Response.ERROR_CODE, error);
    }

    /** LeaveGroup: the error at the top and no member results (as Kafka, also for v3+ batch leaves). */
    static Struct leaveGroup(short version, Struct request, short error) {
        return LeaveGroupApi.SPEC.response().newStruct()
                .set(LeaveGroupApi.Response.ERROR_CODE, error)
                .set(LeaveGroupApi.Response.MEMBERS, List.of());
    }

    /** OffsetCommit: every partition gets the error. */
    static Struct offsetCommit(short version, Struct request, short error) {
        Struct response = OffsetCommitApi.SPEC.response().newStruct();
        for (Struct topic : request.get(OffsetCommitApi.Request.TOPICS)) {
            Struct t = response.add(OffsetCommitApi.Response.TOPICS)
                    .set(OffsetCommitApi.Response.OffsetCommitResponseTopic.NAME,
                            topic.get(OffsetCommitApi.Request.OffsetCommitRequestTopic.NAME))
                    .set(OffsetCommitApi.Response.OffsetCommitResponseTopic.TOPIC_ID,
                            topic.get(OffsetCommitApi.Request.OffsetCommitRequestTopic.TOPIC_ID));
            for (Struct partition : topic.get(OffsetCommitApi.Request.OffsetCommitRequestTopic.PARTITIONS)) {
                t.add(OffsetCommitApi.Response.OffsetCommitResponseTopic.PARTITIONS)
                        .set(OffsetCommitApi.Response.OffsetCommitResponseTopic.OffsetCommitResponsePartition.PARTITION_INDEX,
                                partition.get(OffsetCommitApi.Request.OffsetCommitRequestTopic.OffsetCommitRequestPartition.PARTITION_INDEX))
                        .set(OffsetCommitApi.Response.OffsetCommitResponseTopic.OffsetCommitResponsePartition.ERROR_CODE,
                                error);
            }
        }
        return response;
    }

    /**
     * OffsetFetch: v0-1 every requested partition with the error, offset -1 and no metadata; v2-7 the error at the
     * top (Kafka lists no partitions); v8+ every requested group with the error.
     */
    static Struct offsetFetch(short version, Struct request, short error) {
        Struct response = OffsetFetchApi.SPEC.response().newStruct();
        if (version >= 8) {
            for (Struct group : request.get(OffsetFetchApi.Request.GROUPS)) {
                response.add(OffsetFetchApi.Response.GROUPS)
                        .set(OffsetFetchApi.Response.OffsetFetchResponseGroup.GROUP_ID,
                                group.get(OffsetFetchApi.Request.OffsetFetchRequestGroup.GROUP_ID))
                        .set(OffsetFetchApi.Response.OffsetFetchResponseGroup.ERROR_CODE, error);
            }
            return response;
        }
        if (version >= 2) {
            return response.set(OffsetFetchApi.Response.ERROR_CODE, error);
        }
        for (Struct topic : request.get(OffsetFetchApi.Request.TOPICS)) {
            Struct t = response.add(OffsetFetchApi.Response.TOPICS)
                    .set(OffsetFetchApi.Response.OffsetFetchResponseTopic.NAME,
                            topic.get(OffsetFetchApi.Request.OffsetFetchRequestTopic.NAME));
            for (int partition : topic.get(OffsetFetchApi.Request.OffsetFetchRequestTopic.PARTITION_INDEXES)) {
                t.add(OffsetFetchApi.Response.OffsetFetchResponseTopic.PARTITIONS)
                        .set(OffsetFetchApi.Response.OffsetFetchResponseTopic.OffsetFetchResponsePartition.PARTITION_INDEX,
                                partition)
                        .set(OffsetFetchApi.Response.OffsetFetchResponseTopic.OffsetFetchResponsePartition.COMMITTED_OFFSET,
                                -1L)
                        .set(OffsetFetchApi.Response.OffsetFetchResponseTopic.OffsetFetchResponsePartition.METADATA, "")
                        .set(OffsetFetchApi.Response.OffsetFetchResponseTopic.OffsetFetchResponsePartition.ERROR_CODE,
                                error);
            }
        }
        return response;
    }

    /** DescribeGroups: every requested group with the error, no state, protocol or members. */
    static Struct describeGroups(short version, Struct request, short error) {
        Struct response = DescribeGroupsApi.SPEC.response().newStruct();
        for (String group : request.get(DescribeGroupsApi.Request.GROUPS)) {
            response.add(DescribeGroupsApi.Response.GROUPS)
                    .set(DescribeGroupsApi.Response.DescribedGroup.ERROR_CODE, error)
                    .set(DescribeGroupsApi.Response.DescribedGroup.ERROR_MESSAGE, null)
                    .set(DescribeGroupsApi.Response.DescribedGroup.GROUP_ID, group)
                    .set(DescribeGroupsApi.Response.DescribedGroup.GROUP_STATE, "")
                    .set(DescribeGroupsApi.Response.DescribedGroup.PROTOCOL_TYPE, "")
                    .set(DescribeGroupsApi.Response.DescribedGroup.PROTOCOL_DATA, "")
                    .set(DescribeGroupsApi.Response.DescribedGroup.MEMBERS, List.of());
        }
        return response;
    }

    /** ListGroups: the error and no groups. */
    static Struct listGroups(short version, Struct request, short error) {
        return ListGroupsApi.SPEC.response().newStruct()
                .set(ListGroupsApi.Response.ERROR_CODE, error)
                .set(ListGroupsApi.Response.GROUPS, List.of());
    }

    /** ConsumerGroupHeartbeat: the error; no member id, epoch 0, no assignment. */
    static Struct consumerGroupHeartbeat(short version, Struct request, short error) {
        return ConsumerGroupHeartbeatApi.SPEC.response().newStruct()
                .set(ConsumerGroupHeartbeatApi.Response.ERROR_CODE, error)
                .set(ConsumerGroupHeartbeatApi.Response.ERROR_MESSAGE, null)
                .set(ConsumerGroupHeartbeatApi.Response.MEMBER_ID, null)
                .set(ConsumerGroupHeartbeatApi.Response.ASSIGNMENT, null);
    }
}
