package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.topics.TopicService;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ItemResult;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.CreatePartitionsApi;
import io.odradek.wire.api.CreatePartitionsApi.Request.CreatePartitionsTopic;
import io.odradek.wire.api.CreatePartitionsApi.Request.CreatePartitionsTopic.CreatePartitionsAssignment;
import io.odradek.wire.api.CreatePartitionsApi.Response;
import io.odradek.wire.api.CreatePartitionsApi.Response.CreatePartitionsTopicResult;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * CreatePartitions (key 37), versions 0-3 (flexible from v2): {@code kafka-topics --alter --partitions},
 * Admin.createPartitions. Grows each topic to its new count; keyed records follow the new count at once
 * since producers hash keys (murmur2) over the partition count they read from Metadata.
 * <ul>
 * <li>A topic named twice: INVALID_REQUEST "Duplicate topic name." for it (after the others), as Kafka.</li>
 * <li>In a cluster each topic is a {@code CreatePartitions} command to the controller quorum, which
 *     validates it as Kafka's controller (UNKNOWN_TOPIC_OR_PARTITION, INVALID_PARTITIONS unless the count
 *     grows, INVALID_REPLICA_ASSIGNMENT for assignments that do not fit, placement of new partitions like
 *     new topics'); the answer waits until this broker has applied the change, bounded by TimeoutMs
 *     (REQUEST_TIMED_OUT).</li>
 * <li>On a single node the local catalog grows and the new partitions' logs are made here, with the same
 *     checks and messages: assignments must name only this broker, once per partition, as many as the
 *     partitions added; the broker's partition limit applies (POLICY_VIOLATION).</li>
 * <li>ValidateOnly checks everything and changes nothing.</li>
 * <li>Authorization (issue 10), as Kafka 4.4's ControllerApis.createPartitions: ALTER on each topic (after the
 *     duplicate check), else TOPIC_AUTHORIZATION_FAILED with no message, before whether it exists is looked at.</li>
 * </ul>
 */
public final class CreatePartitionsHandler implements ApiHandler {
    private final TopicService topics;
    private final ClusterView cluster;

    public CreatePartitionsHandler(TopicService topics, ClusterView cluster) {
        this.topics = topics;
        this.cluster = cluster;
    }

    @Override
    public ApiSpec api() {
        return CreatePartitionsApi.SPEC;
    }

    /** One topic's outcome. */
    private record Outcome(String name, ErrorCode error, String message) {
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        List<Struct> wanted = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Set<String> duplicates = new LinkedHashSet<>();
        for (Struct t : request.get(CreatePartitionsApi.Request.TOPICS)) {
            if (!seen.add(t.get(CreatePartitionsTopic.NAME))) {
                duplicates.add(t.get(CreatePartitionsTopic.NAME));
            }
        }
        TopicAccess alterable = TopicAccess.of(context, AclOperation.ALTER);
        List<String> unauthorized = new ArrayList<>();
        for (Struct t : request.get(CreatePartitionsApi.Request.TOPICS)) {
            String name = t.get(CreatePartitionsTopic.NAME);
            if (duplicates.contains(name)) {
                continue;
            }
            if (alterable.allowed(name)) {
                wanted.add(t);
            } else {
                unauthorized.add(name);
            }
        }
        boolean validateOnly = request.get(CreatePartitionsApi.Request.VALIDATE_ONLY);
        int timeoutMs = request.get(CreatePartitionsApi.Request.TIMEOUT_MS);
        ControllerChannel controller = cluster.controller().orElse(null);

