package io.odradek.broker.sharestate;

import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.ShareStateSummary;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DeleteShareGroupStateApi;
import io.odradek.wire.api.InitializeShareGroupStateApi;
import io.odradek.wire.api.ReadShareGroupStateApi;
import io.odradek.wire.api.ReadShareGroupStateSummaryApi;
import io.odradek.wire.api.WriteShareGroupStateApi;
import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;

/**
 * The share-state requests one broker sends another's share coordinator for a single share partition, and what
 * their responses say (the first partition of the first result; a response without one, which Kafka sends for a
 * request it drops, reads as UNKNOWN_SERVER_ERROR).
 */
final class ShareStateMessages {
    /** An API at the version this broker sends it. */
    enum Api {
        INITIALIZE(InitializeShareGroupStateApi.SPEC, 0),
        READ(ReadShareGroupStateApi.SPEC, 0),
        WRITE(WriteShareGroupStateApi.SPEC, 1),
        DELETE(DeleteShareGroupStateApi.SPEC, 0),
        SUMMARY(ReadShareGroupStateSummaryApi.SPEC, 1);

        private final ApiSpec spec;
        private final short version;

        Api(ApiSpec spec, int version) {
            this.spec = spec;
            this.version = (short) version;
        }

        ApiSpec spec() {
            return spec;
        }

        short version() {
            return version;
        }
    }

    static final Api INITIALIZE = Api.INITIALIZE;
    static final Api READ = Api.READ;
    static final Api WRITE = Api.WRITE;
    static final Api DELETE = Api.DELETE;
    static final Api SUMMARY = Api.SUMMARY;

    private static final String NO_RESULT = "The share coordinator's response has no result for the partition.";

    private ShareStateMessages() {
    }

    // ------------------------------------------------------------------ requests

    static Struct initializeRequest(SharePartitionKey key, int stateEpoch, long startOffset) {
        Struct request = InitializeShareGroupStateApi.Request.SCHEMA.newStruct()
                .set(InitializeShareGroupStateApi.Request.GROUP_ID, key.groupId());
        request.add(InitializeShareGroupStateApi.Request.TOPICS)
                .set(InitializeShareGroupStateApi.Request.InitializeStateData.TOPIC_ID, key.topicId())
                .add(InitializeShareGroupStateApi.Request.InitializeStateData.PARTITIONS)
                .set(InitializeShareGroupStateApi.Request.InitializeStateData.PartitionData.PARTITION, key.partition())
                .set(InitializeShareGroupStateApi.Request.InitializeStateData.PartitionData.STATE_EPOCH, stateEpoch)
                .set(InitializeShareGroupStateApi.Request.InitializeStateData.PartitionData.START_OFFSET, startOffset);
        return request;
    }

    static Struct readRequest(SharePartitionKey key, int leaderEpoch) {
        Struct request = ReadShareGroupStateApi.Request.SCHEMA.newStruct()
                .set(ReadShareGroupStateApi.Request.GROUP_ID, key.groupId());
        request.add(ReadShareGroupStateApi.Request.TOPICS)
                .set(ReadShareGroupStateApi.Request.ReadStateData.TOPIC_ID, key.topicId())
                .add(ReadShareGroupStateApi.Request.ReadStateData.PARTITIONS)
                .set(ReadShareGroupStateApi.Request.ReadStateData.PartitionData.PARTITION, key.partition())
                .set(ReadShareGroupStateApi.Request.ReadStateData.PartitionData.LEADER_EPOCH, leaderEpoch);
        return request;
    }

