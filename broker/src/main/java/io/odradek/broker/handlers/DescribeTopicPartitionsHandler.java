package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.replication.metadata.TopicNames;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeTopicPartitionsApi;
import io.odradek.wire.api.DescribeTopicPartitionsApi.Request;
import io.odradek.wire.api.DescribeTopicPartitionsApi.Response;
import io.odradek.wire.api.DescribeTopicPartitionsApi.Response.DescribeTopicPartitionsResponseTopic;
import io.odradek.wire.api.DescribeTopicPartitionsApi.Response.DescribeTopicPartitionsResponseTopic.DescribeTopicPartitionsResponsePartition;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeTopicPartitions (key 75), version 0 (KIP-966; flexible): what Kafka 4's Admin.describeTopics
 * sends when the broker offers it, answered from the {@link ClusterView}'s image by Kafka 4.4's rules
 * (DescribeTopicPartitionsRequestHandler, KRaftMetadataCache.describeTopicResponse):
 * <ul>
 * <li>Topics: the requested names, or every topic when the list is empty; only names at or after the
 *     cursor's topic, without duplicates, in name order. A cursor whose topic is not among the requested
 *     names, or whose partition index is negative, is INVALID_REQUEST for each requested topic.</li>
 * <li>Paging: at most {@code min(ResponsePartitionLimit, max.request.partition.size.limit = 2000)}
 *     partitions (at least 1), starting at the cursor's partition in the cursor's topic and at 0 in the
 *     others. When a topic's partitions do not all fit, NextCursor names the first one left out; when the
 *     limit is reached exactly at the end of a topic and topics remain, NextCursor is the next topic,
 *     partition 0 (which need not exist).</li>
 * <li>A partition: error NONE; leader -1 when its leader has no live endpoint on the request's listener;
 *     leader epoch, replicas and ISR from the image; offline replicas as in {@link MetadataHandler}; eligible
 *     leader replicas and last known ELR empty (no KIP-966 ELR here).</li>
 * <li>A requested topic that does not exist: UNKNOWN_TOPIC_OR_PARTITION (INVALID_TOPIC_EXCEPTION for an
 *     illegal name), zero id, no partitions; never auto-created. Left out when listing all topics.</li>
 * <li>Authorization (issue 10), as Kafka 4.4: a topic the client may not DESCRIBE is skipped (it takes none of
 *     the page); when named in the request it is answered after the others with TOPIC_AUTHORIZATION_FAILED, zero
 *     id, not internal, no partitions (whether it exists is not disclosed); listing all topics leaves it out.
 *     Topics are asked about as the paging reaches them, as Kafka's lazy filter: the refusals are those met
 *     up to the first visible topic past the page, and NextCursor always names a visible topic.</li>
 * <li>Topic authorized operations: always filled for the topics described (the authorizer's answer; every
 *     topic operation without one), as Kafka does; the schema's default for refused topics.</li>
 * </ul>
 */
public final class DescribeTopicPartitionsHandler implements ApiHandler {
    /** Kafka's max.request.partition.size.limit default: the most partitions one response describes. */
    static final int MAX_REQUEST_PARTITION_SIZE_LIMIT = 2000;

    private final ClusterView cluster;

    public DescribeTopicPartitionsHandler(ClusterView cluster) {
        this.cluster = cluster;
    }

    @Override
    public ApiSpec api() {
        return DescribeTopicPartitionsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        return CompletableFuture.completedFuture(describe(context, request));
    }

