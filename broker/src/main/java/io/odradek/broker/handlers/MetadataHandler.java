package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.topics.TopicService;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.replication.metadata.TopicNames;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.MetadataApi;
import io.odradek.wire.api.MetadataApi.Request.MetadataRequestTopic;
import io.odradek.wire.api.MetadataApi.Response;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseBroker;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseTopic;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseTopic.MetadataResponsePartition;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Metadata (key 3), versions 0-13, answered from the {@link ClusterView}'s image, as Kafka's KRaft metadata
 * cache answers.
 * <ul>
 * <li>Brokers: every registered, unfenced broker with an endpoint on the listener the request came on (host, port,
 *     rack v1+). On a single node that is us: node id, advertised host and the port clients reach (the
 *     bound one when the listener is on port 0).</li>
 * <li>Controller id (v1+): as Kafka's brokers, which never expose the quorum to clients, a live broker:
 *     this one (admin requests sent to it reach the controller through it); the lowest live broker id when
 *     this broker is fenced; -1 when none is live.</li>
 * <li>Partitions: leader, leader epoch (v7+), replicas and ISR from the image; offline replicas (v5+) are
 *     those on fenced or unregistered brokers, and our own when its log dir went offline (an I/O error).
 *     A partition whose leader has no live endpoint is LEADER_NOT_AVAILABLE with leader -1
 *     (v6+: LISTENER_NOT_FOUND when the leader is live but lacks that listener). v0, as Kafka's
 *     errorUnavailableEndpoints, lists only the replicas and ISR clients can reach, and a partition with a
 *     live leader but a replica left out is REPLICA_NOT_AVAILABLE (v1+ lists them all). So a single node leads
 *     every partition with epoch 0, replicas and ISR [us]; a partition in an offline log dir is reported as
 *     Kafka 4 does once its only replica is lost: LEADER_NOT_AVAILABLE, leader -1, offline replicas [us];
 *     produce and fetch on it answer KAFKA_STORAGE_ERROR.</li>
 * <li>Topics: null = all (v1+); v0 uses an empty list for all; otherwise empty = none.</li>
 * <li>A requested topic that does not exist is created with {@code num.partitions} when
 *     {@code auto.create.topics.enable} and the request allows it (always before v4), and returned with
 *     NONE since creation here waits until the topic is in the image (Kafka answers LEADER_NOT_AVAILABLE and
 *     the client retries). Otherwise UNKNOWN_TOPIC_OR_PARTITION, or INVALID_TOPIC_EXCEPTION for an illegal
 *     name. Internal topics are never auto-created here; their owners create them. Auto-creation obeys the
 *     partition limits of CreateTopics: a refusal is the topic's error (POLICY_VIOLATION).</li>
 * <li>Topic ids: in requests only from v12, as in Kafka 4 (v10-11 with an id or a null name fail the
 *     whole request with INVALID_REQUEST). When ids are given, names are ignored and an unknown id
 *     answers UNKNOWN_TOPIC_ID; ids are never auto-created.</li>
 * <li>Authorization (issue 10), as Kafka 4.4's KafkaApis.handleTopicMetadataRequest: a topic the client may
 *     not DESCRIBE is left out of an all-topics answer; asked for by name it is TOPIC_AUTHORIZATION_FAILED
 *     with a zero id (whether it exists is not disclosed), by id TOPIC_AUTHORIZATION_FAILED with its id and a
 *     null name (ids are not secret). A missing topic that would be auto-created needs CREATE on the cluster
 *     or on the topic, else it is TOPIC_AUTHORIZATION_FAILED and is not created.</li>
 * <li>Authorized operations (v8+, only when asked; else the schema's "not requested" value): a topic's from
 *     the authorizer for every topic the client may describe, a missing one too (all when there is none); the cluster's (v8-10) 0 without DESCRIBE
 *     on the cluster, as Kafka.</li>
 * </ul>
 * Only a request that creates topics leaves the event loop (for the metadata thread).
 */
public final class MetadataHandler implements ApiHandler {
    static final int ALL_TOPIC_OPERATIONS = AuthorizedOperations.ALL_TOPIC_OPERATIONS;
    static final int ALL_CLUSTER_OPERATIONS = AuthorizedOperations.ALL_CLUSTER_OPERATIONS;
    private static final UUID ZERO_ID = new UUID(0, 0);
    /** Before v6 a leader without the request's listener is LEADER_NOT_AVAILABLE, as in Kafka. */
    private static final short FIRST_LISTENER_NOT_FOUND_VERSION = 6;

    private final TopicService topics;
    private final ClusterView cluster;

    public MetadataHandler(TopicService topics, ClusterView cluster) {
        this.topics = topics;
        this.cluster = cluster;
    }

    @Override
    public ApiSpec api() {
        return MetadataApi.SPEC;
    }

    /** One requested topic: by name, or by id (v12+). */
    private record Wanted(String name, UUID id) {
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        short version = context.version();
        List<Struct> requested = request.get(MetadataApi.Request.TOPICS);
        boolean allTopics = requested == null || (version == 0 && requested.isEmpty());
        List<Wanted> wanted = new ArrayList<>();
        if (!allTopics) {
            for (Struct t : requested) {
                UUID id = t.get(MetadataRequestTopic.TOPIC_ID);
                wanted.add(new Wanted(t.get(MetadataRequestTopic.NAME), id == null ? ZERO_ID : id));
            }
            if (version < 12 && wanted.stream().anyMatch(w -> w.name == null || !w.id.equals(ZERO_ID))) {
                return CompletableFuture.completedFuture(invalidRequest(wanted));
            }
        }
        boolean byId = wanted.stream().anyMatch(w -> !w.id.equals(ZERO_ID));
        boolean allowAutoCreate = topics.settings().autoCreateTopicsEnable() && !allTopics && !byId
                && (version < 4 || request.get(MetadataApi.Request.ALLOW_AUTO_TOPIC_CREATION));
        boolean topicOps = version >= 8 && request.get(MetadataApi.Request.INCLUDE_TOPIC_AUTHORIZED_OPERATIONS);
        boolean clusterOps = version >= 8 && version <= 10
                && request.get(MetadataApi.Request.INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS);

        ClusterImage image = cluster.image();
        Access access = new Access(context);
        boolean mustCreate = allowAutoCreate && wanted.stream().anyMatch(w -> image.topic(w.name).isEmpty()
                && creatable(w.name) && access.describe.allowed(w.name) && access.mayCreate(w.name));
        if (mustCreate) {
            return topics.async(() -> response(version, allTopics, byId, wanted, allowAutoCreate, true, topicOps,
                    clusterOps, access));
        }
        return CompletableFuture.completedFuture(response(version, allTopics, byId, wanted, allowAutoCreate, false,
                topicOps, clusterOps, access));
    }

    private Struct response(short version, boolean allTopics, boolean byId, List<Wanted> wanted,
                            boolean allowAutoCreate, boolean autoCreate, boolean topicOps, boolean clusterOps,
                            Access access) {
        String listener = access.context.session().listenerName();
        ClusterImage image = cluster.image();
        Struct response = Response.SCHEMA.newStruct()
                .set(Response.CLUSTER_ID, clusterId(topics, image))
                .set(Response.CONTROLLER_ID, controllerId(cluster, image))
                .set(Response.ERROR_CODE, ErrorCode.NONE.code());
        for (BrokerRegistration b : image.brokers().values()) {
            Endpoint endpoint = PartitionStates.aliveEndpoint(image, b.id(), listener);
            if (endpoint != null) {
                response.add(Response.BROKERS)
                        .set(MetadataResponseBroker.NODE_ID, b.id())
                        .set(MetadataResponseBroker.HOST, endpoint.host())
                        .set(MetadataResponseBroker.PORT, endpoint.port())
                        .set(MetadataResponseBroker.RACK, b.rack());
            }
        }
        if (clusterOps) {
            response.set(Response.CLUSTER_AUTHORIZED_OPERATIONS, AuthorizedOperations.cluster(access.context));
        }
        if (allTopics) {
            for (TopicImage t : image.topics().values()) {
                if (access.describe.allowed(t.name())) { // the others are left out, as Kafka
                    addTopic(response, image, t, topicOps, version, access);
                }
            }
        } else if (byId) {
            Set<UUID> ids = new LinkedHashSet<>();
            wanted.forEach(w -> ids.add(w.id));
            ids.remove(ZERO_ID);
            for (UUID id : ids) {
                TopicImage t = image.topic(id).orElse(null);
                if (t != null && !access.describe.allowed(t.name())) {
                    // Ids are not secret: Kafka names the id, but not the topic.
                    unauthorized(response, null, id);
                } else if (t != null) {
                    addTopic(response, image, t, topicOps, version, access);
                } else {
                    response.add(Response.TOPICS).set(MetadataResponseTopic.ERROR_CODE, ErrorCode.UNKNOWN_TOPIC_ID.code())
                            .set(MetadataResponseTopic.NAME, null).set(MetadataResponseTopic.TOPIC_ID, id);
                }
            }
        } else {
            Set<String> names = new LinkedHashSet<>();
            wanted.forEach(w -> names.add(w.name));
            ClusterImage current = image;
            for (String name : names) {
                if (!access.describe.allowed(name)) {
                    unauthorized(response, name, ZERO_ID); // whether it exists is not disclosed
                    continue;
                }
                TopicImage t = current.topic(name).orElse(null);
                ErrorCode error = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
                if (t == null && allowAutoCreate && !access.mayCreate(name)) {
                    unauthorized(response, name, ZERO_ID).set(MetadataResponseTopic.IS_INTERNAL,
                            TopicNames.isInternal(name));
                    continue;
                }
                if (t == null && !TopicNames.isValid(name)) {
                    error = ErrorCode.INVALID_TOPIC_EXCEPTION;
                } else if (t == null && autoCreate && creatable(name)) {
                    try {
                        topics.createTopic(name, topics.settings().numPartitions(), Map.of(), false);
                    } catch (MetadataException e) {
                        // Lost a race with another creator, or a '.'/'_' collision.
                        error = e.error() == ErrorCode.TOPIC_ALREADY_EXISTS ? error : e.error();
                    }
                    current = cluster.image();
                    t = current.topic(name).orElse(null);
                }
                if (t != null) {
                    addTopic(response, current, t, topicOps, version, access);
                } else {
                    Struct missing = response.add(Response.TOPICS).set(MetadataResponseTopic.ERROR_CODE, error.code())
                            .set(MetadataResponseTopic.NAME, name)
                            .set(MetadataResponseTopic.TOPIC_ID, ZERO_ID)
                            .set(MetadataResponseTopic.IS_INTERNAL, TopicNames.isInternal(name));
                    if (topicOps) { // Kafka fills them for every topic it may describe, existing or not
                        missing.set(MetadataResponseTopic.TOPIC_AUTHORIZED_OPERATIONS,
                                AuthorizedOperations.topic(access.context, name));
                    }
                }
            }
        }
        return response;
    }

    private static boolean creatable(String name) {
        return TopicNames.isValid(name) && !TopicNames.isReservedForBroker(name);
    }

    /**
     * As Kafka's brokers: a live broker, since clients cannot reach the quorum; this one when it is live
     * (so a single node names itself).
     */
    static int controllerId(ClusterView cluster, ClusterImage image) {
        if (image.isActive(cluster.localBrokerId())) {
            return cluster.localBrokerId();
        }
        return image.brokers().values().stream().filter(b -> !b.fenced()).mapToInt(BrokerRegistration::id)
                .findFirst().orElse(-1);
    }

    /** The image's cluster id; the local one until the first image carries it. */
    static String clusterId(TopicService topics, ClusterImage image) {
        return image.clusterId() != null ? image.clusterId() : topics.clusterId();
    }

    /** The brokers among {@code ids} that clients can reach on our listener, in order. */
    private static List<Integer> reachable(ClusterImage image, List<Integer> ids, String listener) {
        List<Integer> out = new ArrayList<>(ids.size());
        for (int id : ids) {
            if (PartitionStates.aliveEndpoint(image, id, listener) != null) {
                out.add(id);
            }
        }
        return out;
    }

    private static Struct unauthorized(Struct response, String name, UUID id) {
        return response.add(Response.TOPICS).set(MetadataResponseTopic.ERROR_CODE,
                        ErrorCode.TOPIC_AUTHORIZATION_FAILED.code())
                .set(MetadataResponseTopic.NAME, name)
                .set(MetadataResponseTopic.TOPIC_ID, id)
                .set(MetadataResponseTopic.IS_INTERNAL, false);
    }

    private void addTopic(Struct response, ClusterImage image, TopicImage t, boolean topicOps, short version,
                          Access access) {
        String listener = access.context.session().listenerName();
        Struct topic = response.add(Response.TOPICS)
                .set(MetadataResponseTopic.ERROR_CODE, ErrorCode.NONE.code())
                .set(MetadataResponseTopic.NAME, t.name())
                .set(MetadataResponseTopic.TOPIC_ID, t.id())
                .set(MetadataResponseTopic.IS_INTERNAL, TopicNames.isInternal(t.name()));
        if (topicOps) {
            topic.set(MetadataResponseTopic.TOPIC_AUTHORIZED_OPERATIONS,
                    AuthorizedOperations.topic(access.context, t.name()));
        }
        for (int p = 0; p < t.partitions().size(); p++) {
            PartitionRegistration reg = t.partitions().get(p);
            ErrorCode error = ErrorCode.NONE;
            int leader = reg.leader();
            // v0 lists only reachable replicas and says so with REPLICA_NOT_AVAILABLE (Kafka's errorUnavailableEndpoints).
            List<Integer> replicas = version == 0 ? reachable(image, reg.replicas(), listener) : reg.replicas();
            List<Integer> isr = version == 0 ? reachable(image, reg.isr(), listener) : reg.isr();
            if (PartitionStates.aliveEndpoint(image, leader, listener) == null) {
                error = image.isActive(leader) && version >= FIRST_LISTENER_NOT_FOUND_VERSION
                        ? ErrorCode.LISTENER_NOT_FOUND : ErrorCode.LEADER_NOT_AVAILABLE;
                leader = PartitionRegistration.NO_LEADER;
            } else if (replicas.size() < reg.replicas().size() || isr.size() < reg.isr().size()) {
                error = ErrorCode.REPLICA_NOT_AVAILABLE;
            }
            topic.add(MetadataResponseTopic.PARTITIONS)
                    .set(MetadataResponsePartition.ERROR_CODE, error.code())
                    .set(MetadataResponsePartition.PARTITION_INDEX, p)
                    .set(MetadataResponsePartition.LEADER_ID, leader)
                    .set(MetadataResponsePartition.LEADER_EPOCH, reg.leaderEpoch())
                    .set(MetadataResponsePartition.REPLICA_NODES, replicas)
                    .set(MetadataResponsePartition.ISR_NODES, isr)
                    .set(MetadataResponsePartition.OFFLINE_REPLICAS,
                            cluster.offlineReplicas(image, t.name(), reg, p));
        }
    }

    /** Kafka's error response to a malformed request: every requested topic with the error, nothing else. */
    private static Struct invalidRequest(List<Wanted> wanted) {
        Struct response = Response.SCHEMA.newStruct().set(Response.CLUSTER_ID, null);
        for (Wanted w : wanted) {
            response.add(Response.TOPICS).set(MetadataResponseTopic.ERROR_CODE, ErrorCode.INVALID_REQUEST.code())
                    .set(MetadataResponseTopic.NAME, w.name == null ? "" : w.name)
                    .set(MetadataResponseTopic.TOPIC_ID, w.id);
        }
        return response;
    }

    /**
     * Issue 10: what the client may see (DESCRIBE on the topic) and auto-create (CREATE on the cluster, asked
     * once, or on the topic), each asked once per request; everything without an authorizer.
     */
    private static final class Access {
        final RequestContext context;
        final TopicAccess describe;
        final TopicAccess create;
        private Boolean clusterCreate;

        Access(RequestContext context) {
            this.context = context;
            this.describe = TopicAccess.of(context, AclOperation.DESCRIBE);
            this.create = TopicAccess.of(context, AclOperation.CREATE);
        }

        boolean mayCreate(String topic) {
            if (create.allowsEverything()) {
                return true;
            }
            if (clusterCreate == null) {
                clusterCreate = context.session().authorizedOnCluster(AclOperation.CREATE);
            }
            return clusterCreate || create.allowed(topic);
        }
    }
}
