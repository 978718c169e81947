package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.StreamsGroupHeartbeatRequest;
import io.odradek.coordinator.group.StreamsGroupHeartbeatResult;
import io.odradek.coordinator.group.streams.ConfiguredTopology;
import io.odradek.coordinator.offsets.StreamsGroupRecord;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.StreamsGroupHeartbeatApi;
import io.odradek.wire.api.StreamsGroupHeartbeatApi.Request;
import io.odradek.wire.api.StreamsGroupHeartbeatApi.Response;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * StreamsGroupHeartbeat (key 88), versions 0-1: the streams rebalance protocol (KIP-1071), which a Kafka Streams
 * 4.2+ application uses with {@code group.protocol=streams}. Epoch 0 joins with the application's topology, -1
 * leaves, -2 is a static member leaving for now; otherwise the member heartbeats with its epoch and, when they
 * changed, the tasks it owns. The answer carries the member's epoch, the heartbeat interval, the group's statuses
 * (missing source or internal topics, wrongly partitioned topics, a stale topology, a requested shutdown), the
 * member's tasks when they changed, and the partitions of every member by user endpoint (interactive queries)
 * when the member's endpoint epoch is behind. v1 adds AcceptableRecoveryLag (v0's legacy field carries the same
 * value) and TopologyDescriptionRequired, which is always false here: the broker never asks for topology
 * descriptions (StreamsGroupTopologyDescriptionUpdate, key 93, is not served; a Streams 4.4 client sends it only
 * when asked).
 *
 * <p>Internal topics, as Kafka's KafkaApis with its AutoTopicCreationManager: when the answer says
 * MISSING_INTERNAL_TOPICS the broker creates them (repartition topics with the partition count derived from the
 * topology, changelog topics with one partition per task, each with the configs the member declared), in the
 * background; the next heartbeat after they exist bumps the group and assigns tasks. As Kafka, a topic already
 * being created is not asked for again, and a failed creation's error (INVALID_REPLICATION_FACTOR on a single
 * broker asked for more than one replica, say) is kept for a minute and appended to the MISSING_INTERNAL_TOPICS
 * status of the next heartbeats ("... Creation failed: topic: ERROR (message)."); the message is ours.
 *
 * <p>Authorization, as Kafka 4.4: READ on the group, else GROUP_AUTHORIZATION_FAILED; with a topology, DESCRIBE
 * on every topic it names (source, repartition and changelog topics), else TOPIC_AUTHORIZATION_FAILED. Internal
 * topics are created only with CREATE on the cluster or on each topic; the others are named in a
 * MISSING_INTERNAL_TOPICS status ("Unauthorized to CREATE on topics ...").
 */
public final class StreamsGroupHeartbeatHandler implements ApiHandler {
    private static final System.Logger LOG = System.getLogger(StreamsGroupHeartbeatHandler.class.getName());

    private final GroupCoordinator groups;
    private final StreamsGroupInternalTopicCreator creator;

    public StreamsGroupHeartbeatHandler(GroupCoordinator groups, TopicService topics) {
        this.groups = groups;
        this.creator = new StreamsGroupInternalTopicCreator(topics, System::currentTimeMillis);
    }

