package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.ConfigDescriber;
import io.odradek.broker.topics.TopicService;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.replication.metadata.TopicNames;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.CreateTopicsApi;
import io.odradek.wire.api.CreateTopicsApi.Request.CreatableTopic;
import io.odradek.wire.api.CreateTopicsApi.Request.CreatableTopic.CreatableReplicaAssignment;
import io.odradek.wire.api.CreateTopicsApi.Request.CreatableTopic.CreatableTopicConfig;
import io.odradek.wire.api.CreateTopicsApi.Response;
import io.odradek.wire.api.CreateTopicsApi.Response.CreatableTopicResult;
import io.odradek.wire.api.CreateTopicsApi.Response.CreatableTopicResult.CreatableTopicConfigs;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * CreateTopics (key 19), versions 0-7 (v0 has no validate_only and always creates; v0 results carry no error
 * message; v2+ the throttle time: the old versions Kafka 4 dropped, served as Kafka 3.9 did, alike
 * otherwise). Checks run in Kafka's controller order: a name used twice in the
 * request (INVALID_REQUEST, one result) and a name only the broker may create (INVALID_REQUEST, "Creation
 * of internal topic X is prohibited.": Kafka says so for __cluster_metadata; we also reserve
 * __consumer_offsets, __transaction_state and __share_group_state, which Kafka lets an admin create with
 * layouts its coordinators then have to live with). Then the whole request: more than 10,000 partitions in
 * total (Kafka's MAX_RECORDS_PER_USER_OP; -1 counts as num.partitions) refuses every remaining topic with
 * POLICY_VIOLATION "Excessively large number of partitions per request.". Then each topic on its own:
 * the name (INVALID_TOPIC_EXCEPTION,
 * also for a '.'/'_' collision), TOPIC_ALREADY_EXISTS, configs (INVALID_CONFIG: null value, unknown
 * key, bad value), then the layout: manual assignments need partitions and replication factor -1 and
 * may name only this broker; otherwise -1 means the broker default, 0 or below -1 is
 * INVALID_PARTITIONS / INVALID_REPLICATION_FACTOR, and a factor above 1 cannot be met on one broker.
 * In a cluster (process.roles) the factor and assignments go to the controller, which places the replicas
 * and refuses what its registered brokers cannot meet; the answer waits until this broker has the topic.
 * validate_only runs every check and creates nothing. v5+ results carry partitions, replication factor
 * and the topic's effective configs; v7+ the topic id. The timeout is not needed: creation finishes
 * before we answer. Runs on the metadata thread (creating a topic syncs the catalog and makes dirs).
 *
 * <p>Authorization (issue 10), as Kafka 4.4's ControllerApis.createTopics: after the duplicate and reserved-name
 * checks, a topic needs CREATE on the cluster or on the topic, else TOPIC_AUTHORIZATION_FAILED "Authorization
 * failed." (and it does not count toward the partitions-per-request limit). A created topic's configs,
 * partitions and replication factor are returned only with DESCRIBE_CONFIGS on the topic; without it the
 * result has none of them (-1) and topic_config_error_code TOPIC_AUTHORIZATION_FAILED.
 */
public final class CreateTopicsHandler implements ApiHandler {
    private final TopicService topics;
    private final ConfigDescriber configs;

    public CreateTopicsHandler(TopicService topics, ConfigDescriber configs) {
        this.topics = topics;
        this.configs = configs;
    }

    @Override
    public ApiSpec api() {
        return CreateTopicsApi.SPEC;
    }

    /** A requested topic, copied out of the request struct before leaving the event loop. */
    private record NewTopic(String name, int numPartitions, short replicationFactor,
                            Map<Integer, List<Integer>> assignments, List<Integer> assignmentOrder,
                            Map<String, String> configs, boolean authorized, boolean configsVisible) {
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        boolean validateOnly = request.get(CreateTopicsApi.Request.VALIDATE_ONLY);
        List<NewTopic> wanted = new ArrayList<>();
        Map<String, Integer> counts = new HashMap<>();
        // Asked here, on the request's thread: CREATE on the cluster covers every topic.
        TopicAccess creatable = TopicAccess.of(context, AclOperation.CREATE);
        TopicAccess configsVisible = TopicAccess.of(context, AclOperation.DESCRIBE_CONFIGS);
        boolean clusterCreate = creatable.allowsEverything()
                || context.session().authorizedOnCluster(AclOperation.CREATE);
        for (Struct t : request.get(CreateTopicsApi.Request.TOPICS)) {
            Map<Integer, List<Integer>> assignments = new LinkedHashMap<>();
            List<Integer> order = new ArrayList<>();
            for (Struct a : t.get(CreatableTopic.ASSIGNMENTS)) {
                order.add(a.get(CreatableReplicaAssignment.PARTITION_INDEX));
                assignments.put(a.get(CreatableReplicaAssignment.PARTITION_INDEX),
                        List.copyOf(a.get(CreatableReplicaAssignment.BROKER_IDS)));
            }
            Map<String, String> topicConfigs = new LinkedHashMap<>();
            for (Struct c : t.get(CreatableTopic.CONFIGS)) {
                topicConfigs.put(c.get(CreatableTopicConfig.NAME), c.get(CreatableTopicConfig.VALUE));
            }
            String name = t.get(CreatableTopic.NAME);
            counts.merge(name, 1, Integer::sum);
            wanted.add(new NewTopic(name, t.get(CreatableTopic.NUM_PARTITIONS),
                    t.get(CreatableTopic.REPLICATION_FACTOR), assignments, order, topicConfigs,
                    clusterCreate || creatable.allowed(name), configsVisible.allowed(name)));
        }
        return topics.async(() -> {
            Struct response = Response.SCHEMA.newStruct();
            Set<String> answered = new HashSet<>();
            List<NewTopic> valid = new ArrayList<>();
            for (NewTopic t : wanted) {
                if (counts.get(t.name) > 1) {
                    if (!answered.contains(t.name)) {
                        answered.add(t.name);
                        error(response, t.name, ErrorCode.INVALID_REQUEST, "Duplicate topic name.");
                    }
                } else if (TopicNames.isReservedForBroker(t.name)) {
                    error(response, t.name, ErrorCode.INVALID_REQUEST,
                            "Creation of internal topic " + t.name + " is prohibited.");
                } else if (!t.authorized) {
                    error(response, t.name, ErrorCode.TOPIC_AUTHORIZATION_FAILED, "Authorization failed.");
                } else {
                    valid.add(t);
                }
            }
            try {
                TopicService.checkPartitionsPerRequest(requestedPartitions(valid));
            } catch (MetadataException e) {
                valid.forEach(t -> error(response, t.name, e.error(), e.getMessage()));
                return response;
            }
            for (NewTopic t : valid) {
                try {
                    TopicInfo created = create(t, validateOnly);
                    success(response, created, t.configsVisible);
                } catch (MetadataException e) {
                    error(response, t.name, e.error(), e.getMessage());
                }
            }
            return response;
        });
    }

    /** Kafka's count for the per-request limit: assignments, else the count, -1 as num.partitions. */
    private long requestedPartitions(List<NewTopic> wanted) {
        long total = 0;
        for (NewTopic t : wanted) {
            if (!t.assignments.isEmpty()) {
                total += t.assignments.size();
            } else if (t.numPartitions == -1) {
                total += topics.settings().numPartitions();
            } else if (t.numPartitions > 0) {
                total += t.numPartitions;
            }
        }
        return total;
    }

    private TopicInfo create(NewTopic t, boolean validateOnly) {
        topics.checkCreatable(t.name);
        List<String> nullConfigs = t.configs.entrySet().stream().filter(e -> e.getValue() == null)
                .map(Map.Entry::getKey).toList();
        if (!nullConfigs.isEmpty()) {
            throw new MetadataException(ErrorCode.INVALID_CONFIG,
                    "Null value not supported for topic configs: " + String.join(",", nullConfigs));
        }
        topics.validateConfigs(t.configs);
        int partitions = t.assignments.isEmpty() ? partitionsFromCounts(t) : partitionsFromAssignments(t);
        // In a cluster the controller places replicas and checks the factor and assignments against its brokers.
        return topics.createTopic(t.name, partitions, t.replicationFactor, t.assignments, t.configs, validateOnly);
    }

    private int partitionsFromCounts(NewTopic t) {
        int nodes = 1;
        if (t.replicationFactor < -1 || t.replicationFactor == 0) {
            throw new MetadataException(ErrorCode.INVALID_REPLICATION_FACTOR,
                    "Replication factor must be larger than 0, or -1 to use the default value.");
        }
        if (t.numPartitions < -1 || t.numPartitions == 0) {
            throw new MetadataException(ErrorCode.INVALID_PARTITIONS,
                    "Number of partitions was set to an invalid non-positive value.");
        }
        short factor = t.replicationFactor == -1 ? topics.settings().defaultReplicationFactor() : t.replicationFactor;
        if (factor > nodes && !topics.isClusterMode()) {
            throw new MetadataException(ErrorCode.INVALID_REPLICATION_FACTOR, "Unable to replicate the partition "
                    + factor + " time(s): The target replication factor of " + factor
                    + " cannot be reached because only " + nodes + " broker(s) are registered.");
        }
        return t.numPartitions == -1 ? topics.settings().numPartitions() : t.numPartitions;
    }

    private int partitionsFromAssignments(NewTopic t) {
        if (t.replicationFactor != -1) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST,
                    "A manual partition assignment was specified, but replication factor was not set to -1.");
        }
        if (t.numPartitions != -1) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST,
                    "A manual partition assignment was specified, but numPartitions was not set to -1.");
        }
        if (t.assignmentOrder.size() != t.assignments.size()) {
            Integer dup = t.assignmentOrder.stream().filter(p -> t.assignmentOrder.indexOf(p)
                    != t.assignmentOrder.lastIndexOf(p)).findFirst().orElseThrow();
            throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                    "Found multiple manual partition assignments for partition " + dup);
        }
        int us = topics.nodeId();
        for (List<Integer> replicas : topics.isClusterMode() ? List.<List<Integer>>of() : t.assignments.values()) {
            if (replicas.isEmpty()) {
                throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes an empty replica list.");
            }
            for (int broker : new TreeSet<>(replicas)) {
                if (broker != us) {
                    throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "The manual partition "
                            + "assignment includes broker " + broker + ", but no such broker is registered.");
                }
            }
            if (replicas.size() > 1) {
                throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes the broker " + us + " more than once.");
            }
        }
        for (int p = 0; p < t.assignments.size(); p++) {
            if (!t.assignments.containsKey(p)) {
                throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        "partitions should be a consecutive 0-based integer sequence");
            }
        }
        return t.assignments.size();
    }

    private void success(Struct response, TopicInfo topic, boolean configsVisible) {
        Struct result = response.add(Response.TOPICS)
                .set(CreatableTopicResult.NAME, topic.name())
                .set(CreatableTopicResult.TOPIC_ID, topic.id())
                .set(CreatableTopicResult.ERROR_CODE, ErrorCode.NONE.code())
                .set(CreatableTopicResult.ERROR_MESSAGE, null);
        if (!configsVisible) {
            result.set(CreatableTopicResult.TOPIC_CONFIG_ERROR_CODE, ErrorCode.TOPIC_AUTHORIZATION_FAILED.code());
            return;
        }
        result.set(CreatableTopicResult.NUM_PARTITIONS, topic.partitions())
                .set(CreatableTopicResult.REPLICATION_FACTOR, topics.replicationFactor(topic));
        for (ConfigDescriber.Entry e : configs.describeTopic(topic, topics.effectiveConfig(topic))) {
            result.add(CreatableTopicResult.CONFIGS)
                    .set(CreatableTopicConfigs.NAME, e.name())
                    .set(CreatableTopicConfigs.VALUE, e.value())
                    .set(CreatableTopicConfigs.READ_ONLY, e.readOnly())
                    .set(CreatableTopicConfigs.CONFIG_SOURCE, e.source())
                    .set(CreatableTopicConfigs.IS_SENSITIVE, e.sensitive());
        }
    }

    private static void error(Struct response, String name, ErrorCode error, String message) {
        response.add(Response.TOPICS)
                .set(CreatableTopicResult.NAME, name)
                .set(CreatableTopicResult.ERROR_CODE, error.code())
                .set(CreatableTopicResult.ERROR_MESSAGE, message);
    }
}
