package io.odradek.wire.api;

import java.util.List;

/** Every API whose messages Odradek can read and write, by key. */
public final class Apis {
    public static final List<ApiSpec> ALL = List.of(
            ProduceApi.SPEC,
            FetchApi.SPEC,
            ListOffsetsApi.SPEC,
            MetadataApi.SPEC,
            OffsetCommitApi.SPEC,
            OffsetFetchApi.SPEC,
            FindCoordinatorApi.SPEC,
            JoinGroupApi.SPEC,
            HeartbeatApi.SPEC,
            LeaveGroupApi.SPEC,
            SyncGroupApi.SPEC,
            DescribeGroupsApi.SPEC,
            ListGroupsApi.SPEC,
            SaslHandshakeApi.SPEC,
            ApiVersionsApi.SPEC,
            CreateTopicsApi.SPEC,
            DeleteTopicsApi.SPEC,
            DeleteRecordsApi.SPEC,
            InitProducerIdApi.SPEC,
            OffsetForLeaderEpochApi.SPEC,
            AddPartitionsToTxnApi.SPEC,
            AddOffsetsToTxnApi.SPEC,
            EndTxnApi.SPEC,
            WriteTxnMarkersApi.SPEC,
            TxnOffsetCommitApi.SPEC,
            DescribeAclsApi.SPEC,
            CreateAclsApi.SPEC,
            DeleteAclsApi.SPEC,
            DescribeConfigsApi.SPEC,
            AlterConfigsApi.SPEC,
            AlterReplicaLogDirsApi.SPEC,
            DescribeLogDirsApi.SPEC,
            SaslAuthenticateApi.SPEC,
            CreatePartitionsApi.SPEC,
            DeleteGroupsApi.SPEC,
            ElectLeadersApi.SPEC,
            IncrementalAlterConfigsApi.SPEC,
            AlterPartitionReassignmentsApi.SPEC,
            ListPartitionReassignmentsApi.SPEC,
            OffsetDeleteApi.SPEC,
            DescribeClientQuotasApi.SPEC,
            AlterClientQuotasApi.SPEC,
            DescribeUserScramCredentialsApi.SPEC,
            AlterUserScramCredentialsApi.SPEC,
            DescribeQuorumApi.SPEC,
            DescribeClusterApi.SPEC,
            DescribeProducersApi.SPEC,
            DescribeTransactionsApi.SPEC,
            ListTransactionsApi.SPEC,
            ConsumerGroupHeartbeatApi.SPEC,
            ConsumerGroupDescribeApi.SPEC,
            // issue 12 (groupconfigs): lists GROUP config resources for kafka-configs --entity-type groups
            ListConfigResourcesApi.SPEC,
            DescribeTopicPartitionsApi.SPEC,
            // issue 12: share groups (KIP-932) and streams groups (KIP-1071)
            ShareGroupHeartbeatApi.SPEC,
            ShareGroupDescribeApi.SPEC,
            ShareFetchApi.SPEC,
            ShareAcknowledgeApi.SPEC,
            InitializeShareGroupStateApi.SPEC,
            ReadShareGroupStateApi.SPEC,
            WriteShareGroupStateApi.SPEC,
            DeleteShareGroupStateApi.SPEC,
            ReadShareGroupStateSummaryApi.SPEC,
            StreamsGroupHeartbeatApi.SPEC,
            StreamsGroupDescribeApi.SPEC,
            DescribeShareGroupOffsetsApi.SPEC,
            AlterShareGroupOffsetsApi.SPEC,
            DeleteShareGroupOffsetsApi.SPEC);

    private static final ApiSpec[] BY_KEY = index();

    private Apis() {
    }

    /** The API with this key, or null if Odradek does not know it. */
    public static ApiSpec forKey(short key) {
        return key >= 0 && key < BY_KEY.length ? BY_KEY[key] : null;
    }

    private static ApiSpec[] index() {
        int max = ALL.stream().mapToInt(ApiSpec::key).max().orElse(0);
        ApiSpec[] byKey = new ApiSpec[max + 1];
        for (ApiSpec spec : ALL) {
            if (byKey[spec.key()] != null) {
                throw new IllegalStateException("two APIs with key " + spec.key());
            }
            byKey[spec.key()] = spec;
        }
        return byKey;
    }
}