    @Override
    public ApiSpec api() {
        return StreamsGroupHeartbeatApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!CoordinatorAccess.allowed(context, AclOperation.READ, ResourceType.GROUP, request.get(Request.GROUP_ID))) {
            return CompletableFuture.completedFuture(refused(ErrorCode.GROUP_AUTHORIZATION_FAILED, null));
        }
        StreamsGroupRecord.StreamsTopology topology = topology(request.get(Request.TOPOLOGY));
        if (topology != null && CoordinatorAccess.enabled(context)) {
            Predicate<String> mayDescribe = CoordinatorAccess.topics(context, AclOperation.DESCRIBE);
            Set<String> refused = new TreeSet<>();
            for (StreamsGroupRecord.Subtopology s : topology.subtopologies()) {
                s.sourceTopics().stream().filter(t -> !mayDescribe.test(t)).forEach(refused::add);
                s.repartitionSinkTopics().stream().filter(t -> !mayDescribe.test(t)).forEach(refused::add);
                s.repartitionSourceTopics().stream().map(StreamsGroupRecord.TopicInfo::name).filter(t -> !mayDescribe.test(t)).forEach(refused::add);
                s.stateChangelogTopics().stream().map(StreamsGroupRecord.TopicInfo::name).filter(t -> !mayDescribe.test(t)).forEach(refused::add);
            }
            if (!refused.isEmpty()) {
                return CompletableFuture.completedFuture(refused(ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                        "The following topics are not authorized for DESCRIBE: " + String.join(", ", refused)));
            }
        }
        Struct endpoint = request.get(Request.USER_ENDPOINT);
        StreamsGroupHeartbeatRequest req = new StreamsGroupHeartbeatRequest(request.get(Request.GROUP_ID),
                request.get(Request.MEMBER_ID), request.get(Request.MEMBER_EPOCH), request.get(Request.ENDPOINT_INFORMATION_EPOCH),
                request.get(Request.INSTANCE_ID), request.get(Request.RACK_ID), request.get(Request.REBALANCE_TIMEOUT_MS), topology,
                tasks(request.get(Request.ACTIVE_TASKS)), tasks(request.get(Request.STANDBY_TASKS)), tasks(request.get(Request.WARMUP_TASKS)),
                request.get(Request.PROCESS_ID),
                endpoint == null ? null : new StreamsGroupRecord.Endpoint(endpoint.get(Request.Endpoint.HOST), endpoint.get(Request.Endpoint.PORT)),
                keyValues(request.get(Request.CLIENT_TAGS)), request.get(Request.SHUTDOWN_APPLICATION), context.clientId(),
                JoinGroupHandler.clientHost(context.clientAddress()), context.version());
        return groups.streamsGroupHeartbeat(req).thenApply(r -> {
            List<StreamsGroupHeartbeatResult.Status> statuses = new ArrayList<>(r.statuses());
            if (r.error() == ErrorCode.NONE && !r.internalTopicsToCreate().isEmpty()) {
                createInternalTopics(context, r.internalTopicsToCreate(), statuses);
            }
            return response(r, statuses);
        });
    }

    /** Creates the internal topics the client may CREATE, in the background; the others are named in a status. */
    private void createInternalTopics(RequestContext context, Map<String, ConfiguredTopology.TopicToCreate> missing,
            List<StreamsGroupHeartbeatResult.Status> statuses) {
        boolean onCluster = CoordinatorAccess.allowedOnCluster(context, AclOperation.CREATE);
        Predicate<String> mayCreate = onCluster ? t -> true : CoordinatorAccess.topics(context, AclOperation.CREATE);
        List<String> unauthorized = new ArrayList<>();
        for (ConfiguredTopology.TopicToCreate t : missing.values()) {
            if (!mayCreate.test(t.name())) {
                unauthorized.add(t.name());
                continue;
            }
            creator.create(t);
        }
        Map<String, String> failed = creator.errors(missing.keySet());
        if (!failed.isEmpty()) {
            // Kafka adds the cached creation errors to the coordinator's MISSING_INTERNAL_TOPICS status.
            StringBuilder detail = new StringBuilder();
            failed.forEach((name, error) -> detail.append(detail.length() == 0 ? "" : ", ").append(name).append(": ").append(error));
            for (int i = 0; i < statuses.size(); i++) {
                StreamsGroupHeartbeatResult.Status s = statuses.get(i);
                if (s.code() == ConfiguredTopology.MISSING_INTERNAL_TOPICS) {
                    statuses.set(i, new StreamsGroupHeartbeatResult.Status(s.code(), s.detail() + " Creation failed: " + detail + "."));
                    break;
                }
            }
            LOG.log(System.Logger.Level.DEBUG, "internal topics of a streams group could not be created: " + detail);
        }
        if (!unauthorized.isEmpty()) {
            statuses.add(new StreamsGroupHeartbeatResult.Status(ConfiguredTopology.MISSING_INTERNAL_TOPICS,
                    "Unauthorized to CREATE on topics " + String.join(", ", unauthorized) + "."));
        }
    }

    /** A heartbeat refused before it reaches the coordinator: the error alone, as Kafka's error response. */
    private static Struct refused(ErrorCode error, String message) {
        return Response.SCHEMA.newStruct()
                .set(Response.ERROR_CODE, error.code())
                .set(Response.ERROR_MESSAGE, message)
                .set(Response.MEMBER_ID, "")
                .set(Response.MEMBER_EPOCH, 0)
                .set(Response.HEARTBEAT_INTERVAL_MS, 0);
    }

    static Struct response(StreamsGroupHeartbeatResult r, List<StreamsGroupHeartbeatResult.Status> statuses) {
        if (r.error() != ErrorCode.NONE) {
            return refused(r.error(), r.errorMessage());
        }
        Struct response = Response.SCHEMA.newStruct()
                .set(Response.ERROR_CODE, r.error().code())
                .set(Response.ERROR_MESSAGE, r.errorMessage())
                .set(Response.MEMBER_ID, r.memberId())
                .set(Response.MEMBER_EPOCH, r.memberEpoch())
                .set(Response.HEARTBEAT_INTERVAL_MS, r.heartbeatIntervalMs())
                .set(Response.ACCEPTABLE_RECOVERY_LAG_LEGACY, (int) Math.min(Integer.MAX_VALUE, r.acceptableRecoveryLag()))
                .set(Response.TASK_OFFSET_INTERVAL_MS, r.taskOffsetIntervalMs())
                .set(Response.ACCEPTABLE_RECOVERY_LAG, r.acceptableRecoveryLag())
                .set(Response.ENDPOINT_INFORMATION_EPOCH, r.endpointInformationEpoch())
                .set(Response.STATUS, new ArrayList<>());
        for (StreamsGroupHeartbeatResult.Status s : statuses) {
            response.add(Response.STATUS).set(Response.Status.STATUS_CODE, (byte) s.code()).set(Response.Status.STATUS_DETAIL, s.detail());
        }
        if (r.tasks() != null) {
            response.set(Response.ACTIVE_TASKS, taskIds(r.tasks().active()))
                    .set(Response.STANDBY_TASKS, taskIds(r.tasks().standby()))
                    .set(Response.WARMUP_TASKS, taskIds(r.tasks().warmup()));
        }
        if (r.partitionsByEndpoint() != null) {
            List<Struct> endpoints = new ArrayList<>();
            for (StreamsGroupHeartbeatResult.EndpointPartitions e : r.partitionsByEndpoint()) {
                endpoints.add(Response.EndpointToPartitions.SCHEMA.newStruct()
                        .set(Response.EndpointToPartitions.USER_ENDPOINT, Response.Endpoint.SCHEMA.newStruct()
                                .set(Response.Endpoint.HOST, e.endpoint().host()).set(Response.Endpoint.PORT, e.endpoint().port()))
                        .set(Response.EndpointToPartitions.ACTIVE_PARTITIONS, topicPartitions(e.activePartitions()))
                        .set(Response.EndpointToPartitions.STANDBY_PARTITIONS, topicPartitions(e.standbyPartitions())));
            }
            response.set(Response.PARTITIONS_BY_USER_ENDPOINT, endpoints);
        }
        return response;
    }

    private static List<Struct> taskIds(Map<String, Set<Integer>> tasks) {
        List<Struct> out = new ArrayList<>();
        tasks.forEach((s, p) -> out.add(Response.TaskIds.SCHEMA.newStruct()
                .set(Response.TaskIds.SUBTOPOLOGY_ID, s).set(Response.TaskIds.PARTITIONS, new ArrayList<>(p))));
        return out;
    }

    private static List<Struct> topicPartitions(Map<String, Set<Integer>> partitions) {
        List<Struct> out = new ArrayList<>();
        partitions.forEach((t, p) -> out.add(Response.TopicPartition.SCHEMA.newStruct()
                .set(Response.TopicPartition.TOPIC, t).set(Response.TopicPartition.PARTITIONS, new ArrayList<>(p))));
        return out;
    }

    private static Map<String, Set<Integer>> tasks(List<Struct> taskIds) {
        if (taskIds == null) {
            return null;
        }
        Map<String, Set<Integer>> out = new TreeMap<>();
        for (Struct t : taskIds) {
            out.computeIfAbsent(t.get(Request.TaskIds.SUBTOPOLOGY_ID), s -> new TreeSet<>()).addAll(t.get(Request.TaskIds.PARTITIONS));
        }
        return out;
    }

    private static Map<String, String> keyValues(List<Struct> kvs) {
        if (kvs == null) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        kvs.forEach(kv -> out.put(kv.get(Request.KeyValue.KEY), kv.get(Request.KeyValue.VALUE)));
        return out;
    }

    /** The request's topology in the form the group stores (the StreamsGroupTopology record's). */
    static StreamsGroupRecord.StreamsTopology topology(Struct t) {
        if (t == null) {
            return null;
        }
        List<StreamsGroupRecord.Subtopology> subtopologies = new ArrayList<>();
        for (Struct s : t.get(Request.Topology.SUBTOPOLOGIES)) {
            List<StreamsGroupRecord.CopartitionGroup> groups = new ArrayList<>();
            for (Struct g : s.get(Request.Topology.Subtopology.COPARTITION_GROUPS)) {
                groups.add(new StreamsGroupRecord.CopartitionGroup(g.get(Request.Topology.Subtopology.CopartitionGroup.SOURCE_TOPICS),
                        g.get(Request.Topology.Subtopology.CopartitionGroup.SOURCE_TOPIC_REGEX),
                        g.get(Request.Topology.Subtopology.CopartitionGroup.REPARTITION_SOURCE_TOPICS)));
            }
            subtopologies.add(new StreamsGroupRecord.Subtopology(s.get(Request.Topology.Subtopology.SUBTOPOLOGY_ID),
                    s.get(Request.Topology.Subtopology.SOURCE_TOPICS), s.get(Request.Topology.Subtopology.SOURCE_TOPIC_REGEX),
                    topicInfos(s.get(Request.Topology.Subtopology.STATE_CHANGELOG_TOPICS)),
                    s.get(Request.Topology.Subtopology.REPARTITION_SINK_TOPICS),
                    topicInfos(s.get(Request.Topology.Subtopology.REPARTITION_SOURCE_TOPICS)), groups));
        }
        return new StreamsGroupRecord.StreamsTopology(t.get(Request.Topology.EPOCH), subtopologies);
    }

    private static List<StreamsGroupRecord.TopicInfo> topicInfos(List<Struct> infos) {
        List<StreamsGroupRecord.TopicInfo> out = new ArrayList<>();
        for (Struct i : infos) {
            Map<String, String> configs = new LinkedHashMap<>();
            i.get(Request.TopicInfo.TOPIC_CONFIGS).forEach(kv -> configs.put(kv.get(Request.KeyValue.KEY), kv.get(Request.KeyValue.VALUE)));
            out.add(new StreamsGroupRecord.TopicInfo(i.get(Request.TopicInfo.NAME), i.get(Request.TopicInfo.PARTITIONS),
                    i.get(Request.TopicInfo.REPLICATION_FACTOR), configs));
        }
        return out;
    }
}
