package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.coordinator.share.state.ShareCoordinator;
import io.odradek.coordinator.share.state.ShareStateResult;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.WriteShareGroupStateApi;
import io.odradek.wire.api.WriteShareGroupStateApi.Request;
import io.odradek.wire.api.WriteShareGroupStateApi.Request.WriteStateData;
import io.odradek.wire.api.WriteShareGroupStateApi.Request.WriteStateData.PartitionData;
import io.odradek.wire.api.WriteShareGroupStateApi.Response;
import io.odradek.wire.api.WriteShareGroupStateApi.Response.WriteStateResult;
import io.odradek.wire.api.WriteShareGroupStateApi.Response.WriteStateResult.PartitionResult;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * WriteShareGroupState (key 85), versions 0-1. Sent by a share partition's leader to its share coordinator
 * whenever the in-flight state changes: the start offset and the changed batches (delivery state and count),
 * merged into the share partition's state (a ShareUpdate in {@code __share_group_state}, or every
 * {@code share.coordinator.snapshot.update.records.per.snapshot} updates a ShareSnapshot), answered once committed.
 *
 * <p>Behaviour / version notes (Kafka 4.4): v1 (KIP-1226) adds DeliveryCompleteCount (v0: -1, unknown).
 * CLUSTER_ACTION on the cluster, else CLUSTER_AUTHORIZATION_FAILED for every partition; an empty group id, no
 * topics or a topic without partitions: a response without results. Per partition: NOT_COORDINATOR /
 * COORDINATOR_LOAD_IN_PROGRESS when its state partition is not served here, COORDINATOR_NOT_AVAILABLE when the
 * write is not committed within {@code share.coordinator.write.timeout.ms}; INVALID_REQUEST for a negative
 * partition, leader or state epoch and for state never initialized ("Write operation on uninitialized share
 * partition not allowed."); FENCED_LEADER_EPOCH / FENCED_STATE_EPOCH below the recorded epochs;
 * UNKNOWN_TOPIC_OR_PARTITION for a topic partition not in the metadata.
 */
public final class WriteShareGroupStateHandler implements ApiHandler {
    private final ShareStateRequests<ShareStateResult> requests;

    public WriteShareGroupStateHandler(ShareCoordinator coordinator) {
        this.requests = new ShareStateRequests<>(new ShareStateRequests.Shape(Request.GROUP_ID, Request.TOPICS,
                WriteStateData.TOPIC_ID, WriteStateData.PARTITIONS, PartitionData.PARTITION, Response.SCHEMA,
                Response.RESULTS, WriteStateResult.TOPIC_ID, WriteStateResult.PARTITIONS, PartitionResult.PARTITION),
                (key, p) -> coordinator.write(key, p.get(PartitionData.STATE_EPOCH), p.get(PartitionData.LEADER_EPOCH),
                        p.get(PartitionData.START_OFFSET), p.get(PartitionData.DELIVERY_COMPLETE_COUNT), batches(p)),
                (r, answer) -> r.set(PartitionResult.ERROR_CODE, answer.error().code()).set(PartitionResult.ERROR_MESSAGE, answer.message()),
                (r, error) -> r.set(PartitionResult.ERROR_CODE, error.code())
                        .set(PartitionResult.ERROR_MESSAGE, ShareStateRequests.CLUSTER_AUTHORIZATION_FAILED));
    }

    private static List<StateBatch> batches(Struct partition) {
        List<Struct> structs = partition.get(PartitionData.STATE_BATCHES);
        List<StateBatch> out = new ArrayList<>(structs.size());
        for (Struct b : structs) {
            out.add(new StateBatch(b.get(PartitionData.StateBatch.FIRST_OFFSET), b.get(PartitionData.StateBatch.LAST_OFFSET),
                    b.get(PartitionData.StateBatch.DELIVERY_STATE), b.get(PartitionData.StateBatch.DELIVERY_COUNT)));
        }
        return out;
    }

    @Override
    public ApiSpec api() {
        return WriteShareGroupStateApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        return requests.handle(context, request);
    }
}
