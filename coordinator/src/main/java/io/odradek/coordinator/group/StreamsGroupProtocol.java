package io.odradek.coordinator.group;

import io.odradek.coordinator.group.streams.ConfiguredTopology;
import io.odradek.coordinator.group.streams.TaskAssignor;
import io.odradek.coordinator.offsets.OffsetsRecord;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.StreamsGroupRecord;
import io.odradek.coordinator.offsets.StreamsGroupRecord.MemberAssignment;
import io.odradek.coordinator.offsets.StreamsGroupRecord.StreamsTopology;
import io.odradek.coordinator.offsets.StreamsGroupRecord.Subtopology;
import io.odradek.coordinator.offsets.StreamsGroupRecord.Tasks;
import io.odradek.coordinator.offsets.StreamsGroupRecord.TopicInfo;
import io.odradek.coordinator.runtime.Scheduler;
import io.odradek.wire.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Kafka's streams group protocol (KIP-1071) for the groups of one {@code __consumer_offsets} partition:
 * StreamsGroupHeartbeat (join, heartbeat, leave), session and rebalance timeouts, and what offsets, listing,
 * describing and deleting need to know about these groups. Event-sourced like {@link ConsumerGroupProtocol}:
 * a heartbeat computes records, they are written, and state changes only when they are replayed.
 *
 * <p>Each heartbeat: (1) the member is created or updated, and the first member's topology becomes the group's
 * (the topology record); (2) the topology is checked against the topics that exist now
 * ({@link ConfiguredTopology}): missing source topics, internal topics to create (the broker creates them when
 * the answer says MISSING_INTERNAL_TOPICS), wrong partition counts; (3) a new member, changed member metadata,
 * a change in the topics (their hash) or in the assignment configs bumps the group epoch, and the task assignor
 * computes a new target assignment (empty while the topology is not ready); (4) the member's current tasks move
 * a step towards its target ({@link StreamsTaskReconciler}: revoke first; an active task only once its previous
 * owner has released it).
 *
 * <p>Simplifications, against Kafka 4.4: a topology can only be replaced while the group is empty (Kafka
 * supports no topology update of a live group either: "Topology updates are not supported yet."); warm-up
 * tasks are whatever the assignor gives (the sticky assignor gives none); task offsets reported by members are
 * not kept; topology descriptions (StreamsGroupTopologyDescriptionUpdate, KIP-1331) are never requested.
 */
final class StreamsGroupProtocol {
    private static final System.Logger LOG = System.getLogger(StreamsGroupProtocol.class.getName());
    /** Kafka's StreamsGroup.PROTOCOL_TYPE, which ListGroups reports. */
    static final String PROTOCOL_TYPE = "streams";

    private final int partition;
    private final Scheduler scheduler;
    private final ConsumerGroupProtocol.RecordWriter writer;
    private final StreamsGroupConfig config;
    private final TopicCatalog topics;
    private final Map<String, ClassicGroup> classicGroups;
    /** Whether a group of another modern type (consumer, share) has this id. */
    private final Predicate<String> otherGroupType;
    /** Null when none was configured: targets are then empty. */
    private final TaskAssignor assignor;
    private final Map<String, StreamsGroup> groups = new HashMap<>();

    StreamsGroupProtocol(int partition, Scheduler scheduler, ConsumerGroupProtocol.RecordWriter writer, StreamsGroupConfig config,
            TopicCatalog topics, Map<String, ClassicGroup> classicGroups, Predicate<String> otherGroupType) {
        this.partition = partition;
        this.scheduler = scheduler;
        this.writer = writer;
        this.config = config;
        this.topics = topics;
        this.classicGroups = classicGroups;
        this.otherGroupType = otherGroupType;
        this.assignor = config.assignor().get();
    }

    /** Whether a streams group of this id exists here (a group id is of one type only). */
    boolean hasGroup(String groupId) {
        return groups.containsKey(groupId);
    }

    StreamsGroup group(String groupId) {
        return groupId == null ? null : groups.get(groupId);
    }

    Collection<StreamsGroup> groups() {
        return groups.values();
    }

    // ------------------------------------------------------------------ StreamsGroupHeartbeat

    StreamsGroupHeartbeatResult heartbeat(StreamsGroupHeartbeatRequest req) {
        try {
            validate(req);
            if (req.memberEpoch() == StreamsGroupHeartbeatRequest.LEAVE_GROUP_MEMBER_EPOCH
                    || req.memberEpoch() == StreamsGroupHeartbeatRequest.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
                return leave(req);
            }
            return joinOrHeartbeat(req);
        } catch (GroupException e) {
            return StreamsGroupHeartbeatResult.error(e.error, e.getMessage());
        }
    }

    /** Kafka 4.4's request checks, with its messages (INVALID_REQUEST unless said otherwise). */
    private static void validate(StreamsGroupHeartbeatRequest req) {
        requireNotBlank(req.groupId(), "GroupId can't be empty.");
        if (req.memberId() == null || req.memberId().isBlank()) {
            throw invalid("MemberId can't be empty.");
        }
        requireNotBlank(req.instanceId(), "InstanceId can't be empty.");
        requireNotBlank(req.rackId(), "RackId can't be empty.");
        int epoch = req.memberEpoch();
        if (epoch == 0) {
            if (req.rebalanceTimeoutMs() == -1) {
                throw invalid("RebalanceTimeoutMs must be provided in first request.");
            }
            if (req.topology() == null) {
                throw invalid("Topology must be non-null when (re-)joining.");
            }
            if (req.activeTasks() == null || !req.activeTasks().isEmpty()) {
                throw invalid("ActiveTasks must be empty when (re-)joining.");
            }
            if (req.standbyTasks() == null || !req.standbyTasks().isEmpty()) {
                throw invalid("StandbyTasks must be empty when (re-)joining.");
            }
            if (req.warmupTasks() == null || !req.warmupTasks().isEmpty()) {
                throw invalid("WarmupTasks must be empty when (re-)joining.");
            }
            if (req.processId() == null || req.processId().isBlank()) {
                throw invalid("ProcessId can't be empty.");
            }
            validateTopology(req.topology());
        } else if (epoch == StreamsGroupHeartbeatRequest.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
            if (req.instanceId() == null) {
                throw invalid("InstanceId can't be null.");
            }
        } else if (epoch < StreamsGroupHeartbeatRequest.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
            throw invalid("MemberEpoch is invalid.");
        }
        if (epoch != 0 && req.topology() != null) {
            throw invalid("Topology can only be provided when (re-)joining.");
        }
    }

