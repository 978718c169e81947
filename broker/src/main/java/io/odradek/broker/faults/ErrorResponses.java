package io.odradek.broker.faults;

import io.odradek.broker.api.ApiVersionCap;
import io.odradek.wire.api.AddOffsetsToTxnApi;
import io.odradek.wire.api.AddPartitionsToTxnApi;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ApiVersionsApi;
import io.odradek.wire.api.Apis;
import io.odradek.wire.api.ConsumerGroupHeartbeatApi;
import io.odradek.wire.api.CreateTopicsApi;
import io.odradek.wire.api.DeleteTopicsApi;
import io.odradek.wire.api.DescribeConfigsApi;
import io.odradek.wire.api.DescribeGroupsApi;
import io.odradek.wire.api.EndTxnApi;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.FindCoordinatorApi;
import io.odradek.wire.api.HeartbeatApi;
import io.odradek.wire.api.InitProducerIdApi;
import io.odradek.wire.api.JoinGroupApi;
import io.odradek.wire.api.LeaveGroupApi;
import io.odradek.wire.api.ListGroupsApi;
import io.odradek.wire.api.ListOffsetsApi;
import io.odradek.wire.api.MetadataApi;
import io.odradek.wire.api.OffsetCommitApi;
import io.odradek.wire.api.OffsetFetchApi;
import io.odradek.wire.api.OffsetForLeaderEpochApi;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.api.SyncGroupApi;
import io.odradek.wire.api.TxnOffsetCommitApi;
import io.odradek.wire.schema.Struct;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * issue 11 (faults): the answer to a request that an injected error fails: the request's own response with the error
 * everywhere that response carries one (every partition of a Produce, every topic of a Metadata, every key of a
 * FindCoordinator v4+ ...), shaped as Kafka's {@code AbstractRequest.getErrorResponse} shapes it for that API, so a
 * client sees what a Kafka broker failing the whole request would send. The builders for each family of APIs are in
 * {@link PartitionErrorResponses}, {@link GroupErrorResponses}, {@link TxnErrorResponses} and
 * {@link AdminErrorResponses}; an API with none here cannot be given an error rule.
 */
public final class ErrorResponses {
    /** Builds the error response of one API from its request, at the request's version. */
    @FunctionalInterface
    interface Builder {
        /** @return the response, or null when the request expects none (Produce with acks=0) */
        Struct build(short version, Struct request, short errorCode);
    }

    private static final Map<Short, Builder> BUILDERS = Map.ofEntries(
            Map.entry(ProduceApi.SPEC.key(), PartitionErrorResponses::produce),
            Map.entry(FetchApi.SPEC.key(), PartitionErrorResponses::fetch),
            Map.entry(ListOffsetsApi.SPEC.key(), PartitionErrorResponses::listOffsets),
            Map.entry(MetadataApi.SPEC.key(), PartitionErrorResponses::metadata),
            Map.entry(OffsetForLeaderEpochApi.SPEC.key(), PartitionErrorResponses::offsetForLeaderEpoch),
            Map.entry(FindCoordinatorApi.SPEC.key(), GroupErrorResponses::findCoordinator),
            Map.entry(JoinGroupApi.SPEC.key(), GroupErrorResponses::joinGroup),
            Map.entry(SyncGroupApi.SPEC.key(), GroupErrorResponses::syncGroup),
            Map.entry(HeartbeatApi.SPEC.key(), GroupErrorResponses::heartbeat),
            Map.entry(LeaveGroupApi.SPEC.key(), GroupErrorResponses::leaveGroup),
            Map.entry(OffsetCommitApi.SPEC.key(), GroupErrorResponses::offsetCommit),
            Map.entry(OffsetFetchApi.SPEC.key(), GroupErrorResponses::offsetFetch),
            Map.entry(DescribeGroupsApi.SPEC.key(), GroupErrorResponses::describeGroups),
            Map.entry(ListGroupsApi.SPEC.key(), GroupErrorResponses::listGroups),
            Map.entry(ConsumerGroupHeartbeatApi.SPEC.key(), GroupErrorResponses::consumerGroupHeartbeat),
            Map.entry(InitProducerIdApi.SPEC.key(), TxnErrorResponses::initProducerId),
            Map.entry(AddPartitionsToTxnApi.SPEC.key(), TxnErrorResponses::addPartitionsToTxn),
            Map.entry(AddOffsetsToTxnApi.SPEC.key(), TxnErrorResponses::addOffsetsToTxn),
            Map.entry(EndTxnApi.SPEC.key(), TxnErrorResponses::endTxn),
            Map.entry(TxnOffsetCommitApi.SPEC.key(), TxnErrorResponses::txnOffsetCommit),
            Map.entry(CreateTopicsApi.SPEC.key(), AdminErrorResponses::createTopics),
            Map.entry(DeleteTopicsApi.SPEC.key(), AdminErrorResponses::deleteTopics),
            Map.entry(DescribeConfigsApi.SPEC.key(), AdminErrorResponses::describeConfigs),
            Map.entry(ApiVersionsApi.SPEC.key(), AdminErrorResponses::apiVersions));

    private ErrorResponses() {
    }

    /** Whether requests of this API can be answered with an injected error. */
    public static boolean supports(short apiKey) {
        return BUILDERS.containsKey(apiKey);
    }

    /** The names of the APIs {@link #supports} accepts, sorted by key, for error messages. */
    static String supportedNames() {
        return new TreeMap<>(BUILDERS).keySet().stream().map(k -> Apis.forKey(k).name())
                .collect(Collectors.joining(", "));
    }

    /**
     * The response to {@code request} (of {@code api} at {@code version}) carrying {@code errorCode} wherever it has
     * an error code; null when the request expects no response (Produce with acks=0, as in Kafka).
     *
     * @throws IllegalArgumentException for an API without a builder
     */
    public static Struct build(ApiSpec api, short version, Struct request, short errorCode) {
        return build(api, version, request, errorCode, ApiVersionCap.NONE);
    }

    /**
     * As above, answering as the broker offers its versions under {@code cap} (emulation): an UNSUPPORTED_VERSION
     * ApiVersions lists the emulated release's ApiVersions range, as a broker of that release would.
     */
    public static Struct build(ApiSpec api, short version, Struct request, short errorCode, ApiVersionCap cap) {
        if (api.key() == ApiVersionsApi.SPEC.key()) {
            return AdminErrorResponses.apiVersions(version, request, errorCode, cap.advertised(ApiVersionsApi.SPEC));
        }
        Builder builder = BUILDERS.get(api.key());
        if (builder == null) {
            throw new IllegalArgumentException("no error response for " + api.name());
        }
        return builder.build(version, request, errorCode);
    }
}