    private Struct describe(RequestContext context, Struct request) {
        String listener = context.session().listenerName();
        TopicAccess describable = TopicAccess.of(context, AclOperation.DESCRIBE);
        List<String> refused = new ArrayList<>();
        ClusterImage image = cluster.image();
        Struct cursor = request.get(Request.CURSOR);
        String cursorTopic = cursor == null ? "" : cursor.get(Request.Cursor.TOPIC_NAME);
        List<Struct> requested = request.get(Request.TOPICS);
        boolean allTopics = requested.isEmpty();
        SortedSet<String> names = new TreeSet<>();
        if (allTopics) {
            names.addAll(image.topics().keySet());
        } else {
            requested.forEach(t -> names.add(t.get(Request.TopicRequest.NAME)));
        }
        names.removeIf(name -> name.compareTo(cursorTopic) < 0);
        if (cursor != null && (!allTopics && !names.contains(cursorTopic)
                || cursor.get(Request.Cursor.PARTITION_INDEX) < 0)) {
            return invalidRequest(requested);
        }

        int remaining = Math.max(Math.min(MAX_REQUEST_PARTITION_SIZE_LIMIT,
                request.get(Request.RESPONSE_PARTITION_LIMIT)), 1);
        Struct response = Response.SCHEMA.newStruct();
        for (String name : names) {
            // Asked first, as Kafka's lazy filter does: the next page never starts at a topic the client may not see.
            if (!describable.allowed(name)) {
                if (!allTopics) {
                    refused.add(name);
                }
                continue;
            }
            if (remaining == 0) {
                // Every partition of the topics before fitted: the next page starts with this topic.
                nextCursor(response, name, 0);
                break;
            }
            TopicImage t = image.topics().get(name);
            if (t == null) {
                if (!allTopics) {
                    ErrorCode error = TopicNames.isValid(name) ? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                            : ErrorCode.INVALID_TOPIC_EXCEPTION;
                    topic(context, response, name, error)
                            .set(DescribeTopicPartitionsResponseTopic.TOPIC_ID, Types.ZERO_UUID);
                }
                continue;
            }
            Struct topic = topic(context, response, name, ErrorCode.NONE)
                    .set(DescribeTopicPartitionsResponseTopic.TOPIC_ID, t.id());
            int first = name.equals(cursorTopic) ? cursor.get(Request.Cursor.PARTITION_INDEX) : 0;
            int end = (int) Math.min(t.partitions().size(), (long) first + remaining);
            for (int p = first; p < end; p++) {
                addPartition(topic, image, t, p, listener);
            }
            if (end < t.partitions().size()) {
                nextCursor(response, name, end);
                break;
            }
            remaining -= Math.max(0, end - first);
        }
        for (String name : refused) {
            response.add(Response.TOPICS)
                    .set(DescribeTopicPartitionsResponseTopic.ERROR_CODE, ErrorCode.TOPIC_AUTHORIZATION_FAILED.code())
                    .set(DescribeTopicPartitionsResponseTopic.NAME, name)
                    .set(DescribeTopicPartitionsResponseTopic.TOPIC_ID, Types.ZERO_UUID)
                    .set(DescribeTopicPartitionsResponseTopic.IS_INTERNAL, false);
        }
        return response;
    }

    private static Struct topic(RequestContext context, Struct response, String name, ErrorCode error) {
        return response.add(Response.TOPICS)
                .set(DescribeTopicPartitionsResponseTopic.ERROR_CODE, error.code())
                .set(DescribeTopicPartitionsResponseTopic.NAME, name)
                .set(DescribeTopicPartitionsResponseTopic.IS_INTERNAL, TopicNames.isInternal(name))
                .set(DescribeTopicPartitionsResponseTopic.TOPIC_AUTHORIZED_OPERATIONS,
                        AuthorizedOperations.topic(context, name));
    }

    private void addPartition(Struct topic, ClusterImage image, TopicImage t, int p, String listener) {
        PartitionRegistration reg = t.partitions().get(p);
        boolean leaderAlive = PartitionStates.aliveEndpoint(image, reg.leader(), listener) != null;
        topic.add(DescribeTopicPartitionsResponseTopic.PARTITIONS)
                .set(DescribeTopicPartitionsResponsePartition.ERROR_CODE, ErrorCode.NONE.code())
                .set(DescribeTopicPartitionsResponsePartition.PARTITION_INDEX, p)
                .set(DescribeTopicPartitionsResponsePartition.LEADER_ID,
                        leaderAlive ? reg.leader() : PartitionRegistration.NO_LEADER)
                .set(DescribeTopicPartitionsResponsePartition.LEADER_EPOCH, reg.leaderEpoch())
                .set(DescribeTopicPartitionsResponsePartition.REPLICA_NODES, reg.replicas())
                .set(DescribeTopicPartitionsResponsePartition.ISR_NODES, reg.isr())
                .set(DescribeTopicPartitionsResponsePartition.ELIGIBLE_LEADER_REPLICAS, List.of())
                .set(DescribeTopicPartitionsResponsePartition.LAST_KNOWN_ELR, List.of())
                .set(DescribeTopicPartitionsResponsePartition.OFFLINE_REPLICAS,
                        cluster.offlineReplicas(image, t.name(), reg, p));
    }

    private static void nextCursor(Struct response, String topic, int partition) {
        response.set(Response.NEXT_CURSOR, Response.Cursor.SCHEMA.newStruct()
                .set(Response.Cursor.TOPIC_NAME, topic)
                .set(Response.Cursor.PARTITION_INDEX, partition));
    }

    /** Kafka's error response: every requested topic with INVALID_REQUEST and no partitions. */
    private static Struct invalidRequest(List<Struct> requested) {
        Struct response = Response.SCHEMA.newStruct();
        for (Struct t : requested) {
            response.add(Response.TOPICS)
                    .set(DescribeTopicPartitionsResponseTopic.ERROR_CODE, ErrorCode.INVALID_REQUEST.code())
                    .set(DescribeTopicPartitionsResponseTopic.NAME, t.get(Request.TopicRequest.NAME))
                    .set(DescribeTopicPartitionsResponseTopic.IS_INTERNAL, false);
        }
        return response;
    }
}
