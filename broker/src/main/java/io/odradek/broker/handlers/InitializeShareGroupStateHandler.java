package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.share.state.ShareCoordinator;
import io.odradek.coordinator.share.state.ShareStateResult;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.InitializeShareGroupStateApi;
import io.odradek.wire.api.InitializeShareGroupStateApi.Request;
import io.odradek.wire.api.InitializeShareGroupStateApi.Request.InitializeStateData;
import io.odradek.wire.api.InitializeShareGroupStateApi.Request.InitializeStateData.PartitionData;
import io.odradek.wire.api.InitializeShareGroupStateApi.Response;
import io.odradek.wire.api.InitializeShareGroupStateApi.Response.InitializeStateResult;
import io.odradek.wire.api.InitializeShareGroupStateApi.Response.InitializeStateResult.PartitionResult;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * InitializeShareGroupState (key 83), version 0. Sent by a group coordinator to the share coordinator of each
 * share partition ({@code groupId:topicId:partition}, FindCoordinator key type 2) when a share group is first
 * assigned it, or its start offset is altered: the state restarts at the start offset under the new state epoch
 * (a ShareSnapshot in {@code __share_group_state}), answered once committed.
 *
 * <p>Behaviour / version notes (Kafka 4.4's KafkaApis and ShareCoordinatorService/Shard): CLUSTER_ACTION on the
 * cluster, else CLUSTER_AUTHORIZATION_FAILED for every partition; an empty group id, no topics or a topic
 * without partitions: a response without results. Per partition: NOT_COORDINATOR when its
 * {@code __share_group_state} partition is not led here (COORDINATOR_LOAD_IN_PROGRESS while it loads),
 * INVALID_REQUEST for a negative partition or state epoch, FENCED_STATE_EPOCH for a state epoch below the
 * recorded one, UNKNOWN_TOPIC_OR_PARTITION for a topic partition not in the metadata, each with Kafka's message.
 */
public final class InitializeShareGroupStateHandler implements ApiHandler {
    private final ShareStateRequests<ShareStateResult> requests;

    public InitializeShareGroupStateHandler(ShareCoordinator coordinator) {
        this.requests = new ShareStateRequests<>(new ShareStateRequests.Shape(Request.GROUP_ID, Request.TOPICS,
                InitializeStateData.TOPIC_ID, InitializeStateData.PARTITIONS, PartitionData.PARTITION, Response.SCHEMA,
                Response.RESULTS, InitializeStateResult.TOPIC_ID, InitializeStateResult.PARTITIONS, PartitionResult.PARTITION),
                (key, p) -> coordinator.initialize(key, p.get(PartitionData.STATE_EPOCH), p.get(PartitionData.START_OFFSET)),
                (r, answer) -> r.set(PartitionResult.ERROR_CODE, answer.error().code()).set(PartitionResult.ERROR_MESSAGE, answer.message()),
                (r, error) -> r.set(PartitionResult.ERROR_CODE, error.code())
                        .set(PartitionResult.ERROR_MESSAGE, ShareStateRequests.CLUSTER_AUTHORIZATION_FAILED));
    }

    @Override
    public ApiSpec api() {
        return InitializeShareGroupStateApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        return requests.handle(context, request);
    }
}
