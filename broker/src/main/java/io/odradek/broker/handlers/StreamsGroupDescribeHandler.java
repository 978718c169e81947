package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.StreamsGroupDescription;
import io.odradek.coordinator.offsets.StreamsGroupRecord;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.StreamsGroupDescribeApi;
import io.odradek.wire.api.StreamsGroupDescribeApi.Request;
import io.odradek.wire.api.StreamsGroupDescribeApi.Response;
import io.odradek.wire.api.StreamsGroupDescribeApi.Response.DescribedGroup;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * StreamsGroupDescribe (key 89), versions 0-1: streams groups (KIP-1071) with their state, group and assignment
 * epochs, topology (subtopologies with source, repartition and changelog topics) and members, each with its
 * process, endpoint, client tags, current and target tasks. A group that does not exist, or is of another type,
 * is GROUP_ID_NOT_FOUND with Kafka's message. Task offsets are not kept, so members report none. v1 adds the
 * assignor name ("sticky") and the topology description, which the broker never holds (it never asks clients
 * for it: TopologyDescription null, TopologyDescriptionStatus 0). Authorized operations (KIP-430), when asked,
 * for groups described without error.
 *
 * <p>Authorization, as Kafka 4.4: DESCRIBE on each group, else GROUP_AUTHORIZATION_FAILED (answered first);
 * and DESCRIBE on every topic its topology names (source, repartition and changelog topics), else the group is
 * answered TOPIC_AUTHORIZATION_FAILED "The described group uses topics that the client is not authorized to
 * describe."
 */
public final class StreamsGroupDescribeHandler implements ApiHandler {
    private final GroupCoordinator groups;

    public StreamsGroupDescribeHandler(GroupCoordinator groups) {
        this.groups = groups;
    }

