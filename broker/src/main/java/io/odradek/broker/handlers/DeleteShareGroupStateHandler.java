package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.share.state.ShareCoordinator;
import io.odradek.coordinator.share.state.ShareStateResult;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DeleteShareGroupStateApi;
import io.odradek.wire.api.DeleteShareGroupStateApi.Request;
import io.odradek.wire.api.DeleteShareGroupStateApi.Request.DeleteStateData;
import io.odradek.wire.api.DeleteShareGroupStateApi.Request.DeleteStateData.PartitionData;
import io.odradek.wire.api.DeleteShareGroupStateApi.Response;
import io.odradek.wire.api.DeleteShareGroupStateApi.Response.DeleteStateResult;
import io.odradek.wire.api.DeleteShareGroupStateApi.Response.DeleteStateResult.PartitionResult;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * DeleteShareGroupState (key 86), version 0. Sent by a group coordinator (DeleteShareGroupOffsets, DeleteGroups of
 * a share group) to the share coordinator of each share partition: its state is dropped (a tombstone in
 * {@code __share_group_state}), answered once committed.
 *
 * <p>Behaviour / version notes (Kafka 4.4): CLUSTER_ACTION on the cluster, else CLUSTER_AUTHORIZATION_FAILED for
 * every partition; an empty group id, no topics or a topic without partitions: a response without results.
 * Per partition: NONE (nothing written) for state never initialized or already deleted; NOT_COORDINATOR /
 * COORDINATOR_LOAD_IN_PROGRESS when its state partition is not served here; INVALID_REQUEST for a negative
 * partition; UNKNOWN_TOPIC_OR_PARTITION for a topic partition not in the metadata (a deleted topic's state
 * is dropped by the coordinator itself).
 */
public final class DeleteShareGroupStateHandler implements ApiHandler {
    private final ShareStateRequests<ShareStateResult> requests;

    public DeleteShareGroupStateHandler(ShareCoordinator coordinator) {
        this.requests = new ShareStateRequests<>(new ShareStateRequests.Shape(Request.GROUP_ID, Request.TOPICS,
                DeleteStateData.TOPIC_ID, DeleteStateData.PARTITIONS, PartitionData.PARTITION, Response.SCHEMA,
                Response.RESULTS, DeleteStateResult.TOPIC_ID, DeleteStateResult.PARTITIONS, PartitionResult.PARTITION),
                (key, p) -> coordinator.delete(key),
                (r, answer) -> r.set(PartitionResult.ERROR_CODE, answer.error().code()).set(PartitionResult.ERROR_MESSAGE, answer.message()),
                (r, error) -> r.set(PartitionResult.ERROR_CODE, error.code())
                        .set(PartitionResult.ERROR_MESSAGE, ShareStateRequests.CLUSTER_AUTHORIZATION_FAILED));
    }

    @Override
    public ApiSpec api() {
        return DeleteShareGroupStateApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        return requests.handle(context, request);
    }
}
