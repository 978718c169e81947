package io.odradek.broker.faults;

import io.netty.buffer.Unpooled;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.ListOffsetsApi;
import io.odradek.wire.api.MetadataApi;
import io.odradek.wire.api.OffsetForLeaderEpochApi;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * issue 11 (faults): error responses of the APIs that address partitions (see {@link ErrorResponses}); each as Kafka
 * 4.4's {@code getErrorResponse} of that request builds it.
 */
final class PartitionErrorResponses {
    private PartitionErrorResponses() {
    }

    /**
     * Produce: every partition gets the error with base offset, log append time and log start offset -1. With acks=0
     * no response at all (Kafka's getErrorResponse answers null: the client expects none).
     */
    static Struct produce(short version, Struct request, short error) {
        if (request.get(ProduceApi.Request.ACKS) == 0) {
            return null;
        }
        Struct response = ProduceApi.SPEC.response().newStruct();
        for (Struct topic : request.get(ProduceApi.Request.TOPIC_DATA)) {
            Struct t = response.add(ProduceApi.Response.RESPONSES)
                    .set(ProduceApi.Response.TopicProduceResponse.NAME,
                            topic.get(ProduceApi.Request.TopicProduceData.NAME))
                    .set(ProduceApi.Response.TopicProduceResponse.TOPIC_ID,
                            topic.get(ProduceApi.Request.TopicProduceData.TOPIC_ID));
            for (Struct partition : topic.get(ProduceApi.Request.TopicProduceData.PARTITION_DATA)) {
                t.add(ProduceApi.Response.TopicProduceResponse.PARTITION_RESPONSES)
                        .set(ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse.INDEX,
                                partition.get(ProduceApi.Request.TopicProduceData.PartitionProduceData.INDEX))
                        .set(ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse.ERROR_CODE, error)
                        .set(ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse.BASE_OFFSET, -1L)
                        .set(ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse.LOG_APPEND_TIME_MS, -1L)
                        .set(ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse.LOG_START_OFFSET, -1L);
            }
        }
        return response;
    }

    /**
     * Fetch: the top-level error (v7+) and the request's session id; below v13 also every partition with the error,
     * high watermark, last stable offset and log start offset -1 and no records. From v13 Kafka sends no partitions
     * (a client reads the top-level error first), and neither do we.
     */
    static Struct fetch(short version, Struct request, short error) {
        Struct response = FetchApi.SPEC.response().newStruct()
                .set(FetchApi.Response.ERROR_CODE, error)
                .set(FetchApi.Response.SESSION_ID, request.get(FetchApi.Request.SESSION_ID));
        if (version >= 13) {
            return response;
        }
        for (Struct topic : request.get(FetchApi.Request.TOPICS)) {
            Struct t = response.add(FetchApi.Response.RESPONSES)
                    .set(FetchApi.Response.FetchableTopicResponse.TOPIC, topic.get(FetchApi.Request.FetchTopic.TOPIC))
                    .set(FetchApi.Response.FetchableTopicResponse.TOPIC_ID,
                            topic.get(FetchApi.Request.FetchTopic.TOPIC_ID));
            for (Struct partition : topic.get(FetchApi.Request.FetchTopic.PARTITIONS)) {
                t.add(FetchApi.Response.FetchableTopicResponse.PARTITIONS)
                        .set(FetchApi.Response.FetchableTopicResponse.PartitionData.PARTITION_INDEX,
                                partition.get(FetchApi.Request.FetchTopic.FetchPartition.PARTITION))
                        .set(FetchApi.Response.FetchableTopicResponse.PartitionData.ERROR_CODE, error)
                        .set(FetchApi.Response.FetchableTopicResponse.PartitionData.HIGH_WATERMARK, -1L)
                        .set(FetchApi.Response.FetchableTopicResponse.PartitionData.LAST_STABLE_OFFSET, -1L)
                        .set(FetchApi.Response.FetchableTopicResponse.PartitionData.LOG_START_OFFSET, -1L)
                        .set(FetchApi.Response.FetchableTopicResponse.PartitionData.ABORTED_TRANSACTIONS, List.of())
                        .set(FetchApi.Response.FetchableTopicResponse.PartitionData.PREFERRED_READ_REPLICA, -1)
                        .set(FetchApi.Response.FetchableTopicResponse.PartitionData.RECORDS,
                                new MemoryRecords(Unpooled.EMPTY_BUFFER));
            }
        }
        return response;
    }