    @Override
    public ApiSpec api() {
        return StreamsGroupDescribeApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        boolean withOperations = request.get(Request.INCLUDE_AUTHORIZED_OPERATIONS);
        List<CompletableFuture<StreamsGroupDescription>> described = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (String groupId : request.get(Request.GROUP_IDS)) {
            if (CoordinatorAccess.allowed(context, AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
                described.add(groups.describeStreamsGroup(groupId));
            } else {
                refused.add(groupId);
            }
        }
        return CompletableFuture.allOf(described.toArray(CompletableFuture[]::new)).thenApply(v -> {
            Struct response = Response.SCHEMA.newStruct().set(Response.GROUPS, new ArrayList<>());
            for (String groupId : refused) {
                errorGroup(response.add(Response.GROUPS), groupId, ErrorCode.GROUP_AUTHORIZATION_FAILED, null);
            }
            for (CompletableFuture<StreamsGroupDescription> f : described) {
                StreamsGroupDescription d = f.join();
                if (d.error() != ErrorCode.NONE) {
                    errorGroup(response.add(Response.GROUPS), d.groupId(), d.error(), d.errorMessage());
                    continue;
                }
                if (!mayDescribeTopics(context, d.topology())) {
                    errorGroup(response.add(Response.GROUPS), d.groupId(), ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                            "The described group uses topics that the client is not authorized to describe.");
                    continue;
                }
                Struct g = response.add(Response.GROUPS)
                        .set(DescribedGroup.ERROR_CODE, ErrorCode.NONE.code())
                        .set(DescribedGroup.GROUP_ID, d.groupId())
                        .set(DescribedGroup.GROUP_STATE, d.state())
                        .set(DescribedGroup.GROUP_EPOCH, d.groupEpoch())
                        .set(DescribedGroup.ASSIGNMENT_EPOCH, d.assignmentEpoch())
                        .set(DescribedGroup.TOPOLOGY, topology(d))
                        .set(DescribedGroup.MEMBERS, new ArrayList<>())
                        .set(DescribedGroup.AUTHORIZED_OPERATIONS, withOperations
                                ? CoordinatorAccess.groupOperations(context, d.groupId()) : Integer.MIN_VALUE)
                        .set(DescribedGroup.ASSIGNOR_NAME, "sticky");
                for (StreamsGroupDescription.Member m : d.members()) {
                    StreamsGroupRecord.Member meta = m.metadata();
                    Struct member = g.add(DescribedGroup.MEMBERS)
                            .set(DescribedGroup.Member.MEMBER_ID, m.memberId())
                            .set(DescribedGroup.Member.MEMBER_EPOCH, m.memberEpoch())
                            .set(DescribedGroup.Member.INSTANCE_ID, meta == null ? null : meta.instanceId())
                            .set(DescribedGroup.Member.RACK_ID, meta == null ? null : meta.rackId())
                            .set(DescribedGroup.Member.CLIENT_ID, meta == null ? "" : meta.clientId())
                            .set(DescribedGroup.Member.CLIENT_HOST, meta == null ? "" : meta.clientHost())
                            .set(DescribedGroup.Member.TOPOLOGY_EPOCH, meta == null ? 0 : meta.topologyEpoch())
                            .set(DescribedGroup.Member.PROCESS_ID, meta == null ? "" : meta.processId())
                            .set(DescribedGroup.Member.CLIENT_TAGS, new ArrayList<>())
                            .set(DescribedGroup.Member.TASK_OFFSETS, new ArrayList<>())
                            .set(DescribedGroup.Member.TASK_END_OFFSETS, new ArrayList<>())
                            .set(DescribedGroup.Member.ASSIGNMENT, assignment(m.assignment()))
                            .set(DescribedGroup.Member.TARGET_ASSIGNMENT, assignment(m.targetAssignment()))
                            .set(DescribedGroup.Member.IS_CLASSIC, m.isClassic());
                    if (meta != null && meta.userEndpoint() != null) {
                        member.set(DescribedGroup.Member.USER_ENDPOINT, Response.Endpoint.SCHEMA.newStruct()
                                .set(Response.Endpoint.HOST, meta.userEndpoint().host())
                                .set(Response.Endpoint.PORT, meta.userEndpoint().port()));
                    }
                    if (meta != null) {
                        meta.clientTags().forEach((k, val) -> member.add(DescribedGroup.Member.CLIENT_TAGS)
                                .set(Response.KeyValue.KEY, k).set(Response.KeyValue.VALUE, val));
                    }
                }
            }
            return response;
        });
    }

    private static Struct topology(StreamsGroupDescription d) {
        if (d.topology() == null) {
            return null;
        }
        Struct t = DescribedGroup.Topology.SCHEMA.newStruct().set(DescribedGroup.Topology.EPOCH, d.topology().epoch())
                .set(DescribedGroup.Topology.SUBTOPOLOGIES, new ArrayList<>());
        for (StreamsGroupRecord.Subtopology s : d.topology().subtopologies()) {
            Set<String> sources = d.sourceTopicsBySubtopology().getOrDefault(s.subtopologyId(), Set.copyOf(s.sourceTopics()));
            t.add(DescribedGroup.Topology.SUBTOPOLOGIES)
                    .set(DescribedGroup.Topology.Subtopology.SUBTOPOLOGY_ID, s.subtopologyId())
                    .set(DescribedGroup.Topology.Subtopology.SOURCE_TOPICS, new ArrayList<>(sources))
                    .set(DescribedGroup.Topology.Subtopology.REPARTITION_SINK_TOPICS, s.repartitionSinkTopics())
                    .set(DescribedGroup.Topology.Subtopology.STATE_CHANGELOG_TOPICS, topicInfos(s.stateChangelogTopics()))
                    .set(DescribedGroup.Topology.Subtopology.REPARTITION_SOURCE_TOPICS, topicInfos(s.repartitionSourceTopics()));
        }
        return t;
    }

    private static List<Struct> topicInfos(List<StreamsGroupRecord.TopicInfo> infos) {
        List<Struct> out = new ArrayList<>();
        for (StreamsGroupRecord.TopicInfo i : infos) {
            Struct s = Response.TopicInfo.SCHEMA.newStruct()
                    .set(Response.TopicInfo.NAME, i.name())
                    .set(Response.TopicInfo.PARTITIONS, i.partitions())
                    .set(Response.TopicInfo.REPLICATION_FACTOR, i.replicationFactor())
                    .set(Response.TopicInfo.TOPIC_CONFIGS, new ArrayList<>());
            i.configs().forEach((k, v) -> s.add(Response.TopicInfo.TOPIC_CONFIGS).set(Response.KeyValue.KEY, k).set(Response.KeyValue.VALUE, v));
            out.add(s);
        }
        return out;
    }

    private static Struct assignment(StreamsGroupRecord.Tasks tasks) {
        return Response.Assignment.SCHEMA.newStruct()
                .set(Response.Assignment.ACTIVE_TASKS, taskIds(tasks.active()))
                .set(Response.Assignment.STANDBY_TASKS, taskIds(tasks.standby()))
                .set(Response.Assignment.WARMUP_TASKS, taskIds(tasks.warmup()));
    }

    private static List<Struct> taskIds(Map<String, Set<Integer>> tasks) {
        List<Struct> out = new ArrayList<>();
        tasks.forEach((s, p) -> out.add(Response.TaskIds.SCHEMA.newStruct()
                .set(Response.TaskIds.SUBTOPOLOGY_ID, s).set(Response.TaskIds.PARTITIONS, new ArrayList<>(p))));
        return out;
    }

    /** A group answered with an error alone, the other fields at Kafka's defaults. */
    private static void errorGroup(Struct g, String groupId, ErrorCode error, String message) {
        g.set(DescribedGroup.ERROR_CODE, error.code())
                .set(DescribedGroup.ERROR_MESSAGE, message)
                .set(DescribedGroup.GROUP_ID, groupId == null ? "" : groupId)
                .set(DescribedGroup.GROUP_STATE, "")
                .set(DescribedGroup.GROUP_EPOCH, 0)
                .set(DescribedGroup.ASSIGNMENT_EPOCH, 0)
                .set(DescribedGroup.MEMBERS, new ArrayList<>())
                .set(DescribedGroup.AUTHORIZED_OPERATIONS, Integer.MIN_VALUE);
    }

    /** Whether the caller may DESCRIBE every topic the topology names (no topology: nothing to check). */
    private static boolean mayDescribeTopics(RequestContext context, StreamsGroupRecord.StreamsTopology topology) {
        if (topology == null || !CoordinatorAccess.enabled(context)) {
            return true;
        }
        java.util.function.Predicate<String> mayDescribe = CoordinatorAccess.topics(context, AclOperation.DESCRIBE);
        for (StreamsGroupRecord.Subtopology s : topology.subtopologies()) {
            if (!s.sourceTopics().stream().allMatch(mayDescribe) || !s.repartitionSinkTopics().stream().allMatch(mayDescribe)
                    || !s.repartitionSourceTopics().stream().map(StreamsGroupRecord.TopicInfo::name).allMatch(mayDescribe)
                    || !s.stateChangelogTopics().stream().map(StreamsGroupRecord.TopicInfo::name).allMatch(mayDescribe)) {
                return false;
            }
        }
        return true;
    }
}
