package io.odradek.broker.handlers;

import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * What the five share-state handlers (InitializeShareGroupState 83, ReadShareGroupState 84,
 * WriteShareGroupState 85, DeleteShareGroupState 86, ReadShareGroupStateSummary 87) have in common, as Kafka's
 * KafkaApis and ShareCoordinatorService treat them: CLUSTER_ACTION on the cluster or every partition answers
 * CLUSTER_AUTHORIZATION_FAILED; an empty group id, no topics or a topic without partitions gets a response with
 * no results; otherwise each partition is answered on its own by the share coordinator, results grouped by
 * topic id in request order (a partition named twice is answered once).
 *
 * @param <T> the coordinator's answer for one share partition
 */
final class ShareStateRequests<T> {
    static final String CLUSTER_AUTHORIZATION_FAILED = "Cluster authorization failed.";

    /** Where the request and response keep their topics and partitions. */
    record Shape(Field<String> groupId, Field<List<Struct>> topics, Field<UUID> topicId, Field<List<Struct>> partitions,
            Field<Integer> partition, Schema responseSchema, Field<List<Struct>> results, Field<UUID> resultTopicId,
            Field<List<Struct>> resultPartitions, Field<Integer> resultPartition) {
    }

    /** Asks the coordinator about one share partition. */
    @FunctionalInterface
    interface Call<T> {
        CompletableFuture<T> apply(SharePartitionKey key, Struct partitionData);
    }

    private final Shape shape;
    private final Call<T> call;
    /** Fills a result partition with the coordinator's answer. */
    private final BiConsumer<Struct, T> fill;
    /** Fills a result partition refused for want of CLUSTER_ACTION. */
    private final BiConsumer<Struct, ErrorCode> refuse;

    ShareStateRequests(Shape shape, Call<T> call, BiConsumer<Struct, T> fill, BiConsumer<Struct, ErrorCode> refuse) {
        this.shape = shape;
        this.call = call;
        this.fill = fill;
        this.refuse = refuse;
    }

    CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        List<Struct> topics = request.get(shape.topics());
        if (!CoordinatorAccess.allowedOnCluster(context, AclOperation.CLUSTER_ACTION)) {
            return CompletableFuture.completedFuture(respond(topics, p -> null, (result, none) ->
                    refuse.accept(result, ErrorCode.CLUSTER_AUTHORIZATION_FAILED)));
        }
        String groupId = request.get(shape.groupId());
        if (groupId == null || groupId.isEmpty() || topics.isEmpty()
                || topics.stream().anyMatch(t -> t.get(shape.partitions()).isEmpty())) {
            return CompletableFuture.completedFuture(shape.responseSchema().newStruct());
        }
        Map<Struct, CompletableFuture<T>> answers = new LinkedHashMap<>();
        for (Struct topic : topics) {
            UUID topicId = topic.get(shape.topicId());
            for (Struct partition : topic.get(shape.partitions())) {
                answers.put(partition, call.apply(new SharePartitionKey(groupId, topicId, partition.get(shape.partition())), partition));
            }
        }
        return CompletableFuture.allOf(answers.values().toArray(CompletableFuture[]::new))
                .thenApplyAsync(v -> respond(topics, p -> answers.get(p).join(), fill), context.executor());
    }

    /** The response: one result per topic id, one partition result per partition index, in request order. */
    private Struct respond(List<Struct> topics, Function<Struct, T> answerOf, BiConsumer<Struct, T> filler) {
        Map<UUID, Map<Integer, Struct>> byTopic = new LinkedHashMap<>();
        for (Struct topic : topics) {
            Map<Integer, Struct> partitions = byTopic.computeIfAbsent(topic.get(shape.topicId()), id -> new LinkedHashMap<>());
            for (Struct partition : topic.get(shape.partitions())) {
                partitions.put(partition.get(shape.partition()), partition);
            }
        }
        Struct response = shape.responseSchema().newStruct();
        byTopic.forEach((topicId, partitions) -> {
            Struct result = response.add(shape.results()).set(shape.resultTopicId(), topicId);
            List<Struct> requested = new ArrayList<>(partitions.values());
            for (Struct partition : requested) {
                Struct r = result.add(shape.resultPartitions()).set(shape.resultPartition(), partition.get(shape.partition()));
                filler.accept(r, answerOf.apply(partition));
            }
        });
        return response;
    }
}