        List<CompletableFuture<Outcome>> outcomes = new ArrayList<>();
        if (controller == null) {
            CompletableFuture<List<Outcome>> local = topics.async(() -> {
                List<Outcome> done = new ArrayList<>();
                wanted.forEach(t -> done.add(createLocally(t, validateOnly)));
                return done;
            });
            for (int i = 0; i < wanted.size(); i++) {
                int index = i;
                outcomes.add(local.thenApply(list -> list.get(index)));
            }
        } else {
            wanted.forEach(t -> outcomes.add(createInCluster(controller, t, validateOnly, timeoutMs)));
        }
        return CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            Struct response = Response.SCHEMA.newStruct();
            outcomes.forEach(o -> addResult(response, o.join()));
            unauthorized.forEach(name -> addResult(response,
                    new Outcome(name, ErrorCode.TOPIC_AUTHORIZATION_FAILED, null)));
            duplicates.forEach(name -> addResult(response,
                    new Outcome(name, ErrorCode.INVALID_REQUEST, "Duplicate topic name.")));
            return response;
        });
    }

    private static List<List<Integer>> assignments(Struct topic) {
        List<Struct> given = topic.get(CreatePartitionsTopic.ASSIGNMENTS);
        if (given == null) {
            return null;
        }
        List<List<Integer>> replicas = new ArrayList<>();
        given.forEach(a -> replicas.add(List.copyOf(a.get(CreatePartitionsAssignment.BROKER_IDS))));
        return replicas;
    }

    private Outcome createLocally(Struct t, boolean validateOnly) {
        String name = t.get(CreatePartitionsTopic.NAME);
        int count = t.get(CreatePartitionsTopic.COUNT);
        List<List<Integer>> assignments = assignments(t);
        try {
            int current = topics.topic(name).map(info -> info.partitions()).orElseThrow(() ->
                    new MetadataException(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null));
            if (assignments != null && count > current) {
                checkAssignments(assignments, count - current, current);
            }
            topics.createPartitions(name, count, validateOnly);
            return new Outcome(name, ErrorCode.NONE, null);
        } catch (MetadataException e) {
            return new Outcome(name, e.error(), e.getMessage());
        }
    }

    /** Kafka's checks of manual assignments, on a cluster of this broker alone. */
    private void checkAssignments(List<List<Integer>> assignments, int added, int current) {
        if (assignments.size() != added) {
            throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "Attempted to add " + added
                    + " additional partition(s), but only " + assignments.size() + " assignment(s) were specified.");
        }
        int us = cluster.localBrokerId();
        for (List<Integer> replicas : assignments) {
            if (replicas.isEmpty()) {
                throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes an empty replica list.");
            }
            for (int broker : replicas) {
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
    }

    private CompletableFuture<Outcome> createInCluster(ControllerChannel controller, Struct t, boolean validateOnly,
            int timeoutMs) {
        String name = t.get(CreatePartitionsTopic.NAME);
        CompletableFuture<Outcome> outcome = controller.submit(new ControllerCommand.CreatePartitions(name,
                        t.get(CreatePartitionsTopic.COUNT), assignments(t), validateOnly))
                .thenCompose(result -> {
                    Outcome o = outcome(name, result);
                    return o.error() != ErrorCode.NONE || validateOnly ? CompletableFuture.completedFuture(o)
                            : cluster.awaitApplied(result.offset()).thenApply(image -> o);
                });
        if (timeoutMs > 0) {
            outcome = outcome.orTimeout(timeoutMs, TimeUnit.MILLISECONDS);
        }
        return outcome.exceptionally(failure -> new Outcome(name, ControllerFailures.error(failure),
                ControllerFailures.message(failure)));
    }

    /** The command's error, else its first item's. */
    private static Outcome outcome(String name, CommandResult result) {
        if (result.error() != ErrorCode.NONE) {
            return new Outcome(name, result.error(), result.message());
        }
        for (ItemResult item : result.items()) {
            if (item.error() != ErrorCode.NONE) {
                return new Outcome(name, item.error(), item.message());
            }
        }
        return new Outcome(name, ErrorCode.NONE, null);
    }

    private static void addResult(Struct response, Outcome o) {
        response.add(Response.RESULTS)
                .set(CreatePartitionsTopicResult.NAME, o.name())
                .set(CreatePartitionsTopicResult.ERROR_CODE, o.error().code())
                .set(CreatePartitionsTopicResult.ERROR_MESSAGE, o.message());
    }
}
