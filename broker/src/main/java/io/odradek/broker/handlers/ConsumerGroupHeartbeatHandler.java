package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.group.ConsumerGroupHeartbeatRequest;
import io.odradek.coordinator.group.ConsumerGroupHeartbeatResult;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ConsumerGroupHeartbeatApi;
import io.odradek.wire.api.ConsumerGroupHeartbeatApi.Request;
import io.odradek.wire.api.ConsumerGroupHeartbeatApi.Response;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * ConsumerGroupHeartbeat (key 68), versions 0-1: the KIP-848 consumer group protocol, which a Kafka 4
 * client uses with {@code group.protocol=consumer} as soon as the broker advertises this API (the Java
 * client checks no feature level; Kafka brokers advertise it only with {@code group.version} >= 1, which
 * here is always the case). Epoch 0 joins, -1 leaves, -2 is a static member leaving for now; otherwise the
 * member heartbeats with its epoch and, when they changed, its subscription and owned partitions. The
 * answer carries the member's epoch, the heartbeat interval and, when it changed, its assignment.
 * v0: a joining member may leave its id empty and get one from the coordinator; v1: the member makes its
 * own id (a UUID) and may subscribe with SubscribedTopicRegex. Nothing is parked: every heartbeat is
 * answered at once.
 *
 * <p>Authorization, as Kafka 4.4's KafkaApis: READ on the group, else GROUP_AUTHORIZATION_FAILED; then, when
 * the heartbeat names subscribed topics, DESCRIBE on every one of them, else TOPIC_AUTHORIZATION_FAILED (no
 * message) and the member's subscription is not changed. A SubscribedTopicRegex resolves only to the topics
 * the member may DESCRIBE (Kafka's TopicRegexResolver): the coordinator gets the member's DESCRIBE check with
 * the heartbeat and keeps it until the next one (Kafka resolves a group's regex in the context of the member
 * whose heartbeat triggered the refresh; here each member's own).
 */
public final class ConsumerGroupHeartbeatHandler implements ApiHandler {
    private final GroupCoordinator groups;

    public ConsumerGroupHeartbeatHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public ApiSpec api() {
        return ConsumerGroupHeartbeatApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!CoordinatorAccess.allowed(context, AclOperation.READ, ResourceType.GROUP, request.get(Request.GROUP_ID))) {
            return CompletableFuture.completedFuture(refused(ErrorCode.GROUP_AUTHORIZATION_FAILED));
        }
        // Without an authorizer: null, every topic, and nothing asked.
        Predicate<String> mayDescribe = CoordinatorAccess.enabled(context) ? CoordinatorAccess.topics(context, AclOperation.DESCRIBE) : null;
        List<String> subscribed = request.get(Request.SUBSCRIBED_TOPIC_NAMES);
        if (subscribed != null && mayDescribe != null) {
            for (String topic : subscribed) {
                if (!mayDescribe.test(topic)) {
                    return CompletableFuture.completedFuture(refused(ErrorCode.TOPIC_AUTHORIZATION_FAILED));
                }
            }
        }
        Map<UUID, List<Integer>> owned = null;
        List<Struct> topicPartitions = request.get(Request.TOPIC_PARTITIONS);
        if (topicPartitions != null) {
            owned = new LinkedHashMap<>();
            for (Struct t : topicPartitions) {
                owned.computeIfAbsent(t.get(Request.TopicPartitions.TOPIC_ID), id -> new ArrayList<>())
                        .addAll(t.get(Request.TopicPartitions.PARTITIONS));
            }
        }
        ConsumerGroupHeartbeatRequest req = new ConsumerGroupHeartbeatRequest(request.get(Request.GROUP_ID),
                request.get(Request.MEMBER_ID), request.get(Request.MEMBER_EPOCH), request.get(Request.INSTANCE_ID),
                request.get(Request.RACK_ID), request.get(Request.REBALANCE_TIMEOUT_MS),
                request.get(Request.SUBSCRIBED_TOPIC_NAMES), request.get(Request.SUBSCRIBED_TOPIC_REGEX),
                request.get(Request.SERVER_ASSIGNOR), owned, context.clientId(),
                JoinGroupHandler.clientHost(context.clientAddress()), context.version(), mayDescribe);
        return groups.consumerGroupHeartbeat(req).thenApply(ConsumerGroupHeartbeatHandler::response);
    }

    /** A heartbeat refused before it reaches the coordinator: the error alone, as Kafka's error response. */
    private static Struct refused(ErrorCode error) {
        return Response.SCHEMA.newStruct()
                .set(Response.ERROR_CODE, error.code())
                .set(Response.MEMBER_EPOCH, 0)
                .set(Response.HEARTBEAT_INTERVAL_MS, 0);
    }

    static Struct response(ConsumerGroupHeartbeatResult r) {
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
                        .set(Response.Assignment.TopicPartitions.TOPIC_ID, e.getKey())
                        .set(Response.Assignment.TopicPartitions.PARTITIONS, new ArrayList<>(e.getValue()));
            }
            response.set(Response.ASSIGNMENT, assignment);
        }
        return response;
    }
}
