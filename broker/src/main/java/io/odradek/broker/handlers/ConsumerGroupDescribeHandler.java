package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.ConsumerGroupDescription;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ConsumerGroupDescribeApi;
import io.odradek.wire.api.ConsumerGroupDescribeApi.Request;
import io.odradek.wire.api.ConsumerGroupDescribeApi.Response;
import io.odradek.wire.api.ConsumerGroupDescribeApi.Response.DescribedGroup;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * ConsumerGroupDescribe (key 69), versions 0-1: KIP-848 groups with their state, group and assignment
 * epochs, assignor and members, each with its subscription, current assignment and target assignment.
 * Partitions are named by topic id and name (resolved here; a topic deleted meanwhile gets an empty name).
 * A group that does not exist, or is a classic group, is GROUP_ID_NOT_FOUND with Kafka's message — the
 * admin client then falls back to DescribeGroups. v1 adds MemberType: always 1 (consumer protocol), since
 * classic members cannot join these groups here. Authorized operations (KIP-430), when asked, for groups
 * described without error: those the authorizer allows; every group operation with no authorizer.
 *
 * <p>Authorization, as Kafka 4.4: DESCRIBE on each group, else GROUP_AUTHORIZATION_FAILED (answered first,
 * before the described groups, as Kafka orders them); and with an authorizer, a group whose members'
 * current or target assignments name a topic the client may not DESCRIBE is answered
 * TOPIC_AUTHORIZATION_FAILED ("The group has described topic(s) that the client is not authorized to
 * describe.") with no members.
 */
public final class ConsumerGroupDescribeHandler implements ApiHandler {
    /** Kafka 4.4's message for a group refused for the topics it is assigned. */
    static final String HIDDEN_TOPICS_MESSAGE = "The group has described topic(s) that the client is not authorized to describe.";
    private static final byte CONSUMER_MEMBER = 1;

    private final GroupCoordinator groups;
    private final TopicService topics;

    public ConsumerGroupDescribeHandler(GroupCoordinator groups, TopicService topics) {
        this.groups = groups;
        this.topics = topics;
    }

    @Override
    public ApiSpec api() {
        return ConsumerGroupDescribeApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        boolean withOperations = request.get(Request.INCLUDE_AUTHORIZED_OPERATIONS);
        List<CompletableFuture<ConsumerGroupDescription>> described = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (String groupId : request.get(Request.GROUP_IDS)) {
            if (CoordinatorAccess.allowed(context, AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
                described.add(groups.describeConsumerGroup(groupId));
            } else {
                refused.add(groupId);
            }
        }
        return CompletableFuture.allOf(described.toArray(CompletableFuture[]::new)).thenApply(v -> {
            Struct response = Response.SCHEMA.newStruct().set(Response.GROUPS, new ArrayList<>());
            for (String groupId : refused) {
                errorGroup(response.add(Response.GROUPS), groupId, ErrorCode.GROUP_AUTHORIZATION_FAILED, null);
            }
            Predicate<String> mayDescribe = CoordinatorAccess.topics(context, AclOperation.DESCRIBE);
            for (CompletableFuture<ConsumerGroupDescription> f : described) {
                ConsumerGroupDescription d = f.join();
                if (CoordinatorAccess.enabled(context) && !allAssignedTopicsVisible(d, mayDescribe)) {
                    errorGroup(response.add(Response.GROUPS), d.groupId(), ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                            HIDDEN_TOPICS_MESSAGE);
                    continue;
                }
                Struct g = response.add(Response.GROUPS)
                        .set(DescribedGroup.ERROR_CODE, d.error().code())
                        .set(DescribedGroup.ERROR_MESSAGE, d.errorMessage())
                        .set(DescribedGroup.GROUP_ID, d.groupId() == null ? "" : d.groupId())
                        .set(DescribedGroup.GROUP_STATE, d.state())
                        .set(DescribedGroup.GROUP_EPOCH, d.groupEpoch())
                        .set(DescribedGroup.ASSIGNMENT_EPOCH, d.assignmentEpoch())
                        .set(DescribedGroup.ASSIGNOR_NAME, d.assignorName())
                        .set(DescribedGroup.MEMBERS, new ArrayList<>())
                        .set(DescribedGroup.AUTHORIZED_OPERATIONS, withOperations && d.error() == ErrorCode.NONE
                                ? CoordinatorAccess.groupOperations(context, d.groupId()) : Integer.MIN_VALUE);
                for (ConsumerGroupDescription.Member m : d.members()) {
                    g.add(DescribedGroup.MEMBERS)
                            .set(DescribedGroup.Member.MEMBER_ID, m.memberId())
                            .set(DescribedGroup.Member.INSTANCE_ID, m.instanceId())
                            .set(DescribedGroup.Member.RACK_ID, m.rackId())
                            .set(DescribedGroup.Member.MEMBER_EPOCH, m.memberEpoch())
                            .set(DescribedGroup.Member.CLIENT_ID, m.clientId())
                            .set(DescribedGroup.Member.CLIENT_HOST, m.clientHost())
                            .set(DescribedGroup.Member.SUBSCRIBED_TOPIC_NAMES, m.subscribedTopicNames())
                            .set(DescribedGroup.Member.SUBSCRIBED_TOPIC_REGEX, m.subscribedTopicRegex())
                            .set(DescribedGroup.Member.ASSIGNMENT, assignment(m.assignment()))
                            .set(DescribedGroup.Member.TARGET_ASSIGNMENT, assignment(m.targetAssignment()))
                            .set(DescribedGroup.Member.MEMBER_TYPE, CONSUMER_MEMBER);
                }
            }
            return response;
        });
    }

    /** Whether the client may DESCRIBE every topic in the members' current and target assignments. */
    private boolean allAssignedTopicsVisible(ConsumerGroupDescription d, Predicate<String> mayDescribe) {
        for (ConsumerGroupDescription.Member m : d.members()) {
            for (Map<UUID, Set<Integer>> assigned : List.of(m.assignment(), m.targetAssignment())) {
                for (UUID id : assigned.keySet()) {
                    if (!mayDescribe.test(topics.topicName(id).orElse(""))) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** A group answered with an error alone, the other fields at Kafka's defaults. */
    private static void errorGroup(Struct g, String groupId, ErrorCode error, String message) {
        g.set(DescribedGroup.ERROR_CODE, error.code())
                .set(DescribedGroup.ERROR_MESSAGE, message)
                .set(DescribedGroup.GROUP_ID, groupId == null ? "" : groupId)
                .set(DescribedGroup.GROUP_STATE, "")
                .set(DescribedGroup.GROUP_EPOCH, 0)
                .set(DescribedGroup.ASSIGNMENT_EPOCH, 0)
                .set(DescribedGroup.ASSIGNOR_NAME, "")
                .set(DescribedGroup.MEMBERS, new ArrayList<>())
                .set(DescribedGroup.AUTHORIZED_OPERATIONS, Integer.MIN_VALUE);
    }

    private Struct assignment(Map<UUID, Set<Integer>> partitions) {
        Struct a = DescribedGroup.Assignment.SCHEMA.newStruct().set(DescribedGroup.Assignment.TOPIC_PARTITIONS, new ArrayList<>());
        partitions.forEach((id, parts) -> a.add(DescribedGroup.Assignment.TOPIC_PARTITIONS)
                .set(DescribedGroup.TopicPartitions.TOPIC_ID, id)
                .set(DescribedGroup.TopicPartitions.TOPIC_NAME, topics.topicName(id).orElse(""))
                .set(DescribedGroup.TopicPartitions.PARTITIONS, new ArrayList<>(parts)));
        return a;
    }
}
