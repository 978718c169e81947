package io.odradek.broker.faults;

import io.odradek.wire.api.AddOffsetsToTxnApi;
import io.odradek.wire.api.AddPartitionsToTxnApi;
import io.odradek.wire.api.EndTxnApi;
import io.odradek.wire.api.InitProducerIdApi;
import io.odradek.wire.api.TxnOffsetCommitApi;
import io.odradek.wire.schema.Struct;

/**
 * issue 11 (faults): error responses of the producer-id and transaction APIs (see {@link ErrorResponses}); each as
 * Kafka 4.4's {@code getErrorResponse} of that request builds it.
 */
final class TxnErrorResponses {
    private TxnErrorResponses() {
    }

    /** InitProducerId: the error with producer id and epoch -1. */
    static Struct initProducerId(short version, Struct request, short error) {
        return InitProducerIdApi.SPEC.response().newStruct()
                .set(InitProducerIdApi.Response.ERROR_CODE, error)
                .set(InitProducerIdApi.Response.PRODUCER_ID, -1L)
                .set(InitProducerIdApi.Response.PRODUCER_EPOCH, (short) -1);
    }

    /** AddPartitionsToTxn: v0-3 every partition gets the error; v4+ the error at the top (as Kafka). */
    static Struct addPartitionsToTxn(short version, Struct request, short error) {
        Struct response = AddPartitionsToTxnApi.SPEC.response().newStruct();
        if (version >= 4) {
            return response.set(AddPartitionsToTxnApi.Response.ERROR_CODE, error);
        }
        for (Struct topic : request.get(AddPartitionsToTxnApi.Request.V3_AND_BELOW_TOPICS)) {
            Struct t = response.add(AddPartitionsToTxnApi.Response.RESULTS_BY_TOPIC_V3_AND_BELOW)
                    .set(AddPartitionsToTxnApi.Response.AddPartitionsToTxnTopicResult.NAME,
                            topic.get(AddPartitionsToTxnApi.Request.AddPartitionsToTxnTopic.NAME));
            for (int partition : topic.get(AddPartitionsToTxnApi.Request.AddPartitionsToTxnTopic.PARTITIONS)) {
                t.add(AddPartitionsToTxnApi.Response.AddPartitionsToTxnTopicResult.RESULTS_BY_PARTITION)
                        .set(AddPartitionsToTxnApi.Response.AddPartitionsToTxnPartitionResult.PARTITION_INDEX, partition)
                        .set(AddPartitionsToTxnApi.Response.AddPartitionsToTxnPartitionResult.PARTITION_ERROR_CODE,
                                error);
            }
        }
        return response;
    }

    /** AddOffsetsToTxn: the error. */
    static Struct addOffsetsToTxn(short version, Struct request, short error) {
        return AddOffsetsToTxnApi.SPEC.response().newStruct().set(AddOffsetsToTxnApi.Response.ERROR_CODE, error);
    }

    /** EndTxn: the error (v5+: producer id and epoch -1). */
    static Struct endTxn(short version, Struct request, short error) {
        return EndTxnApi.SPEC.response().newStruct()
                .set(EndTxnApi.Response.ERROR_CODE, error)
                .set(EndTxnApi.Response.PRODUCER_ID, -1L)
                .set(EndTxnApi.Response.PRODUCER_EPOCH, (short) -1);
    }

    /** TxnOffsetCommit: every partition gets the error. */
    static Struct txnOffsetCommit(short version, Struct request, short error) {
        Struct response = TxnOffsetCommitApi.SPEC.response().newStruct();
        for (Struct topic : request.get(TxnOffsetCommitApi.Request.TOPICS)) {
            Struct t = response.add(TxnOffsetCommitApi.Response.TOPICS)
                    .set(TxnOffsetCommitApi.Response.TxnOffsetCommitResponseTopic.NAME,
                            topic.get(TxnOffsetCommitApi.Request.TxnOffsetCommitRequestTopic.NAME))
                    .set(TxnOffsetCommitApi.Response.TxnOffsetCommitResponseTopic.TOPIC_ID,
                            topic.get(TxnOffsetCommitApi.Request.TxnOffsetCommitRequestTopic.TOPIC_ID));
            for (Struct partition : topic.get(TxnOffsetCommitApi.Request.TxnOffsetCommitRequestTopic.PARTITIONS)) {
                t.add(TxnOffsetCommitApi.Response.TxnOffsetCommitResponseTopic.PARTITIONS)
                        .set(TxnOffsetCommitApi.Response.TxnOffsetCommitResponseTopic.TxnOffsetCommitResponsePartition.PARTITION_INDEX,
                                partition.get(TxnOffsetCommitApi.Request.TxnOffsetCommitRequestTopic.TxnOffsetCommitRequestPartition.PARTITION_INDEX))
                        .set(TxnOffsetCommitApi.Response.TxnOffsetCommitResponseTopic.TxnOffsetCommitResponsePartition.ERROR_CODE,
                                error);
            }
        }
        return response;
    }
}
