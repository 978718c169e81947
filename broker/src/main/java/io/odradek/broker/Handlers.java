package io.odradek.broker;

import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.api.ApiVersionCap;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.broker.fetch.session.FetchSessionCache;
import io.odradek.broker.handlers.AddOffsetsToTxnHandler;
import io.odradek.broker.handlers.AddPartitionsToTxnHandler;
import io.odradek.broker.handlers.AlterPartitionReassignmentsHandler;
import io.odradek.broker.handlers.AlterClientQuotasHandler;
import io.odradek.broker.handlers.AlterReplicaLogDirsHandler;
import io.odradek.broker.handlers.AlterUserScramCredentialsHandler;
import io.odradek.broker.handlers.ApiVersionsHandler;
import io.odradek.broker.handlers.DescribeClientQuotasHandler;
import io.odradek.broker.handlers.ConsumerGroupDescribeHandler;
import io.odradek.broker.handlers.ConsumerGroupHeartbeatHandler;
import io.odradek.broker.handlers.AlterShareGroupOffsetsHandler;
import io.odradek.broker.handlers.DeleteShareGroupOffsetsHandler;
import io.odradek.broker.handlers.DescribeShareGroupOffsetsHandler;
import io.odradek.broker.handlers.ShareGroupDescribeHandler;
import io.odradek.broker.handlers.ShareGroupHeartbeatHandler;
import io.odradek.broker.handlers.CreateAclsHandler;
import io.odradek.broker.handlers.CreatePartitionsHandler;
import io.odradek.broker.handlers.CreateTopicsHandler;
import io.odradek.broker.handlers.DeleteAclsHandler;
import io.odradek.broker.handlers.DeleteGroupsHandler;
import io.odradek.broker.handlers.DeleteRecordsHandler;
import io.odradek.broker.handlers.DeleteTopicsHandler;
import io.odradek.broker.handlers.DescribeAclsHandler;
import io.odradek.broker.handlers.DescribeClusterHandler;
import io.odradek.broker.handlers.AlterConfigsHandler;
import io.odradek.broker.handlers.DescribeConfigsHandler;
import io.odradek.broker.handlers.ListConfigResourcesHandler;
import io.odradek.broker.handlers.IncrementalAlterConfigsHandler;
import io.odradek.broker.handlers.DescribeGroupsHandler;
import io.odradek.broker.handlers.DescribeLogDirsHandler;
import io.odradek.broker.handlers.DescribeProducersHandler;
import io.odradek.broker.handlers.DescribeQuorumHandler;
import io.odradek.broker.handlers.DescribeTopicPartitionsHandler;
import io.odradek.broker.handlers.DescribeTransactionsHandler;
import io.odradek.broker.handlers.DescribeUserScramCredentialsHandler;
import io.odradek.broker.handlers.ElectLeadersHandler;
import io.odradek.broker.handlers.EndTxnHandler;
import io.odradek.broker.handlers.FetchHandler;
import io.odradek.broker.handlers.FindCoordinatorHandler;
import io.odradek.broker.handlers.DeleteShareGroupStateHandler;
import io.odradek.broker.handlers.InitializeShareGroupStateHandler;
import io.odradek.broker.handlers.ReadShareGroupStateHandler;
import io.odradek.broker.handlers.ReadShareGroupStateSummaryHandler;
import io.odradek.broker.handlers.WriteShareGroupStateHandler;
import io.odradek.broker.handlers.HeartbeatHandler;
import io.odradek.broker.handlers.InitProducerIdHandler;
import io.odradek.broker.handlers.JoinGroupHandler;
import io.odradek.broker.handlers.LeaveGroupHandler;
import io.odradek.broker.handlers.ListGroupsHandler;
import io.odradek.broker.handlers.ListOffsetsHandler;
import io.odradek.broker.handlers.ListPartitionReassignmentsHandler;
import io.odradek.broker.handlers.ListTransactionsHandler;
import io.odradek.broker.handlers.MetadataHandler;
import io.odradek.broker.handlers.OffsetCommitHandler;
import io.odradek.broker.handlers.OffsetDeleteHandler;
import io.odradek.broker.handlers.OffsetFetchHandler;
import io.odradek.broker.handlers.OffsetForLeaderEpochHandler;
import io.odradek.broker.handlers.ProduceHandler;
import io.odradek.broker.handlers.SaslAuthenticateHandler;
import io.odradek.broker.handlers.SaslHandshakeHandler;
import io.odradek.broker.handlers.ShareAcknowledgeHandler;
import io.odradek.broker.handlers.ShareFetchHandler;
import io.odradek.broker.handlers.StreamsGroupDescribeHandler;
import io.odradek.broker.handlers.StreamsGroupHeartbeatHandler;
import io.odradek.broker.handlers.SyncGroupHandler;
import io.odradek.broker.handlers.TxnOffsetCommitHandler;
import io.odradek.broker.handlers.WriteTxnMarkersHandler;
import io.odradek.broker.metrics.BrokerMetrics;
import io.odradek.broker.quota.RequestThrottler;
import io.odradek.broker.topics.ConfigDescriber;