    /**
     * Kafka's structural checks of a topology (STREAMS_INVALID_TOPOLOGY): every repartition topic a subtopology
     * writes must be one some subtopology reads, internal topics are valid topic names and declared once.
     */
    private static void validateTopology(StreamsTopology topology) {
        Set<String> repartitionSources = new HashSet<>();
        Set<String> internal = new HashSet<>();
        for (Subtopology s : topology.subtopologies()) {
            for (TopicInfo t : s.stateChangelogTopics()) {
                if (t.partitions() != 0) {
                    throw new GroupException(ErrorCode.STREAMS_INVALID_TOPOLOGY, String.format(
                            "Changelog topic %s must have an undefined partition count, but it is set to %d.", t.name(), t.partitions()));
                }
            }
            checkCopartitionGroups(s);
        }
        for (Subtopology s : topology.subtopologies()) {
            for (TopicInfo t : s.repartitionSourceTopics()) {
                repartitionSources.add(t.name());
                checkInternalTopicName(t.name(), internal);
            }
            for (TopicInfo t : s.stateChangelogTopics()) {
                checkInternalTopicName(t.name(), internal);
            }
        }
        for (Subtopology s : topology.subtopologies()) {
            for (String sink : s.repartitionSinkTopics()) {
                if (!repartitionSources.contains(sink)) {
                    throw new GroupException(ErrorCode.STREAMS_INVALID_TOPOLOGY, "Repartition sink topic " + sink
                            + " of subtopology " + s.subtopologyId() + " is not a repartition source topic of any subtopology.");
                }
            }
        }
    }

    /**
     * A copartition group names topics by their index in the subtopology's lists; one out of range would make
     * configuring the topology fail on every heartbeat and at load. Kafka 4.4 does not check this at the
     * request; the message is ours.
     */
    private static void checkCopartitionGroups(Subtopology s) {
        for (StreamsGroupRecord.CopartitionGroup g : s.copartitionGroups()) {
            checkIndices(s, g.sourceTopics(), s.sourceTopics().size(), "source topic");
            checkIndices(s, g.sourceTopicRegex(), s.sourceTopicRegex().size(), "source topic regex");
            checkIndices(s, g.repartitionSourceTopics(), s.repartitionSourceTopics().size(), "repartition source topic");
        }
    }

    private static void checkIndices(Subtopology s, List<Short> indices, int size, String what) {
        for (short i : indices) {
            if (i < 0 || i >= size) {
                throw new GroupException(ErrorCode.STREAMS_INVALID_TOPOLOGY, "Copartition group of subtopology "
                        + s.subtopologyId() + " refers to " + what + " index " + i + ", but the subtopology has " + size
                        + " " + what + (size == 1 ? "" : "s") + ".");
            }
        }
    }

    private static void checkInternalTopicName(String name, Set<String> seen) {
        if (name.isEmpty() || name.length() > 249 || name.equals(".") || name.equals("..")
                || !name.chars().allMatch(c -> Character.isLetterOrDigit(c) && c < 128 || c == '.' || c == '_' || c == '-')) {
            throw new GroupException(ErrorCode.STREAMS_INVALID_TOPOLOGY, "Internal topic name " + name + " is not a valid topic name.");
        }
        if (!seen.add(name)) {
            throw new GroupException(ErrorCode.STREAMS_INVALID_TOPOLOGY, "Internal topic " + name + " is declared more than once.");
        }
    }