    /** ListOffsets: every partition gets the error, timestamp, offset and leader epoch -1 (v0: no offsets). */
    static Struct listOffsets(short version, Struct request, short error) {
        Struct response = ListOffsetsApi.SPEC.response().newStruct();
        for (Struct topic : request.get(ListOffsetsApi.Request.TOPICS)) {
            Struct t = response.add(ListOffsetsApi.Response.TOPICS)
                    .set(ListOffsetsApi.Response.ListOffsetsTopicResponse.NAME,
                            topic.get(ListOffsetsApi.Request.ListOffsetsTopic.NAME));
            for (Struct partition : topic.get(ListOffsetsApi.Request.ListOffsetsTopic.PARTITIONS)) {
                t.add(ListOffsetsApi.Response.ListOffsetsTopicResponse.PARTITIONS)
                        .set(ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse.PARTITION_INDEX,
                                partition.get(ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition.PARTITION_INDEX))
                        .set(ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse.ERROR_CODE,
                                error)
                        .set(ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse.OLD_STYLE_OFFSETS,
                                List.of())
                        .set(ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse.TIMESTAMP, -1L)
                        .set(ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse.OFFSET, -1L)
                        .set(ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse.LEADER_EPOCH,
                                -1);
            }
        }
        return response;
    }

    /**
     * Metadata: every requested topic gets the error and no partitions, no brokers are listed, and v13+ carries the
     * error at the top as well. A request for all topics (null) or none gets no topic entries, as in Kafka: the
     * client sees an empty cluster and asks again.
     */
    static Struct metadata(short version, Struct request, short error) {
        Struct response = MetadataApi.SPEC.response().newStruct()
                .set(MetadataApi.Response.CLUSTER_ID, null)
                .set(MetadataApi.Response.CONTROLLER_ID, -1)
                .set(MetadataApi.Response.ERROR_CODE, error);
        List<Struct> topics = request.get(MetadataApi.Request.TOPICS);
        if (topics != null) {
            for (Struct topic : topics) {
                String name = topic.get(MetadataApi.Request.MetadataRequestTopic.NAME);
                response.add(MetadataApi.Response.TOPICS)
                        .set(MetadataApi.Response.MetadataResponseTopic.ERROR_CODE, error)
                        .set(MetadataApi.Response.MetadataResponseTopic.NAME, name == null ? "" : name)
                        .set(MetadataApi.Response.MetadataResponseTopic.TOPIC_ID,
                                topic.get(MetadataApi.Request.MetadataRequestTopic.TOPIC_ID))
                        .set(MetadataApi.Response.MetadataResponseTopic.IS_INTERNAL, false)
                        .set(MetadataApi.Response.MetadataResponseTopic.PARTITIONS, List.of());
            }
        }
        return response;
    }

    /** OffsetForLeaderEpoch: every partition gets the error, leader epoch and end offset -1. */
    static Struct offsetForLeaderEpoch(short version, Struct request, short error) {
        Struct response = OffsetForLeaderEpochApi.SPEC.response().newStruct();
        for (Struct topic : request.get(OffsetForLeaderEpochApi.Request.TOPICS)) {
            Struct t = response.add(OffsetForLeaderEpochApi.Response.TOPICS)
                    .set(OffsetForLeaderEpochApi.Response.OffsetForLeaderTopicResult.TOPIC,
                            topic.get(OffsetForLeaderEpochApi.Request.OffsetForLeaderTopic.TOPIC));
            for (Struct partition : topic.get(OffsetForLeaderEpochApi.Request.OffsetForLeaderTopic.PARTITIONS)) {
                t.add(OffsetForLeaderEpochApi.Response.OffsetForLeaderTopicResult.PARTITIONS)
                        .set(OffsetForLeaderEpochApi.Response.OffsetForLeaderTopicResult.EpochEndOffset.ERROR_CODE, error)
                        .set(OffsetForLeaderEpochApi.Response.OffsetForLeaderTopicResult.EpochEndOffset.PARTITION,
                                partition.get(OffsetForLeaderEpochApi.Request.OffsetForLeaderTopic.OffsetForLeaderPartition.PARTITION))
                        .set(OffsetForLeaderEpochApi.Response.OffsetForLeaderTopicResult.EpochEndOffset.LEADER_EPOCH, -1)
                        .set(OffsetForLeaderEpochApi.Response.OffsetForLeaderTopicResult.EpochEndOffset.END_OFFSET, -1L);
            }
        }
        return response;
    }
}
