package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.coordinator.share.ShareStateSummary;
import io.odradek.coordinator.share.state.ShareCoordinator;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ReadShareGroupStateSummaryApi;
import io.odradek.wire.api.ReadShareGroupStateSummaryApi.Request;
import io.odradek.wire.api.ReadShareGroupStateSummaryApi.Request.ReadStateSummaryData;
import io.odradek.wire.api.ReadShareGroupStateSummaryApi.Request.ReadStateSummaryData.PartitionData;
import io.odradek.wire.api.ReadShareGroupStateSummaryApi.Response;
import io.odradek.wire.api.ReadShareGroupStateSummaryApi.Response.ReadStateSummaryResult;
import io.odradek.wire.api.ReadShareGroupStateSummaryApi.Response.ReadStateSummaryResult.PartitionResult;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * ReadShareGroupStateSummary (key 87), versions 0-1. Sent by a group coordinator (DescribeShareGroupOffsets,
 * {@code kafka-share-groups --describe}) to the share coordinator of each share partition: its state and leader
 * epochs and start offset, without the batches.
 *
 * <p>Behaviour / version notes (Kafka 4.4): v1 (KIP-1226) adds DeliveryCompleteCount. The leader epoch asked
 * with is not checked and nothing is written. State never initialized answers NONE with start offset -1 (and
 * epochs 0, DeliveryCompleteCount -1). CLUSTER_ACTION on the cluster, else CLUSTER_AUTHORIZATION_FAILED for
 * every partition; an empty group id, no topics or a topic without partitions: a response without results.
 * Per partition: NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS when its state partition is not served here;
 * INVALID_REQUEST for a negative partition; UNKNOWN_TOPIC_OR_PARTITION for a topic partition not in the
 * metadata. An error answers epochs 0, start offset 0, DeliveryCompleteCount -1 (the schema's defaults).
 */
public final class ReadShareGroupStateSummaryHandler implements ApiHandler {
    private final ShareStateRequests<ShareStateSummary> requests;

    public ReadShareGroupStateSummaryHandler(ShareCoordinator coordinator) {
        this.requests = new ShareStateRequests<>(new ShareStateRequests.Shape(Request.GROUP_ID, Request.TOPICS,
                ReadStateSummaryData.TOPIC_ID, ReadStateSummaryData.PARTITIONS, PartitionData.PARTITION, Response.SCHEMA,
                Response.RESULTS, ReadStateSummaryResult.TOPIC_ID, ReadStateSummaryResult.PARTITIONS, PartitionResult.PARTITION),
                (key, p) -> coordinator.readSummary(key),
                ReadShareGroupStateSummaryHandler::fill,
                (r, error) -> fill(r, ShareStateSummary.error(error, ShareStateRequests.CLUSTER_AUTHORIZATION_FAILED)));
    }

    private static void fill(Struct result, ShareStateSummary summary) {
        boolean ok = summary.error() == ErrorCode.NONE;
        result.set(PartitionResult.ERROR_CODE, summary.error().code())
                .set(PartitionResult.ERROR_MESSAGE, summary.message())
                .set(PartitionResult.STATE_EPOCH, ok ? summary.stateEpoch() : 0)
                .set(PartitionResult.LEADER_EPOCH, ok ? summary.leaderEpoch() : 0)
                .set(PartitionResult.START_OFFSET, ok ? summary.startOffset() : 0L)
                .set(PartitionResult.DELIVERY_COMPLETE_COUNT, ok ? summary.deliveryCompleteCount() : -1);
    }

    @Override
    public ApiSpec api() {
        return ReadShareGroupStateSummaryApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        return requests.handle(context, request);
    }
}