    private StreamsGroupHeartbeatResult joinOrHeartbeat(StreamsGroupHeartbeatRequest req) {
        String groupId = req.groupId();
        String memberId = req.memberId();
        boolean joining = req.memberEpoch() == 0;
        List<OffsetsRecord> records = new ArrayList<>();
        StreamsGroup group = groups.get(groupId);
        if (group == null) {
            ClassicGroup classic = classicGroups.get(groupId);
            if (otherGroupType.test(groupId) || (classic != null && !(joining && isEmpty(classic)))) {
                throw new GroupException(ErrorCode.GROUP_ID_NOT_FOUND, "Group " + groupId + " is not a streams group.");
            }
            if (!joining) {
                throw new GroupException(ErrorCode.GROUP_ID_NOT_FOUND, "Streams group " + groupId + " not found.");
            }
            if (classic != null) {
                // An empty classic group holding only offsets becomes a streams group; its offsets stay.
                records.add(new OffsetsRecord.GroupMetadata(groupId, null));
            }
            group = new StreamsGroup(groupId); // made real by replaying the records below
        }
        if (joining && group.member(memberId) == null && group.staticMember(req.instanceId()) == null
                && group.members.size() >= config.maxSize()) {
            throw new GroupException(ErrorCode.GROUP_MAX_SIZE_REACHED, "The streams group has reached its maximum capacity of "
                    + config.maxSize() + " members.");
        }

        // 1. The member, created or updated; a static member rejoining takes its predecessor's place.
        StreamsGroupMember member = group.member(memberId);
        String replaced = null;
        if (req.instanceId() != null) {
            StreamsGroupMember existing = group.staticMember(req.instanceId());
            if (joining && existing != null && !existing.memberId.equals(memberId)) {
                if (existing.memberEpoch() != StreamsGroupHeartbeatRequest.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
                    throw new GroupException(ErrorCode.UNRELEASED_INSTANCE_ID, "Static member " + memberId + " with instance id "
                            + req.instanceId() + " cannot join the group because the instance id is owned by "
                            + existing.memberId + " member.");
                }
                replaced = existing.memberId;
                records.addAll(removalRecords(groupId, replaced));
            } else if (!joining && existing != null && !existing.memberId.equals(memberId)) {
                throw new GroupException(ErrorCode.FENCED_INSTANCE_ID, "Static member " + memberId + " with instance id "
                        + req.instanceId() + " was fenced by member " + existing.memberId + ".");
            }
        }
        if (member == null && !joining) {
            throw new GroupException(ErrorCode.UNKNOWN_MEMBER_ID, "Member " + memberId + " is not a member of group " + groupId + ".");
        }
        if (member != null) {
            throwIfEpochInvalid(member, req);
        }
        boolean isNew = member == null;
        StreamsGroupRecord.Member old = member == null ? null : member.metadata;
        StreamsGroupRecord.Member meta = updated(old, req);

        // The topology: the first member's becomes the group's; a different one is refused while the group lives.
        StreamsTopology topology = group.topology;
        boolean topologyChanged = false;
        if (req.topology() != null) {
            boolean onlyMember = group.members.isEmpty() || (group.members.size() == 1 && group.members.containsKey(memberId))
                    || (group.members.size() == 1 && replaced != null);
            if (topology == null || (onlyMember && !req.topology().equals(topology))) {
                topology = req.topology();
                topologyChanged = true;
                records.add(new StreamsGroupRecord.Topology(groupId, topology));
                LOG.log(System.Logger.Level.INFO, "member " + memberId + " initialized the topology of streams group " + groupId
                        + " with epoch " + topology.epoch());
            } else if (req.topology().epoch() > topology.epoch() || (req.topology().epoch() == topology.epoch()
                    && !req.topology().equals(topology))) {
                throw invalid("Topology updates are not supported yet.");
            }
        }
        if (isNew || !meta.equals(old)) {
            records.add(new StreamsGroupRecord.MemberMetadata(groupId, memberId, meta));
        }
        boolean metadataChanged = isNew || replaced != null || old == null
                || !Objects.equals(old.processId(), meta.processId()) || !Objects.equals(old.rackId(), meta.rackId())
                || !Objects.equals(old.instanceId(), meta.instanceId()) || !old.clientTags().equals(meta.clientTags())
                || !Objects.equals(old.userEndpoint(), meta.userEndpoint()) || old.topologyEpoch() != meta.topologyEpoch();

        // 2. The topology against the topics that exist now.
        ConfiguredTopology configured = configure(group, topology);
        long hash = hash(topology);
        Map<String, String> assignmentConfigs = Map.of("num.standby.replicas", Integer.toString(config.numStandbyReplicas(groupId)));

        // 3. A new group epoch and target assignment when something the assignment depends on changed.
        int groupEpoch = group.groupEpoch;
        if (metadataChanged || topologyChanged || hash != group.metadataHash || !assignmentConfigs.equals(group.lastAssignmentConfigs)) {
            groupEpoch++;
            int validated = configured.isReady() ? topology.epoch() : -1;
            records.add(new StreamsGroupRecord.Metadata(groupId,
                    new StreamsGroupRecord.GroupEpoch(groupEpoch, hash, validated, assignmentConfigs)));
            LOG.log(System.Logger.Level.INFO, "bumped streams group " + groupId + " to epoch " + groupEpoch
                    + (isNew ? " (member " + memberId + " joined)" : metadataChanged ? " (member " + memberId + " changed)"
                    : hash != group.metadataHash ? " (its topics changed)" : topologyChanged ? " (new topology)" : " (assignment configs changed)"));
        }
        int targetEpoch;
        Tasks target;
        if (groupEpoch > group.assignmentEpoch) {
            Map<String, Tasks> next = computeTarget(group, memberId, meta, replaced, topology, configured, assignmentConfigs);
            for (Map.Entry<String, Tasks> e : next.entrySet()) {
                String id = e.getKey();
                Tasks before = id.equals(memberId) && replaced != null ? group.target(replaced) : group.target(id);
                if (!e.getValue().equals(before) || (id.equals(memberId) && isNew)) {
                    records.add(new StreamsGroupRecord.TargetAssignmentMember(groupId, id, e.getValue()));
                }
            }
            records.add(new StreamsGroupRecord.TargetAssignmentMetadata(groupId, groupEpoch));
            LOG.log(System.Logger.Level.INFO, "streams group " + groupId + " has a new target assignment for epoch " + groupEpoch
                    + (configured.isReady() ? "" : " (no tasks: its topology is not ready)") + ": " + next);
            targetEpoch = groupEpoch;
            target = next.getOrDefault(memberId, Tasks.EMPTY);
        } else {
            targetEpoch = group.assignmentEpoch;
            target = group.target(replaced != null ? replaced : memberId);
        }

        // 4. The member's current tasks, one step towards the target.
        MemberAssignment current = member == null ? MemberAssignment.INITIAL : member.assignment;
        if (replaced != null) {
            MemberAssignment a = group.member(replaced).assignment;
            current = new MemberAssignment(0, 0, a.state(), a.assigned(), a.pendingRevocation());
        }
        Tasks owned = req.activeTasks() == null ? null : new Tasks(req.activeTasks(),
                req.standbyTasks() == null ? Map.of() : req.standbyTasks(), req.warmupTasks() == null ? Map.of() : req.warmupTasks());
        StreamsGroup g = group;
        String replacedId = replaced;
        MemberAssignment next = current.memberEpoch() == targetEpoch && MemberState.of(current.state()) == MemberState.STABLE ? current
                : StreamsTaskReconciler.inGroup(g, memberId, meta.processId(), replacedId, current, targetEpoch, target, owned).next();
        if (isNew || !next.equals(current)) {
            records.add(new StreamsGroupRecord.CurrentAssignment(groupId, memberId, next));
        }

        if (req.shutdownApplication() && !group.shutdownRequested) {
            group.shutdownRequested = true; // in memory, as in Kafka: until the group empties
            LOG.log(System.Logger.Level.INFO, "member " + memberId + " of streams group " + groupId + " requested the shutdown of the application");
        }

        MemberAssignment before = current;
        boolean endpointsChange = records.stream().anyMatch(r -> r instanceof StreamsGroupRecord.MemberMetadata
                || r instanceof StreamsGroupRecord.CurrentAssignment);
        writer.write(records, error -> {
            if (error != ErrorCode.NONE) {
                return;
            }
            StreamsGroup stored = groups.get(groupId);
            if (stored != null && endpointsChange) {
                stored.endpointInformationEpoch++;
            }
            StreamsGroupMember m = stored == null ? null : stored.member(memberId);
            if (m == null) {
                return;
            }
            scheduleSessionTimeout(groupId, m);
            if (MemberState.of(next.state()) != MemberState.UNREVOKED_PARTITIONS) {
                m.cancelRebalanceTimer();
            } else if (!next.equals(before) || m.rebalanceTimer == null) {
                scheduleRebalanceTimeout(groupId, m);
            }
        });

        List<StreamsGroupHeartbeatResult.Status> statuses = statuses(group, memberId, meta, topology, configured);
        boolean changed = !next.assigned().equals(current.assigned());
        boolean ownedDiffers = owned != null && !owned.equals(next.assigned());
        Tasks tasks = joining || changed || ownedDiffers ? next.assigned() : null;
        int endpointEpoch = group.endpointInformationEpoch + (endpointsChange ? 1 : 0);
        List<StreamsGroupHeartbeatResult.EndpointPartitions> endpoints = null;
        if (meta.userEndpoint() != null && req.endpointInformationEpoch() != endpointEpoch) {
            endpoints = endpoints(group, memberId, meta, next, topology);
        }
        return new StreamsGroupHeartbeatResult(ErrorCode.NONE, null, memberId, next.memberEpoch(),
                config.heartbeatIntervalMs(groupId), StreamsGroupConfig.TASK_OFFSET_INTERVAL_MS,
                StreamsGroupConfig.ACCEPTABLE_RECOVERY_LAG, statuses, tasks, endpointEpoch, endpoints,
                configured.internalTopicsToCreate());
    }

