package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ListPartitionReassignmentsApi;
import io.odradek.wire.api.ListPartitionReassignmentsApi.Request.ListPartitionReassignmentsTopics;
import io.odradek.wire.api.ListPartitionReassignmentsApi.Response;
import io.odradek.wire.api.ListPartitionReassignmentsApi.Response.OngoingTopicReassignment;
import io.odradek.wire.api.ListPartitionReassignmentsApi.Response.OngoingTopicReassignment.OngoingPartitionReassignment;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * ListPartitionReassignments (key 46), version 0 (flexible): {@code kafka-reassign-partitions --verify /
 * --list}, Admin.listPartitionReassignments. Answered from the {@link ClusterView}'s image, as Kafka's
 * controller answers from its own: every partition with a reassignment in progress, with its full replica
 * set (old and new together), the replicas being added and those being removed. Topics null = every
 * topic; otherwise only the named partitions, and unknown topics, unknown partitions and partitions not
 * being reassigned are left out silently; a topic with nothing listed is left out too. On a single node
 * nothing is ever reassigned, so the list is empty.
 *
 * <p>Authorization (issue 10), as Kafka 4.4's controller: DESCRIBE on the cluster, else the top-level error
 * CLUSTER_AUTHORIZATION_FAILED ("Cluster authorization failed."; Kafka's message names its request) with the
 * requested topics and partition indexes echoed and no replicas.
 */
public final class ListPartitionReassignmentsHandler implements ApiHandler {
    private final ClusterView cluster;

    public ListPartitionReassignmentsHandler(ClusterView cluster) {
        this.cluster = cluster;
    }

    @Override
    public ApiSpec api() {
        return ListPartitionReassignmentsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!context.session().authorizedOnCluster(AclOperation.DESCRIBE)) {
            return CompletableFuture.completedFuture(refused(request));
        }
        ClusterImage image = cluster.image();
        Struct response = Response.SCHEMA.newStruct().set(Response.ERROR_CODE, ErrorCode.NONE.code())
                .set(Response.ERROR_MESSAGE, null);
        List<Struct> requested = request.get(ListPartitionReassignmentsApi.Request.TOPICS);
        if (requested == null) {
            for (TopicImage t : image.topics().values()) {
                List<Integer> all = new ArrayList<>();
                for (int p = 0; p < t.partitions().size(); p++) {
                    all.add(p);
                }
                addTopic(response, t, all);
            }
        } else {
            for (Struct wanted : requested) {
                TopicImage t = image.topics().get(wanted.get(ListPartitionReassignmentsTopics.NAME));
                if (t != null) {
                    addTopic(response, t, wanted.get(ListPartitionReassignmentsTopics.PARTITION_INDEXES));
                }
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private static void addTopic(Struct response, TopicImage t, List<Integer> partitions) {
        Struct topic = null;
        for (int p : partitions) {
            PartitionRegistration reg = t.partition(p);
            if (reg == null || !reg.isReassigning()) {
                continue;
            }
            if (topic == null) {
                topic = response.add(Response.TOPICS).set(OngoingTopicReassignment.NAME, t.name());
            }
            topic.add(OngoingTopicReassignment.PARTITIONS)
                    .set(OngoingPartitionReassignment.PARTITION_INDEX, p)
                    .set(OngoingPartitionReassignment.REPLICAS, reg.replicas())
                    .set(OngoingPartitionReassignment.ADDING_REPLICAS, reg.adding())
                    .set(OngoingPartitionReassignment.REMOVING_REPLICAS, reg.removing());
        }
    }

    /** Kafka's ListPartitionReassignmentsRequest.getErrorResponse for CLUSTER_AUTHORIZATION_FAILED. */
    private static Struct refused(Struct request) {
        Struct response = Response.SCHEMA.newStruct()
                .set(Response.ERROR_CODE, ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code())
                .set(Response.ERROR_MESSAGE, "Cluster authorization failed.");
        List<Struct> requested = request.get(ListPartitionReassignmentsApi.Request.TOPICS);
        for (Struct t : requested == null ? List.<Struct>of() : requested) {
            Struct topic = response.add(Response.TOPICS)
                    .set(OngoingTopicReassignment.NAME, t.get(ListPartitionReassignmentsTopics.NAME));
            for (int p : t.get(ListPartitionReassignmentsTopics.PARTITION_INDEXES)) {
                topic.add(OngoingTopicReassignment.PARTITIONS)
                        .set(OngoingPartitionReassignment.PARTITION_INDEX, p)
                        .set(OngoingPartitionReassignment.REPLICAS, List.of())
                        .set(OngoingPartitionReassignment.ADDING_REPLICAS, List.of())
                        .set(OngoingPartitionReassignment.REMOVING_REPLICAS, List.of());
            }
        }
        return response;
    }
}