/** Every API this broker serves, and the services each handler is given. */
final class Handlers {
    private Handlers() {
    }

    /**
     * {@code throttler}: the client quotas (issue 9, quotas), which the fetch handler consults for consumers;
     * {@code metrics}: the broker's meters (issue 11), which the data path counts into.
     */
    static ApiRegistry registry(BrokerConfig config, BrokerServices services, RequestThrottler throttler,
            BrokerMetrics metrics) {
        ApiRegistry registry = new ApiRegistry(ApiVersionCap.of(config.emulatedRelease())); // issue 11 (emulation)
        registry.register(new ApiVersionsHandler(registry, services.features));

        // Topics and cluster metadata.
        ConfigDescriber configs = new ConfigDescriber(services.dynamicBrokerConfig);
        ClusterView cluster = services.cluster;
        registry.register(new MetadataHandler(services.topics, cluster))
                .register(new CreateTopicsHandler(services.topics, configs))
                .register(new DeleteTopicsHandler(services.topics))
                .register(new DescribeClusterHandler(services.topics, cluster))
                .register(new DescribeConfigsHandler(services.topics, configs));
        // Cluster admin: partitions, leaders, reassignments, log dirs and the metadata quorum.
        registry.register(new DescribeTopicPartitionsHandler(cluster))
                .register(new CreatePartitionsHandler(services.topics, cluster))
                .register(new ElectLeadersHandler(cluster))
                .register(new AlterPartitionReassignmentsHandler(cluster))
                .register(new ListPartitionReassignmentsHandler(cluster))
                .register(new DescribeLogDirsHandler(services.topics))
                .register(new DescribeQuorumHandler(cluster));
        // Dynamic configs (issue 9, configs): topic and broker configs altered, stored and applied live.
        registry.register(new AlterConfigsHandler(services.topics, services.dynamicBrokerConfig))
                .register(new IncrementalAlterConfigsHandler(services.topics, services.dynamicBrokerConfig));
        // Group configs (issue 12, groupconfigs): GROUP resources are altered and described by the handlers above;
        // this one lists them (kafka-configs --entity-type groups --describe without a name).
        registry.register(new ListConfigResourcesHandler(services.cluster, services.groupConfigs));

        // Client quotas (issue 9, quotas): stored in the dynamic configs; enforced on the request path.
        registry.register(new DescribeClientQuotasHandler(services.dynamicConfigs))
                .register(new AlterClientQuotasHandler(services.dynamicConfigs));

        // The data path, through the partitions: an append wakes the operations parked on its partition.
        PartitionLogs logs = PartitionLogs.of(services.topics);
        // issue 11 (metrics): both count into the BrokerTopicMetrics meters; a deleted topic's meters go with it.
        services.topics.onTopicDeleted(metrics.topics()::remove);
        registry.register(new ProduceHandler(logs, services.partitions, services.cluster, services.transactionVerifier,
                        config.transactionPartitionVerificationEnable()).withMetrics(metrics.topics()))
                // Fetch sessions (issue 9, sessions): one cache per broker, sessions of at most the broker's partitions,
                // all together at most odradek.fetch.session.cache.max.partitions.
                .register(new FetchHandler(logs, services.partitions, services.cluster, config.fetchMaxBytes(),
                        FetchSessionCache.of(config.maxIncrementalFetchSessionCacheSlots(), config.maxPartitions(),
                                config.fetchSessionCacheMaxPartitions()))
                        .withConsumerQuota(throttler.consumerFetchQuota()) // client quotas (issue 9, quotas)
                        .withMetrics(metrics.topics()))
                .register(new ListOffsetsHandler(services.partitions, services.cluster))
                .register(new OffsetForLeaderEpochHandler(services.partitions, services.cluster))
                .register(new InitProducerIdHandler(services.producerIds, services.transactions));

        // issue 12 share fetch: share consumers' fetches and acknowledgements, through the share partitions led here.
        registry.register(new ShareFetchHandler(services.shares, logs, services.partitions, services.cluster,
                        config.fetchMaxBytes()))
                .register(new ShareAcknowledgeHandler(services.shares, logs, services.partitions, services.cluster));

        // Consumer groups: the classic protocol, committed offsets and KIP-848's consumer protocol.
        registry.register(new FindCoordinatorHandler(services.coordinatorLocator))
                .register(new JoinGroupHandler(services.groups))
                .register(new SyncGroupHandler(services.groups))
                .register(new HeartbeatHandler(services.groups))
                .register(new LeaveGroupHandler(services.groups))
                .register(new OffsetCommitHandler(services.groups, services.topics))
                .register(new OffsetFetchHandler(services.groups, services.topics))
                .register(new ListGroupsHandler(services.groups))
                .register(new DescribeGroupsHandler(services.groups))
                .register(new DeleteGroupsHandler(services.groups))
                .register(new OffsetDeleteHandler(services.groups, services.topics))
                .register(new ConsumerGroupHeartbeatHandler(services.groups))
                .register(new ConsumerGroupDescribeHandler(services.groups, services.topics));
        // issue 12, streams groups (KIP-1071)
        registry.register(new StreamsGroupHeartbeatHandler(services.groups, services.topics))
                .register(new StreamsGroupDescribeHandler(services.groups));
        // Share groups (issue 12, sharegroup): membership and the share group offsets, in the group coordinator.
        registry.register(new ShareGroupHeartbeatHandler(services.groups))
                .register(new ShareGroupDescribeHandler(services.groups, services.topics))
                .register(new DescribeShareGroupOffsetsHandler(services.groups, services.topics))
                .register(new AlterShareGroupOffsetsHandler(services.groups, services.topics))
                .register(new DeleteShareGroupOffsetsHandler(services.groups, services.topics));

        // issue 12 (sharestate): the share-state APIs brokers send the share coordinator of a share partition
        // (FindCoordinator key type 2); answered for the __share_group_state partitions led here.
        registry.register(new InitializeShareGroupStateHandler(services.shareCoordinator))
                .register(new ReadShareGroupStateHandler(services.shareCoordinator))
                .register(new WriteShareGroupStateHandler(services.shareCoordinator))
                .register(new DeleteShareGroupStateHandler(services.shareCoordinator))
                .register(new ReadShareGroupStateSummaryHandler(services.shareCoordinator));

        // Transactions: the transaction coordinator over __transaction_state; offsets committed in a transaction
        // (verified with that coordinator); markers from outside tools (kafka-transactions abort) and the
        // producers a partition knows. The coordinator writes its own markers through the same kind of writer.
        registry.register(new AddPartitionsToTxnHandler(services.transactions, services.topics))
                .register(new AddOffsetsToTxnHandler(services.transactions))
                .register(new EndTxnHandler(services.transactions))
                .register(new TxnOffsetCommitHandler(services.groups, services.transactionVerifier, services.topics))
                .register(new WriteTxnMarkersHandler(services.localMarkers))
                .register(new ListTransactionsHandler(services.transactions))
                .register(new DescribeTransactionsHandler(services.transactions))
                .register(new DescribeProducersHandler(services.partitions, services.cluster));

        // records (issue 9): DeleteRecords moves a partition's log start offset forward; AlterReplicaLogDirs moves
        // a partition's log to another log dir.
        registry.register(new DeleteRecordsHandler(services.partitions, services.cluster))
                .register(new AlterReplicaLogDirsHandler(services.topics, services.partitions, services.replicaManager));

        // ACLs (issue 10, authorizer): CreateAcls / DescribeAcls / DeleteAcls over the ACLs of the cluster metadata,
        // which the authorizer (Authorizers.create) follows.
        registry.register(new CreateAclsHandler(services.security))
                .register(new DescribeAclsHandler(services.security))
                .register(new DeleteAclsHandler(services.security));
        // SCRAM credentials (issue 10, wire10): kept in the cluster's security metadata, what SASL/SCRAM logins check.
        registry.register(new DescribeUserScramCredentialsHandler(services.security))
                .register(new AlterUserScramCredentialsHandler(services.security));

        // SASL (issue 10, sasl): answered by the connection's authenticator on SASL listeners; these answer what
        // Kafka's KafkaApis answers elsewhere (ILLEGAL_SASL_STATE), and make ApiVersions advertise both.
        registry.register(new SaslHandshakeHandler())
                .register(new SaslAuthenticateHandler());
        return registry;
    }
}
