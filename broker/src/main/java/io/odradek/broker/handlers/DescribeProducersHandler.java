package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.log.LogException;
import io.odradek.log.producer.ActiveProducer;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.Partitions;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeProducersApi;
import io.odradek.wire.api.DescribeProducersApi.Request.TopicRequest;
import io.odradek.wire.api.DescribeProducersApi.Response;
import io.odradek.wire.api.DescribeProducersApi.Response.TopicResponse;
import io.odradek.wire.api.DescribeProducersApi.Response.TopicResponse.PartitionResponse;
import io.odradek.wire.api.DescribeProducersApi.Response.TopicResponse.PartitionResponse.ProducerState;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeProducers (key 61), version 0.
 *
 * <p>Behaviour / version notes (Kafka's ReplicaManager.activeProducerState):
 * <ul>
 * <li>For each requested partition, the producers its local replica's producer state knows (the same state that
 *     checks sequences and tracks open transactions): producer id, epoch, last sequence, last timestamp,
 *     the coordinator epoch of its last transaction marker (-1 if none) and the first offset of its open
 *     transaction on that partition (-1 if none). This is what {@code kafka-transactions describe-producers}
 *     and {@code find-hanging} read.</li>
 * <li>Any replica answers, leader or follower, as Kafka's Partition.activeProducerState reads whichever
 *     local log it has (the admin client asks the leader unless told a broker id; a follower's state is
 *     what it has replicated). A partition the cluster metadata knows but this broker holds no replica of:
 *     NOT_LEADER_OR_FOLLOWER; one nobody knows: UNKNOWN_TOPIC_OR_PARTITION. A log that went offline: its
 *     storage error.</li>
 * <li>Authorization (issue 10), as Kafka 4.4: READ on each topic, else its partitions are
 *     TOPIC_AUTHORIZATION_FAILED ("Topic authorization failed.") before whether they exist is looked at.</li>
 * </ul>
 */
public final class DescribeProducersHandler implements ApiHandler {
    private final Partitions partitions;
    private final ClusterView cluster;

    /** @param cluster the metadata image: whether a partition not hosted here exists elsewhere */
    public DescribeProducersHandler(Partitions partitions, ClusterView cluster) {
        this.partitions = partitions;
        this.cluster = cluster;
    }

    @Override
    public ApiSpec api() {
        return DescribeProducersApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        TopicAccess readable = TopicAccess.of(context, AclOperation.READ);
        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
        for (Struct topic : request.get(DescribeProducersApi.Request.TOPICS)) {
            String name = topic.get(TopicRequest.NAME);
            Struct topicResponse = response.add(Response.TOPICS).set(TopicResponse.NAME, name);
            boolean allowed = readable.allowed(name);
            for (int index : topic.get(TopicRequest.PARTITION_INDEXES)) {
                if (!allowed) {
                    fail(topicResponse.add(TopicResponse.PARTITIONS).set(PartitionResponse.PARTITION_INDEX, index),
                            ErrorCode.TOPIC_AUTHORIZATION_FAILED, "Topic authorization failed.");
                    continue;
                }
                describe(name, index, topicResponse.add(TopicResponse.PARTITIONS).set(PartitionResponse.PARTITION_INDEX, index));
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private void describe(String topic, int index, Struct out) {
        Optional<Partition> partition = partitions.partition(topic, index);
        if (partition.isEmpty()) {
            fail(out, cluster.image().partition(topic, index).isPresent() ? ErrorCode.NOT_LEADER_OR_FOLLOWER
                    : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null);
            return;
        }
        List<ActiveProducer> producers;
        try {
            producers = partition.get().activeProducers();
        } catch (LogException e) {
            fail(out, e.errorCode(), e.getMessage());
            return;
        }
        out.set(PartitionResponse.ERROR_CODE, ErrorCode.NONE.code()).set(PartitionResponse.ERROR_MESSAGE, null)
                .set(PartitionResponse.ACTIVE_PRODUCERS, List.of());
        for (ActiveProducer p : producers) {
            out.add(PartitionResponse.ACTIVE_PRODUCERS)
                    .set(ProducerState.PRODUCER_ID, p.producerId())
                    .set(ProducerState.PRODUCER_EPOCH, (int) p.producerEpoch())
                    .set(ProducerState.LAST_SEQUENCE, p.lastSequence())
                    .set(ProducerState.LAST_TIMESTAMP, p.lastTimestamp())
                    .set(ProducerState.COORDINATOR_EPOCH, p.coordinatorEpoch())
                    .set(ProducerState.CURRENT_TXN_START_OFFSET, p.currentTxnStartOffset());
        }
    }

    private static void fail(Struct out, ErrorCode error, String message) {
        out.set(PartitionResponse.ERROR_CODE, error.code()).set(PartitionResponse.ERROR_MESSAGE, message)
                .set(PartitionResponse.ACTIVE_PRODUCERS, List.of());
    }
}