    static Struct writeRequest(SharePartitionKey key, int stateEpoch, int leaderEpoch, long startOffset,
            int deliveryCompleteCount, List<StateBatch> batches) {
        Struct request = WriteShareGroupStateApi.Request.SCHEMA.newStruct()
                .set(WriteShareGroupStateApi.Request.GROUP_ID, key.groupId());
        Struct partition = request.add(WriteShareGroupStateApi.Request.TOPICS)
                .set(WriteShareGroupStateApi.Request.WriteStateData.TOPIC_ID, key.topicId())
                .add(WriteShareGroupStateApi.Request.WriteStateData.PARTITIONS)
                .set(WriteShareGroupStateApi.Request.WriteStateData.PartitionData.PARTITION, key.partition())
                .set(WriteShareGroupStateApi.Request.WriteStateData.PartitionData.STATE_EPOCH, stateEpoch)
                .set(WriteShareGroupStateApi.Request.WriteStateData.PartitionData.LEADER_EPOCH, leaderEpoch)
                .set(WriteShareGroupStateApi.Request.WriteStateData.PartitionData.START_OFFSET, startOffset)
                .set(WriteShareGroupStateApi.Request.WriteStateData.PartitionData.DELIVERY_COMPLETE_COUNT, deliveryCompleteCount);
        for (StateBatch b : batches) {
            partition.add(WriteShareGroupStateApi.Request.WriteStateData.PartitionData.STATE_BATCHES)
                    .set(WriteShareGroupStateApi.Request.WriteStateData.PartitionData.StateBatch.FIRST_OFFSET, b.firstOffset())
                    .set(WriteShareGroupStateApi.Request.WriteStateData.PartitionData.StateBatch.LAST_OFFSET, b.lastOffset())
                    .set(WriteShareGroupStateApi.Request.WriteStateData.PartitionData.StateBatch.DELIVERY_STATE, b.deliveryState())
                    .set(WriteShareGroupStateApi.Request.WriteStateData.PartitionData.StateBatch.DELIVERY_COUNT, b.deliveryCount());
        }
        return request;
    }

    static Struct deleteRequest(SharePartitionKey key) {
        Struct request = DeleteShareGroupStateApi.Request.SCHEMA.newStruct()
                .set(DeleteShareGroupStateApi.Request.GROUP_ID, key.groupId());
        request.add(DeleteShareGroupStateApi.Request.TOPICS)
                .set(DeleteShareGroupStateApi.Request.DeleteStateData.TOPIC_ID, key.topicId())
                .add(DeleteShareGroupStateApi.Request.DeleteStateData.PARTITIONS)
                .set(DeleteShareGroupStateApi.Request.DeleteStateData.PartitionData.PARTITION, key.partition());
        return request;
    }

    static Struct summaryRequest(SharePartitionKey key, int leaderEpoch) {
        Struct request = ReadShareGroupStateSummaryApi.Request.SCHEMA.newStruct()
                .set(ReadShareGroupStateSummaryApi.Request.GROUP_ID, key.groupId());
        request.add(ReadShareGroupStateSummaryApi.Request.TOPICS)
                .set(ReadShareGroupStateSummaryApi.Request.ReadStateSummaryData.TOPIC_ID, key.topicId())
                .add(ReadShareGroupStateSummaryApi.Request.ReadStateSummaryData.PARTITIONS)
                .set(ReadShareGroupStateSummaryApi.Request.ReadStateSummaryData.PartitionData.PARTITION, key.partition())
                .set(ReadShareGroupStateSummaryApi.Request.ReadStateSummaryData.PartitionData.LEADER_EPOCH, leaderEpoch);
        return request;
    }

    // ------------------------------------------------------------------ responses

    /** The first partition of the first result, or null. */
    private static Struct onlyPartition(Struct response, Field<List<Struct>> results, Field<List<Struct>> partitions) {
        List<Struct> r = response.get(results);
        if (r.isEmpty() || r.get(0).get(partitions).isEmpty()) {
            return null;
        }
        return r.get(0).get(partitions).get(0);
    }

    static ErrorCode initializeError(Struct response) {
        Struct p = onlyPartition(response, InitializeShareGroupStateApi.Response.RESULTS,
                InitializeShareGroupStateApi.Response.InitializeStateResult.PARTITIONS);
        return p == null ? ErrorCode.UNKNOWN_SERVER_ERROR
                : ErrorCode.forCode(p.get(InitializeShareGroupStateApi.Response.InitializeStateResult.PartitionResult.ERROR_CODE));
    }

