package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.ShareGroupHeartbeatRequest;
import io.odradek.coordinator.group.ShareGroupHeartbeatResult;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ShareGroupHeartbeatApi;
import io.odradek.wire.api.ShareGroupHeartbeatApi.Request;
import io.odradek.wire.api.ShareGroupHeartbeatApi.Response;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * ShareGroupHeartbeat (key 76), version 1 only (Kafka 4.4 accepts 1; v0 was the KIP-932 preview): the share
 * group protocol a KafkaShareConsumer speaks. The member makes its own id (a UUID); epoch 0 joins (with a
 * non-empty SubscribedTopicNames), -1 leaves; otherwise the member heartbeats with its epoch and, when they
 * changed, its rack and subscription. The answer carries the member's epoch, the heartbeat interval (the
 * group's {@code share.heartbeat.interval.ms}, else {@code group.share.heartbeat.interval.ms}) and, when it
 * changed or on a full request, its assignment. A heartbeat that makes new partitions start their share state
 * is answered once the share coordinator initialized them (their next heartbeat assigns them), as in Kafka.
 * Errors as Kafka 4.4's coordinator: INVALID_REQUEST with its messages, GROUP_ID_NOT_FOUND ("Share group X
 * not found." / "Group X is not a share group."), UNKNOWN_MEMBER_ID, FENCED_MEMBER_EPOCH, GROUP_MAX_SIZE_REACHED.
 *
 * <p>As Kafka 4.4's KafkaApis: READ on the group, else GROUP_AUTHORIZATION_FAILED; a member id that is empty or
 * longer than 36 characters is INVALID_REQUEST ("Invalid member id in the request."); then, when the heartbeat
 * names subscribed topics, DESCRIBE on every one of them, else TOPIC_AUTHORIZATION_FAILED.
 */
public final class ShareGroupHeartbeatHandler implements ApiHandler {
    /** Kafka 4.4's KafkaApis.isMemberIdValid: a member id is 1 to 36 characters (a UUID's string form). */
    private static final int MAX_MEMBER_ID_LENGTH = 36;

    private final GroupCoordinator groups;

    public ShareGroupHeartbeatHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public ApiSpec api() {
        return ShareGroupHeartbeatApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!CoordinatorAccess.allowed(context, AclOperation.READ, ResourceType.GROUP, request.get(Request.GROUP_ID))) {
            return CompletableFuture.completedFuture(refused(ErrorCode.GROUP_AUTHORIZATION_FAILED));
        }
        String memberId = request.get(Request.MEMBER_ID);
        if (memberId == null || memberId.isEmpty() || memberId.length() > MAX_MEMBER_ID_LENGTH) {
            return CompletableFuture.completedFuture(refused(ErrorCode.INVALID_REQUEST)
                    .set(Response.ERROR_MESSAGE, "Invalid member id in the request."));
        }
        List<String> subscribed = request.get(Request.SUBSCRIBED_TOPIC_NAMES);
        if (subscribed != null && !subscribed.isEmpty() && CoordinatorAccess.enabled(context)) {
            Predicate<String> mayDescribe = CoordinatorAccess.topics(context, AclOperation.DESCRIBE);
            for (String topic : subscribed) {
                if (!mayDescribe.test(topic)) {
                    return CompletableFuture.completedFuture(refused(ErrorCode.TOPIC_AUTHORIZATION_FAILED));
                }
            }
        }
        ShareGroupHeartbeatRequest req = new ShareGroupHeartbeatRequest(request.get(Request.GROUP_ID),
                request.get(Request.MEMBER_ID), request.get(Request.MEMBER_EPOCH), request.get(Request.RACK_ID),
                subscribed, context.clientId(), JoinGroupHandler.clientHost(context.clientAddress()));
        return groups.shareGroupHeartbeat(req).thenApply(ShareGroupHeartbeatHandler::response);
    }

    /** A heartbeat refused before it reaches the coordinator: the error alone. */
    private static Struct refused(ErrorCode error) {
        return Response.SCHEMA.newStruct()
                .set(Response.ERROR_CODE, error.code())
                .set(Response.MEMBER_EPOCH, 0)
                .set(Response.HEARTBEAT_INTERVAL_MS, 0);
    }

    static Struct response(ShareGroupHeartbeatResult r) {
        Struct response = Response.SCHEMA.newStruct()
                .set(Response.ERROR_CODE, r.error().code())
                .set(Response.ERROR_MESSAGE, r.errorMessage())
                .set(Response.MEMBER_ID, r.memberId())
                .set(Response.MEMBER_EPOCH, r.memberEpoch())
                .set(Response.HEARTBEAT_INTERVAL_MS, r.heartbeatIntervalMs());
        if (r.assignment() != null) {
            Struct assignment = Response.Assignment.SCHEMA.newStruct().set(Response.Assignment.TOPIC_PARTITIONS, new ArrayList<>());
            for (Map.Entry<UUID, Set<Integer>> e : r.assignment().entrySet()) {
                assignment.add(Response.Assignment.TOPIC_PARTITIONS)
                        .set(Response.TopicPartitions.TOPIC_ID, e.getKey())
                        .set(Response.TopicPartitions.PARTITIONS, new ArrayList<>(e.getValue()));
            }
            response.set(Response.ASSIGNMENT, assignment);
        }
        return response;
    }
}
