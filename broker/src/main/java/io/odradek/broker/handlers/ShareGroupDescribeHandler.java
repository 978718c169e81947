package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.ShareGroupDescription;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ShareGroupDescribeApi;
import io.odradek.wire.api.ShareGroupDescribeApi.Request;
import io.odradek.wire.api.ShareGroupDescribeApi.Response;
import io.odradek.wire.api.ShareGroupDescribeApi.Response.DescribedGroup;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * ShareGroupDescribe (key 77), version 1 only (as Kafka 4.4): share groups with their state (Empty/Stable),
 * group and assignment epochs, assignor ("simple") and members, each with its rack, epoch, client, subscription
 * and assignment (topic id and name; a topic deleted meanwhile gets an empty name). A group that does not
 * exist, or is of another type, is GROUP_ID_NOT_FOUND with Kafka's message ("Group X not found." / "Group X is
 * not a share group."). Authorized operations (KIP-430), when asked, for groups described without error.
 *
 * <p>Authorization, as Kafka 4.4: DESCRIBE on each group, else GROUP_AUTHORIZATION_FAILED (answered first); with
 * an authorizer, a group whose members are assigned a topic the client may not DESCRIBE is answered
 * TOPIC_AUTHORIZATION_FAILED with no members.
 */
public final class ShareGroupDescribeHandler implements ApiHandler {
    private final GroupCoordinator groups;
    private final TopicService topics;

    public ShareGroupDescribeHandler(GroupCoordinator groups, TopicService topics) {
        this.groups = groups;
        this.topics = topics;
    }

    @Override
    public ApiSpec api() {
        return ShareGroupDescribeApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        boolean withOperations = request.get(Request.INCLUDE_AUTHORIZED_OPERATIONS);
        List<CompletableFuture<ShareGroupDescription>> described = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (String groupId : request.get(Request.GROUP_IDS)) {
            if (CoordinatorAccess.allowed(context, AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
                described.add(groups.describeShareGroup(groupId));
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
            for (CompletableFuture<ShareGroupDescription> f : described) {
                ShareGroupDescription d = f.join();
                if (d.error() != ErrorCode.NONE) {
                    errorGroup(response.add(Response.GROUPS), d.groupId(), d.error(), d.errorMessage());
                    continue;
                }
                if (CoordinatorAccess.enabled(context) && !allAssignedTopicsVisible(d, mayDescribe)) {
                    errorGroup(response.add(Response.GROUPS), d.groupId(), ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                            ConsumerGroupDescribeHandler.HIDDEN_TOPICS_MESSAGE);
                    continue;
                }
                Struct g = response.add(Response.GROUPS)
                        .set(DescribedGroup.ERROR_CODE, ErrorCode.NONE.code())
                        .set(DescribedGroup.GROUP_ID, d.groupId())
                        .set(DescribedGroup.GROUP_STATE, d.state())
                        .set(DescribedGroup.GROUP_EPOCH, d.groupEpoch())
                        .set(DescribedGroup.ASSIGNMENT_EPOCH, d.assignmentEpoch())
                        .set(DescribedGroup.ASSIGNOR_NAME, d.assignorName())
                        .set(DescribedGroup.MEMBERS, new ArrayList<>())
                        .set(DescribedGroup.AUTHORIZED_OPERATIONS, withOperations
                                ? CoordinatorAccess.groupOperations(context, d.groupId()) : Integer.MIN_VALUE);
                for (ShareGroupDescription.Member m : d.members()) {
                    g.add(DescribedGroup.MEMBERS)
                            .set(DescribedGroup.Member.MEMBER_ID, m.memberId())
                            .set(DescribedGroup.Member.RACK_ID, m.rackId())
                            .set(DescribedGroup.Member.MEMBER_EPOCH, m.memberEpoch())
                            .set(DescribedGroup.Member.CLIENT_ID, m.clientId())
                            .set(DescribedGroup.Member.CLIENT_HOST, m.clientHost())
                            .set(DescribedGroup.Member.SUBSCRIBED_TOPIC_NAMES, m.subscribedTopicNames())
                            .set(DescribedGroup.Member.ASSIGNMENT, assignment(m.assignment()));
                }
            }
            return response;
        });
    }

    private boolean allAssignedTopicsVisible(ShareGroupDescription d, Predicate<String> mayDescribe) {
        for (ShareGroupDescription.Member m : d.members()) {
            for (UUID id : m.assignment().keySet()) {
                if (!mayDescribe.test(topics.topicName(id).orElse(""))) {
                    return false;
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
        Struct a = Response.Assignment.SCHEMA.newStruct().set(Response.Assignment.TOPIC_PARTITIONS, new ArrayList<>());
        partitions.forEach((id, parts) -> a.add(Response.Assignment.TOPIC_PARTITIONS)
                .set(Response.TopicPartitions.TOPIC_ID, id)
                .set(Response.TopicPartitions.TOPIC_NAME, topics.topicName(id).orElse(""))
                .set(Response.TopicPartitions.PARTITIONS, new ArrayList<>(parts)));
        return a;
    }
}