    static ErrorCode writeError(Struct response) {
        Struct p = onlyPartition(response, WriteShareGroupStateApi.Response.RESULTS,
                WriteShareGroupStateApi.Response.WriteStateResult.PARTITIONS);
        return p == null ? ErrorCode.UNKNOWN_SERVER_ERROR
                : ErrorCode.forCode(p.get(WriteShareGroupStateApi.Response.WriteStateResult.PartitionResult.ERROR_CODE));
    }

    static ErrorCode deleteError(Struct response) {
        Struct p = onlyPartition(response, DeleteShareGroupStateApi.Response.RESULTS,
                DeleteShareGroupStateApi.Response.DeleteStateResult.PARTITIONS);
        return p == null ? ErrorCode.UNKNOWN_SERVER_ERROR
                : ErrorCode.forCode(p.get(DeleteShareGroupStateApi.Response.DeleteStateResult.PartitionResult.ERROR_CODE));
    }

    static PersistedShareState readState(Struct response) {
        Struct p = onlyPartition(response, ReadShareGroupStateApi.Response.RESULTS, ReadShareGroupStateApi.Response.ReadStateResult.PARTITIONS);
        if (p == null) {
            return PersistedShareState.error(ErrorCode.UNKNOWN_SERVER_ERROR, NO_RESULT);
        }
        ErrorCode error = ErrorCode.forCode(p.get(ReadShareGroupStateApi.Response.ReadStateResult.PartitionResult.ERROR_CODE));
        String message = p.get(ReadShareGroupStateApi.Response.ReadStateResult.PartitionResult.ERROR_MESSAGE);
        if (error != ErrorCode.NONE) {
            return PersistedShareState.error(error, message);
        }
        List<StateBatch> batches = new ArrayList<>();
        for (Struct b : p.get(ReadShareGroupStateApi.Response.ReadStateResult.PartitionResult.STATE_BATCHES)) {
            batches.add(new StateBatch(b.get(ReadShareGroupStateApi.Response.ReadStateResult.PartitionResult.StateBatch.FIRST_OFFSET),
                    b.get(ReadShareGroupStateApi.Response.ReadStateResult.PartitionResult.StateBatch.LAST_OFFSET),
                    b.get(ReadShareGroupStateApi.Response.ReadStateResult.PartitionResult.StateBatch.DELIVERY_STATE),
                    b.get(ReadShareGroupStateApi.Response.ReadStateResult.PartitionResult.StateBatch.DELIVERY_COUNT)));
        }
        // ReadShareGroupState does not carry the leader epoch: -1 here.
        return new PersistedShareState(ErrorCode.NONE, message,
                p.get(ReadShareGroupStateApi.Response.ReadStateResult.PartitionResult.STATE_EPOCH),
                p.get(ReadShareGroupStateApi.Response.ReadStateResult.PartitionResult.START_OFFSET), -1, batches);
    }

    static ShareStateSummary summary(Struct response) {
        Struct p = onlyPartition(response, ReadShareGroupStateSummaryApi.Response.RESULTS,
                ReadShareGroupStateSummaryApi.Response.ReadStateSummaryResult.PARTITIONS);
        if (p == null) {
            return ShareStateSummary.error(ErrorCode.UNKNOWN_SERVER_ERROR, NO_RESULT);
        }
        ErrorCode error = ErrorCode.forCode(p.get(ReadShareGroupStateSummaryApi.Response.ReadStateSummaryResult.PartitionResult.ERROR_CODE));
        String message = p.get(ReadShareGroupStateSummaryApi.Response.ReadStateSummaryResult.PartitionResult.ERROR_MESSAGE);
        if (error != ErrorCode.NONE) {
            return ShareStateSummary.error(error, message);
        }
        return new ShareStateSummary(ErrorCode.NONE, message,
                p.get(ReadShareGroupStateSummaryApi.Response.ReadStateSummaryResult.PartitionResult.STATE_EPOCH),
                p.get(ReadShareGroupStateSummaryApi.Response.ReadStateSummaryResult.PartitionResult.LEADER_EPOCH),
                p.get(ReadShareGroupStateSummaryApi.Response.ReadStateSummaryResult.PartitionResult.START_OFFSET),
                p.get(ReadShareGroupStateSummaryApi.Response.ReadStateSummaryResult.PartitionResult.DELIVERY_COMPLETE_COUNT));
    }
}