    private List<StreamsGroupHeartbeatResult.Status> statuses(StreamsGroup group, String memberId, StreamsGroupRecord.Member meta,
            StreamsTopology topology, ConfiguredTopology configured) {
        List<StreamsGroupHeartbeatResult.Status> out = new ArrayList<>();
        if (group.shutdownRequested) {
            out.add(new StreamsGroupHeartbeatResult.Status(ConfiguredTopology.SHUTDOWN_APPLICATION,
                    "A KafkaStreams instance encountered a fatal error and requested a shutdown for the entire application."));
        }
        if (meta.topologyEpoch() != topology.epoch()) {
            out.add(new StreamsGroupHeartbeatResult.Status(ConfiguredTopology.STALE_TOPOLOGY, "The member's topology epoch "
                    + meta.topologyEpoch() + " is behind the group's topology epoch " + topology.epoch() + "."));
        }
        if (configured.errorStatus() >= 0) {
            out.add(new StreamsGroupHeartbeatResult.Status(configured.errorStatus(), configured.errorDetail()));
        } else if (!configured.internalTopicsToCreate().isEmpty()) {
            out.add(new StreamsGroupHeartbeatResult.Status(ConfiguredTopology.MISSING_INTERNAL_TOPICS,
                    "Internal topics are missing: " + new ArrayList<>(configured.internalTopicsToCreate().keySet())));
        }
        return out;
    }

    private static boolean isEmpty(ClassicGroup classic) {
        return classic.is(GroupState.EMPTY) && classic.members.isEmpty() && classic.pendingJoinMembers.isEmpty();
    }

    /** Kafka 4.4: epoch 0 rejoins; a newer epoch, or an older one other than a lost bump's, is fenced. */
    private static void throwIfEpochInvalid(StreamsGroupMember member, StreamsGroupHeartbeatRequest req) {
        int received = req.memberEpoch();
        if (received == 0) {
            return;
        }
        if (received > member.memberEpoch()) {
            throw new GroupException(ErrorCode.FENCED_MEMBER_EPOCH, "The streams group member has a greater member epoch ("
                    + received + ") than the one known by the group coordinator (" + member.memberEpoch()
                    + "). The member must abandon all its partitions and rejoin.");
        }
        // Kafka: an older epoch is the previous one, resent with tasks all in the assignment (active, standby and warm-up).
        Tasks assigned = member.assignment.assigned();
        if (received < member.memberEpoch() && (received != member.assignment.previousMemberEpoch()
                || req.activeTasks() == null || !contains(assigned.active(), req.activeTasks())
                || req.standbyTasks() != null && !contains(assigned.standby(), req.standbyTasks())
                || req.warmupTasks() != null && !contains(assigned.warmup(), req.warmupTasks()))) {
            throw new GroupException(ErrorCode.FENCED_MEMBER_EPOCH, "The streams group member has a smaller member epoch ("
                    + received + ") than the one known by the group coordinator (" + member.memberEpoch()
                    + "). The member must abandon all its partitions and rejoin.");
        }
    }

