package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.coordinator.share.state.ShareCoordinator;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ReadShareGroupStateApi;
import io.odradek.wire.api.ReadShareGroupStateApi.Request;
import io.odradek.wire.api.ReadShareGroupStateApi.Request.ReadStateData;
import io.odradek.wire.api.ReadShareGroupStateApi.Request.ReadStateData.PartitionData;
import io.odradek.wire.api.ReadShareGroupStateApi.Response;
import io.odradek.wire.api.ReadShareGroupStateApi.Response.ReadStateResult;
import io.odradek.wire.api.ReadShareGroupStateApi.Response.ReadStateResult.PartitionResult;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * ReadShareGroupState (key 84), version 0. Sent by a share partition's new leader to its share coordinator:
 * the state epoch, start offset and in-flight batches the partition resumes from. A leader epoch newer than
 * the recorded one is recorded (written, so it survives), fencing older leaders.
 *
 * <p>Behaviour / version notes (Kafka 4.4): CLUSTER_ACTION on the cluster, else CLUSTER_AUTHORIZATION_FAILED for
 * every partition; an empty group id, no topics or a topic without partitions: a response without results. Per
 * partition: NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS when its state partition is not served here;
 * INVALID_REQUEST for a negative partition or leader epoch and for state never initialized ("Read operation on
 * uninitialized share partition not allowed."); FENCED_LEADER_EPOCH below the recorded epoch;
 * UNKNOWN_TOPIC_OR_PARTITION for a topic partition not in the metadata. An error answers state epoch 0, start
 * offset 0 and no batches (the schema's defaults, as Kafka sends them).
 */
public final class ReadShareGroupStateHandler implements ApiHandler {
    private final ShareStateRequests<PersistedShareState> requests;

    public ReadShareGroupStateHandler(ShareCoordinator coordinator) {
        this.requests = new ShareStateRequests<>(new ShareStateRequests.Shape(Request.GROUP_ID, Request.TOPICS,
                ReadStateData.TOPIC_ID, ReadStateData.PARTITIONS, PartitionData.PARTITION, Response.SCHEMA,
                Response.RESULTS, ReadStateResult.TOPIC_ID, ReadStateResult.PARTITIONS, PartitionResult.PARTITION),
                (key, p) -> coordinator.read(key, p.get(PartitionData.LEADER_EPOCH)),
                ReadShareGroupStateHandler::fill,
                (r, error) -> fill(r, PersistedShareState.error(error, ShareStateRequests.CLUSTER_AUTHORIZATION_FAILED)));
    }

    private static void fill(Struct result, PersistedShareState state) {
        boolean ok = state.error() == ErrorCode.NONE;
        result.set(PartitionResult.ERROR_CODE, state.error().code())
                .set(PartitionResult.ERROR_MESSAGE, state.message())
                .set(PartitionResult.STATE_EPOCH, ok ? state.stateEpoch() : 0)
                .set(PartitionResult.START_OFFSET, ok ? state.startOffset() : 0L);
        if (ok) {
            for (StateBatch b : state.batches()) {
                result.add(PartitionResult.STATE_BATCHES)
                        .set(PartitionResult.StateBatch.FIRST_OFFSET, b.firstOffset())
                        .set(PartitionResult.StateBatch.LAST_OFFSET, b.lastOffset())
                        .set(PartitionResult.StateBatch.DELIVERY_STATE, b.deliveryState())
                        .set(PartitionResult.StateBatch.DELIVERY_COUNT, b.deliveryCount());
            }
        }
    }

    @Override
    public ApiSpec api() {
        return ReadShareGroupStateApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        return requests.handle(context, request);
    }
}