    private static boolean contains(Map<String, Set<Integer>> assigned, Map<String, Set<Integer>> owned) {
        for (Map.Entry<String, Set<Integer>> e : owned.entrySet()) {
            if (!assigned.getOrDefault(e.getKey(), Set.of()).containsAll(e.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** The member's metadata with what this heartbeat changed (null fields: unchanged). */
    private static StreamsGroupRecord.Member updated(StreamsGroupRecord.Member old, StreamsGroupHeartbeatRequest req) {
        return new StreamsGroupRecord.Member(
                req.instanceId() != null ? req.instanceId() : old == null ? null : old.instanceId(),
                req.rackId() != null ? req.rackId() : old == null ? null : old.rackId(),
                req.clientId(), req.clientHost(),
                req.rebalanceTimeoutMs() != -1 ? req.rebalanceTimeoutMs() : old == null ? -1 : old.rebalanceTimeoutMs(),
                req.topology() != null ? req.topology().epoch() : old == null ? 0 : old.topologyEpoch(),
                req.processId() != null ? req.processId() : old == null ? "" : old.processId(),
                req.userEndpoint() != null ? req.userEndpoint() : old == null ? null : old.userEndpoint(),
                req.clientTags() != null ? req.clientTags() : old == null ? Map.of() : old.clientTags());
    }

    /** Every topic the topology names that exists, by name: when their ids or partition counts change, the group rebalances. */
    private long hash(StreamsTopology topology) {
        Set<String> names = new TreeSet<>();
        for (Subtopology s : topology.subtopologies()) {
            names.addAll(ConfiguredTopology.sourceTopics(s, topics));
            s.repartitionSourceTopics().forEach(t -> names.add(t.name()));
            s.stateChangelogTopics().forEach(t -> names.add(t.name()));
        }
        long h = 0xcbf29ce484222325L; // FNV-1a, 64 bits
        boolean any = false;
        for (String name : names) {
            TopicCatalog.Topic t = topics.topic(name);
            if (t == null) {
                continue;
            }
            any = true;
            String s = name + "/" + t.id() + "/" + t.partitions() + ";";
            for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
                h = (h ^ (b & 0xff)) * 0x100000001b3L;
            }
        }
        return !any ? 0 : h == 0 ? 1 : h;
    }

    private Map<String, Tasks> computeTarget(StreamsGroup group, String memberId, StreamsGroupRecord.Member meta,
            String replaced, StreamsTopology topology, ConfiguredTopology configured, Map<String, String> assignmentConfigs) {
        Map<String, StreamsGroupRecord.Member> members = new LinkedHashMap<>();
        group.members.forEach((id, m) -> {
            if (!id.equals(replaced) && m.metadata != null) {
                members.put(id, m.metadata);
            }
        });
        members.put(memberId, meta);
        Map<String, Tasks> out = new TreeMap<>();
        if (!configured.isReady()) {
            members.keySet().forEach(id -> out.put(id, Tasks.EMPTY));
            return out;
        }
        if (assignor == null) {
            LOG.log(System.Logger.Level.WARNING, "no task assignor configured: streams group " + group.groupId + " gets no tasks");
            members.keySet().forEach(id -> out.put(id, Tasks.EMPTY));
            return out;
        }
        Map<String, TaskAssignor.MemberSpec> specs = new LinkedHashMap<>();
        members.forEach((id, m) -> {
            Tasks current = id.equals(memberId) && replaced != null ? group.target(replaced) : group.target(id);
            specs.put(id, new TaskAssignor.MemberSpec(m.instanceId(), m.rackId(), m.processId(), m.clientTags(),
                    current.active(), current.standby(), current.warmup()));
        });
        Map<String, Boolean> stateful = new HashMap<>();
        topology.subtopologies().forEach(s -> stateful.put(s.subtopologyId(), !s.stateChangelogTopics().isEmpty()));
        List<String> ids = new ArrayList<>(new TreeSet<>(configured.tasksPerSubtopology().keySet()));
        TaskAssignor.TopologyDescriber describer = new TaskAssignor.TopologyDescriber() {
            @Override
            public List<String> subtopologies() {
                return ids;
            }

            @Override
            public int maxNumInputPartitions(String subtopologyId) {
                return configured.tasksPerSubtopology().getOrDefault(subtopologyId, 0);
            }

            @Override
            public boolean isStateful(String subtopologyId) {
                return stateful.getOrDefault(subtopologyId, false);
            }
        };
        TaskAssignor.GroupAssignment result = assignor.assign(new TaskAssignor.GroupSpec(specs, assignmentConfigs), describer);
        for (String id : members.keySet()) {
            TaskAssignor.MemberAssignment a = result.members().getOrDefault(id, TaskAssignor.MemberAssignment.EMPTY);
            out.put(id, new Tasks(a.activeTasks(), a.standbyTasks(), a.warmupTasks()));
        }
        return out;
    }

    /** Every member's source partitions by user endpoint, for interactive queries (Kafka's EndpointToPartitionsManager). */
    private List<StreamsGroupHeartbeatResult.EndpointPartitions> endpoints(StreamsGroup group, String memberId,
            StreamsGroupRecord.Member meta, MemberAssignment next, StreamsTopology topology) {
        Map<String, List<String>> inputs = new HashMap<>();
        for (Subtopology s : topology.subtopologies()) {
            List<String> in = new ArrayList<>(ConfiguredTopology.sourceTopics(s, topics));
            s.repartitionSourceTopics().forEach(t -> in.add(t.name()));
            inputs.put(s.subtopologyId(), in);
        }
        Map<String, StreamsGroupRecord.Member> metas = new LinkedHashMap<>();
        Map<String, Tasks> assigned = new LinkedHashMap<>();
        group.members.forEach((id, m) -> {
            metas.put(id, m.metadata);
            assigned.put(id, m.assignment.assigned());
        });
        metas.put(memberId, meta);
        assigned.put(memberId, next.assigned());
        List<StreamsGroupHeartbeatResult.EndpointPartitions> out = new ArrayList<>();
        metas.forEach((id, m) -> {
            if (m == null || m.userEndpoint() == null) {
                return;
            }
            Tasks t = assigned.get(id);
            Set<String> standbySubtopologies = new TreeSet<>(t.standby().keySet());
            standbySubtopologies.addAll(t.warmup().keySet());
            Map<String, Set<Integer>> standby = new TreeMap<>();
            for (String s : standbySubtopologies) {
                Set<Integer> parts = new TreeSet<>(t.standby().getOrDefault(s, Set.of()));
                parts.addAll(t.warmup().getOrDefault(s, Set.of()));
                partitionsOf(inputs.getOrDefault(s, List.of()), parts, standby);
            }
            Map<String, Set<Integer>> active = new TreeMap<>();
            t.active().forEach((s, parts) -> partitionsOf(inputs.getOrDefault(s, List.of()), parts, active));
            out.add(new StreamsGroupHeartbeatResult.EndpointPartitions(m.userEndpoint(), active, standby));
        });
        return out;
    }

    /** A task's partitions of each input topic, as far as the topic has them. */
    private void partitionsOf(List<String> inputTopics, Set<Integer> tasks, Map<String, Set<Integer>> out) {
        for (String topic : inputTopics) {
            TopicCatalog.Topic t = topics.topic(topic);
            for (int p : tasks) {
                if (t == null || p < t.partitions()) {
                    out.computeIfAbsent(topic, x -> new TreeSet<>()).add(p);
                }
            }
        }
    }

    // ------------------------------------------------------------------ leaving and fencing

    private StreamsGroupHeartbeatResult leave(StreamsGroupHeartbeatRequest req) {
        String groupId = req.groupId();
        StreamsGroup group = groups.get(groupId);
        if (group == null) {
            throw new GroupException(ErrorCode.GROUP_ID_NOT_FOUND, classicGroups.containsKey(groupId) || otherGroupType.test(groupId)
                    ? "Group " + groupId + " is not a streams group." : "Streams group " + groupId + " not found.");
        }
        String memberId = req.memberId();
        StreamsGroupMember member = req.instanceId() == null ? group.member(memberId) : group.staticMember(req.instanceId());
        if (member == null) {
            throw new GroupException(ErrorCode.UNKNOWN_MEMBER_ID, req.instanceId() == null
                    ? "Member " + memberId + " is not a member of group " + groupId + "."
                    : "Instance id " + req.instanceId() + " is unknown.");
        }
        if (!member.memberId.equals(memberId)) {
            throw new GroupException(ErrorCode.FENCED_INSTANCE_ID, "Static member " + memberId + " with instance id "
                    + req.instanceId() + " was fenced by member " + member.memberId + ".");
        }
        if (req.memberEpoch() == StreamsGroupHeartbeatRequest.LEAVE_GROUP_STATIC_MEMBER_EPOCH) {
            // It keeps its place and tasks until its session times out: it is expected back.
            MemberAssignment a = member.assignment;
            writer.write(List.of(new StreamsGroupRecord.CurrentAssignment(groupId, memberId, new MemberAssignment(
                    StreamsGroupHeartbeatRequest.LEAVE_GROUP_STATIC_MEMBER_EPOCH, a.previousMemberEpoch(), a.state(),
                    a.assigned(), Tasks.EMPTY))), error -> {
                        if (error == ErrorCode.NONE) {
                            member.cancelRebalanceTimer();
                        }
                    });
        } else {
            fence(group, member, "it left the group", null);
        }
        return new StreamsGroupHeartbeatResult(ErrorCode.NONE, null, memberId, req.memberEpoch(), 0,
                StreamsGroupConfig.TASK_OFFSET_INTERVAL_MS, StreamsGroupConfig.ACCEPTABLE_RECOVERY_LAG, List.of(), null,
                group.endpointInformationEpoch, null, Map.of());
    }

    /** Removes the member and bumps the group epoch, so the others are given its tasks. */
    private void fence(StreamsGroup group, StreamsGroupMember member, String reason, Runnable onFailure) {
        String groupId = group.groupId;
        List<OffsetsRecord> records = new ArrayList<>(removalRecords(groupId, member.memberId));
        int epoch = group.groupEpoch + 1;
        records.add(new StreamsGroupRecord.Metadata(groupId, new StreamsGroupRecord.GroupEpoch(epoch, group.metadataHash,
                group.validatedTopologyEpoch, group.lastAssignmentConfigs)));
        writer.write(records, error -> {
            if (error == ErrorCode.NONE) {
                group.endpointInformationEpoch++;
                LOG.log(System.Logger.Level.INFO, "member " + member + " removed from streams group " + groupId + " because "
                        + reason + "; group epoch is now " + epoch);
            } else if (onFailure != null) {
                onFailure.run();
            }
        });
    }

    /** The tombstones that remove a member, in Kafka's order. */
    private static List<OffsetsRecord> removalRecords(String groupId, String memberId) {
        return List.of(new StreamsGroupRecord.CurrentAssignment(groupId, memberId, null),
                new StreamsGroupRecord.TargetAssignmentMember(groupId, memberId, null),
                new StreamsGroupRecord.MemberMetadata(groupId, memberId, null));
    }

    private void scheduleSessionTimeout(String groupId, StreamsGroupMember member) {
        if (member.sessionTimer != null) {
            member.sessionTimer.cancel();
        }
        String memberId = member.memberId;
        member.sessionTimer = scheduler.schedule(config.sessionTimeoutMs(groupId), () -> {
            StreamsGroup group = groups.get(groupId);
            StreamsGroupMember m = group == null ? null : group.member(memberId);
            if (m == null) {
                return;
            }
            m.sessionTimer = null;
            fence(group, m, "its session timed out", () -> scheduleSessionTimeout(groupId, m));
        });
    }

    /** A member still revoking at the same epoch after its rebalance timeout is fenced. */
    private void scheduleRebalanceTimeout(String groupId, StreamsGroupMember member) {
        member.cancelRebalanceTimer();
        String memberId = member.memberId;
        int epoch = member.memberEpoch();
        int timeoutMs = member.metadata != null && member.metadata.rebalanceTimeoutMs() > 0 ? member.metadata.rebalanceTimeoutMs()
                : config.sessionTimeoutMs(groupId);
        member.rebalanceTimer = scheduler.schedule(timeoutMs, () -> {
            StreamsGroup group = groups.get(groupId);
            StreamsGroupMember m = group == null ? null : group.member(memberId);
            if (m == null || m.memberEpoch() != epoch) {
                return;
            }
            m.rebalanceTimer = null;
            fence(group, m, "it did not revoke its tasks within " + timeoutMs + " ms", () -> { });
        });
    }

    // ------------------------------------------------------------------ loading and replay

    /** Applies one of its records: at load, and after each committed write. */
    void replay(StreamsGroupRecord record) {
        String groupId = record.groupId();
        if (record instanceof StreamsGroupRecord.Metadata r) {
            if (r.value() != null) {
                StreamsGroup g = getOrCreate(groupId);
                g.groupEpoch = r.value().epoch();
                g.metadataHash = r.value().metadataHash();
                g.validatedTopologyEpoch = r.value().validatedTopologyEpoch();
                g.lastAssignmentConfigs = r.value().lastAssignmentConfigs();
            } else {
                StreamsGroup g = groups.remove(groupId);
                if (g != null) {
                    g.members.values().forEach(StreamsGroupMember::cancelTimers);
                    if (!g.offsets.isEmpty()) {
                        // Offsets outlive the group's records (a simple group holds them), as in Kafka.
                        ClassicGroup simple = new ClassicGroup(groupId, scheduler.nowMs());
                        simple.offsets.putAll(g.offsets);
                        classicGroups.put(groupId, simple);
                    }
                }
            }
        } else if (record instanceof StreamsGroupRecord.Topology r) {
            if (r.value() != null) {
                getOrCreate(groupId).topology = r.value();
            } else if (groups.containsKey(groupId)) {
                groups.get(groupId).topology = null;
            }
        } else if (record instanceof StreamsGroupRecord.MemberMetadata r) {
            if (r.value() != null) {
                StreamsGroup g = getOrCreate(groupId);
                g.members.computeIfAbsent(r.memberId(), StreamsGroupMember::new).metadata = r.value();
            } else if (groups.containsKey(groupId)) {
                StreamsGroup g = groups.get(groupId);
                StreamsGroupMember m = g.members.remove(r.memberId());
                if (m != null) {
                    m.cancelTimers();
                }
                if (g.members.isEmpty()) {
                    g.shutdownRequested = false;
                }
            }
        } else if (record instanceof StreamsGroupRecord.TargetAssignmentMetadata r) {
            if (r.assignmentEpoch() != null) {
                getOrCreate(groupId).assignmentEpoch = r.assignmentEpoch();
            }
        } else if (record instanceof StreamsGroupRecord.TargetAssignmentMember r) {
            if (r.tasks() != null) {
                getOrCreate(groupId).targets.put(r.memberId(), r.tasks());
            } else if (groups.containsKey(groupId)) {
                groups.get(groupId).targets.remove(r.memberId());
            }
        } else if (record instanceof StreamsGroupRecord.CurrentAssignment r) {
            StreamsGroup g = r.value() != null ? getOrCreate(groupId) : groups.get(groupId);
            StreamsGroupMember m = g == null ? null : r.value() != null ? g.members.computeIfAbsent(r.memberId(), StreamsGroupMember::new)
                    : g.member(r.memberId());
            if (m != null) {
                m.replayAssignment(r.value() != null ? r.value() : MemberAssignment.INITIAL);
            }
        }
    }

    /** The group a record belongs to; a new one takes over the offsets of an empty classic group of that id. */
    private StreamsGroup getOrCreate(String groupId) {
        StreamsGroup g = groups.get(groupId);
        if (g == null) {
            g = new StreamsGroup(groupId);
            ClassicGroup classic = classicGroups.remove(groupId);
            if (classic != null) {
                g.offsets.putAll(classic.offsets);
            }
            groups.put(groupId, g);
        }
        return g;
    }

    /** The log has been replayed: every member gets a fresh session, and one still revoking its rebalance timeout. */
    void onLoaded() {
        for (StreamsGroup g : groups.values()) {
            if (g.topology != null) {
                configure(g, g.topology);
            }
            for (StreamsGroupMember m : g.members.values()) {
                scheduleSessionTimeout(g.groupId, m);
                if (m.state() == MemberState.UNREVOKED_PARTITIONS) {
                    scheduleRebalanceTimeout(g.groupId, m);
                }
            }
        }
    }

    /**
     * The topology against the topics that exist now, kept as the group's. A topology that cannot be configured
     * at all is logged once (when it first fails so), not on every heartbeat.
     */
    private ConfiguredTopology configure(StreamsGroup group, StreamsTopology topology) {
        ConfiguredTopology configured = ConfiguredTopology.configure(topology, topics);
        if (configured.configurationFailed() && (group.configured == null
                || !Objects.equals(group.configured.errorDetail(), configured.errorDetail()))) {
            LOG.log(System.Logger.Level.WARNING, "streams group " + group.groupId + ": " + configured.errorDetail()
                    + "; no tasks are assigned until the group is deleted or its topology replaced");
        }
        group.configured = configured;
        return configured;
    }

    /** Unloaded: stop timers. */
    void close() {
        groups.values().forEach(g -> g.members.values().forEach(StreamsGroupMember::cancelTimers));
        groups.clear();
    }

    // ------------------------------------------------------------------ offsets

    /**
     * Who may commit to a streams group (Kafka 4.4's StreamsGroup.validateOffsetCommit): anyone with a negative
     * epoch while it is empty (admin tools, reset); otherwise a member at its current epoch, or at an older epoch
     * for partitions whose task it holds or is revoking as active and was assigned at or before that epoch
     * (createAssignmentEpochValidator); anything else is STALE_MEMBER_EPOCH, so a member that lost a task cannot
     * overwrite its new owner's offsets. OffsetCommit before v9 is UNSUPPORTED_VERSION, as for consumer groups.
     * Returns the per-partition check.
     *
     * @throws GroupException with the error for every partition
     */
    java.util.function.Function<io.odradek.coordinator.offsets.TopicPartition, ErrorCode> validateOffsetCommit(StreamsGroup group,
            String memberId, int epoch, short apiVersion) {
        if (epoch < 0 && group.isEmpty()) {
            return tp -> ErrorCode.NONE;
        }
        StreamsGroupMember member = group.member(memberId);
        if (member == null) {
            throw new GroupException(ErrorCode.UNKNOWN_MEMBER_ID, "Member " + memberId + " is not a member of group " + group.groupId + ".");
        }
        if (apiVersion < 9) {
            throw new GroupException(ErrorCode.UNSUPPORTED_VERSION,
                    "OffsetCommit version 9 or above must be used by members using the streams group protocol");
        }
        if (epoch == member.memberEpoch()) {
            return tp -> ErrorCode.NONE;
        }
        if (epoch > member.memberEpoch()) {
            throw new GroupException(ErrorCode.STALE_MEMBER_EPOCH, "Received member epoch " + epoch
                    + " is newer than current member epoch " + member.memberEpoch() + ".");
        }
        StreamsTopology topology = group.topology;
        return tp -> {
            String subtopology = topology == null ? null : subtopologyReading(topology, tp.topic());
            if (subtopology == null) {
                return ErrorCode.STALE_MEMBER_EPOCH; // Kafka: "Topic %s is not in the topology."
            }
            Integer assignedAt = member.activeTaskEpoch(subtopology, tp.partition());
            // Kafka: "Task %s-%d is not assigned or pending revocation for member." / "... older than assignment epoch"
            return assignedAt == null || epoch < assignedAt ? ErrorCode.STALE_MEMBER_EPOCH : ErrorCode.NONE;
        };
    }

    /** The subtopology whose tasks read the topic (a source, a regex match or a repartition source), or null. */
    private String subtopologyReading(StreamsTopology topology, String topic) {
        for (Subtopology s : topology.subtopologies()) {
            if (ConfiguredTopology.sourceTopics(s, topics).contains(topic)
                    || s.repartitionSourceTopics().stream().anyMatch(t -> t.name().equals(topic))) {
                return s.subtopologyId();
            }
        }
        return null;
    }

    /** OffsetFetch v9+ from a member: it must be one, at its current epoch; null id and -1 is anyone. */
    static ErrorCode validateOffsetFetch(StreamsGroup group, String memberId, int epoch) {
        if (memberId == null && epoch < 0) {
            return ErrorCode.NONE;
        }
        StreamsGroupMember member = group.member(memberId);
        if (member == null) {
            return ErrorCode.UNKNOWN_MEMBER_ID;
        }
        return epoch == member.memberEpoch() ? ErrorCode.NONE : ErrorCode.STALE_MEMBER_EPOCH;
    }

    /** Whether the topology reads the topic while the group has members: its offsets neither expire nor may be deleted. */
    boolean isSubscribedToTopic(StreamsGroup group, String topic) {
        if (group.isEmpty() || group.topology == null) {
            return false;
        }
        for (Subtopology s : group.topology.subtopologies()) {
            if (ConfiguredTopology.sourceTopics(s, topics).contains(topic)
                    || s.repartitionSourceTopics().stream().anyMatch(t -> t.name().equals(topic))) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ administration

    /** The records that delete an empty group (its offsets' tombstones come first, from the caller). */
    static List<OffsetsRecord> deletionRecords(StreamsGroup group) {
        List<OffsetsRecord> out = new ArrayList<>();
        for (String memberId : group.members.keySet()) {
            out.addAll(removalRecords(group.groupId, memberId));
        }
        out.add(new StreamsGroupRecord.TargetAssignmentMetadata(group.groupId, null));
        out.add(new StreamsGroupRecord.Topology(group.groupId, null));
        out.add(new StreamsGroupRecord.Metadata(group.groupId, null));
        return out;
    }

    List<GroupOverview> listGroups(Set<String> statesFilter, Set<String> typesFilter) {
        List<GroupOverview> out = new ArrayList<>();
        if (!typesFilter.isEmpty() && !typesFilter.contains("streams")) {
            return out;
        }
        for (StreamsGroup g : groups.values()) {
            String state = g.state();
            if (statesFilter.isEmpty() || statesFilter.contains(state.toLowerCase(java.util.Locale.ROOT))) {
                out.add(new GroupOverview(g.groupId, PROTOCOL_TYPE, state, "streams"));
            }
        }
        return out;
    }

    StreamsGroupDescription describe(String groupId) {
        StreamsGroup g = group(groupId);
        if (g == null) {
            boolean other = groupId != null && (classicGroups.containsKey(groupId) || otherGroupType.test(groupId));
            return StreamsGroupDescription.error(groupId, ErrorCode.GROUP_ID_NOT_FOUND,
                    "Group " + groupId + (other ? " is not a streams group." : " not found."));
        }
        if (g.topology != null && g.configured == null) {
            configure(g, g.topology);
        }
        Map<String, Set<String>> sources = new LinkedHashMap<>();
        if (g.topology != null) {
            g.topology.subtopologies().forEach(s -> sources.put(s.subtopologyId(), ConfiguredTopology.sourceTopics(s, topics)));
        }
        List<StreamsGroupDescription.Member> members = new ArrayList<>();
        for (StreamsGroupMember m : g.members.values()) {
            members.add(new StreamsGroupDescription.Member(m.memberId, m.memberEpoch(), m.metadata, m.assignment.assigned(),
                    g.target(m.memberId), false));
        }
        // As Kafka: once the topics are ready, the topology with the partition counts of its internal topics.
        StreamsTopology topology = g.topology;
        if (topology != null && g.configured.isReady()) {
            Map<String, Integer> counts = g.configured.internalTopicPartitions();
            List<Subtopology> configured = new ArrayList<>();
            for (Subtopology s : topology.subtopologies()) {
                configured.add(new Subtopology(s.subtopologyId(), s.sourceTopics(), s.sourceTopicRegex(),
                        withPartitions(s.stateChangelogTopics(), counts), s.repartitionSinkTopics(),
                        withPartitions(s.repartitionSourceTopics(), counts), s.copartitionGroups()));
            }
            topology = new StreamsTopology(topology.epoch(), configured);
        }
        return new StreamsGroupDescription(groupId, ErrorCode.NONE, null, g.state(), g.groupEpoch, g.assignmentEpoch,
                topology, sources, members);
    }

    private static List<TopicInfo> withPartitions(List<TopicInfo> topics, Map<String, Integer> counts) {
        List<TopicInfo> out = new ArrayList<>();
        topics.forEach(t -> out.add(new TopicInfo(t.name(), counts.getOrDefault(t.name(), t.partitions()), t.replicationFactor(),
                t.configs())));
        return out;
    }

    @Override
    public String toString() {
        return "streams groups of " + OffsetsTopic.NAME + "-" + partition;
    }

    private static void requireNotBlank(String value, String message) {
        if (value != null && value.trim().isEmpty()) {
            throw invalid(message);
        }
    }

    private static GroupException invalid(String message) {
        return new GroupException(ErrorCode.INVALID_REQUEST, message);
    }
}
