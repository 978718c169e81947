package io.odradek.broker;

import io.odradek.broker.api.BrokerFeatures;
import io.odradek.broker.cluster.BrokerLocalLogs;
import io.odradek.broker.cluster.ClusterNode;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.cluster.QuorumChannels;
import io.odradek.broker.cluster.SingleNodeClusterView;
import io.odradek.broker.coordinators.ClusterCoordinators;
import io.odradek.broker.coordinators.CoordinatorLocator;
import io.odradek.broker.coordinators.LocalCoordinatorLocator;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.broker.group.GroupConfigs;
import io.odradek.broker.security.InterBrokerSecurity;
import io.odradek.broker.sharestate.ShareStateTopic;
import io.odradek.coordinator.share.partition.ScheduledShareTimers;
import io.odradek.broker.share.SharePartitionManager;
import io.odradek.broker.topics.LocalNode;
import io.odradek.broker.topics.TopicService;
import io.odradek.broker.topics.TopicServiceCatalog;
import io.odradek.broker.txn.LocalTransactionMarkerWriter;
import io.odradek.broker.txn.TransactionStateTopic;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.GroupConfigSource;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.group.GroupConfigSource;
import io.odradek.coordinator.group.ShareGroupConfig;
import io.odradek.coordinator.group.ShareGroupServices;
import io.odradek.coordinator.group.StreamsGroupConfig;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.producer.ProducerIdManager;
import io.odradek.coordinator.runtime.CoordinatorLog;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.state.LocalSharePersister;
import io.odradek.coordinator.share.state.ShareCoordinator;
import io.odradek.coordinator.share.state.ShareCoordinatorConfig;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.coordinator.transaction.TransactionCoordinatorConfig;
import io.odradek.coordinator.transaction.TransactionVerifier;
import io.odradek.broker.config.DynamicBrokerConfig;
import io.odradek.replication.cluster.ControllerSettings;
import io.odradek.replication.config.DynamicConfigStore;
import io.odradek.replication.config.ImageDynamicConfigStore;
import io.odradek.replication.config.LocalDynamicConfigStore;
import io.odradek.replication.metadata.ClusterMetadata;
import io.odradek.replication.security.ImageSecurityMetadataStore;
import io.odradek.replication.security.LocalSecurityMetadataStore;
import io.odradek.replication.security.SecurityMetadataStore;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.PartitionCoordinatorLog;
import io.odradek.replication.partition.PartitionWriters;
import io.odradek.replication.partition.Partitions;
import io.odradek.replication.partition.ReplicaManager;
import io.odradek.replication.partition.WaitingOperations;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntFunction;

/**
 * The broker's stateful services, opened in dependency order (topics and their logs, producer ids, the
 * partitions, groups over {@code __consumer_offsets}'s partitions, transactions over
 * {@code __transaction_state}'s, whose markers go to data partitions and to the group coordinator) and
 * closed in reverse, so each coordinator's last writes reach partitions and logs that are still open. A
 * failure while opening closes whatever was already open.
 */
final class BrokerServices implements AutoCloseable {
    final TopicService topics;
    final ProducerIdManager producerIds;
    final GroupCoordinator groups;
    /** The data path's partitions, their writer threads and the waiting-operations set. */
    final Partitions partitions;
    /** The feature levels ApiVersions reports; fixed for the broker's life. */
    final BrokerFeatures features;
    final TransactionCoordinator transactions;
    /** Single node: creates {@code __transaction_state} on first FindCoordinator for a transactional id; null in a cluster. */
    final TransactionStateTopic transactionStateTopic;
    /** FindCoordinator's answer: this broker on a single node, the coordinator partition's leader in a cluster. */
    final CoordinatorLocator coordinatorLocator;
    /** Where produce and TxnOffsetCommit verify a transaction: the local coordinator, or the remote one in a cluster. */
    final TransactionVerifier transactionVerifier;
    /** WriteTxnMarkers' writer: markers for partitions led here. */
    final LocalTransactionMarkerWriter localMarkers;
    /** Cluster mode: the coordinators and what they need across brokers; null on a single node. */
    private final ClusterCoordinators clusterCoordinators;
    /** The cluster as handlers see it: synthesized from the local catalog on a single node. */
    final ClusterView cluster;
    /** Cluster mode (process.roles set): registration, heartbeats, images; null on a single node. */
    final ClusterNode clusterNode;
    /** Cluster mode: this broker's replicas made leader or follower by each image; null on a single node. */
    final ReplicaManager replicaManager;
    // Dynamic configs (issue 9, configs): broker configs and client quotas, a file on a single node, the
    // metadata image in a cluster; the broker config with its dynamic layers, which the log defaults follow.
    public final DynamicConfigStore dynamicConfigs;
    final DynamicBrokerConfig dynamicBrokerConfig;
    /**
     * issue 10: ACLs and SCRAM credentials: {@code __cluster_metadata/security} on a single node, the metadata
     * image's security section in a cluster (changed through the controller); open before any handler serves.
     */
    public final SecurityMetadataStore security;
    // issue 12 (sharestate): the share coordinator over __share_group_state (the share-state APIs 83-87 answer for
    // the partitions led here) and where share partitions and the group coordinator keep share state through it.
    final ShareCoordinator shareCoordinator;
    /** Share-partition state: this broker's share coordinator on one node; in a cluster the key's coordinator, wherever it is. */
    final SharePersister sharePersister;
    /**
     * Issue 12 (groupconfigs): the groups' dynamic configs (GROUP resources) over the broker's group.* defaults, in
     * the same store as the broker configs; the GroupConfigSource the group coordinator and share partitions read.
     */
    public final GroupConfigs groupConfigs;
    /** issue 12 share fetch: the share partitions led here and the share sessions (set by {@link #withShares}). */
    SharePartitionManager shares;

    private BrokerServices(ClusterNode clusterNode, ReplicaManager replicaManager, ClusterView cluster,
            TopicService topics, ProducerIdManager producerIds, GroupCoordinator groups,
            Partitions partitions, BrokerFeatures features, TransactionCoordinator transactions,
            TransactionStateTopic transactionStateTopic, CoordinatorLocator coordinatorLocator,
            TransactionVerifier transactionVerifier, LocalTransactionMarkerWriter localMarkers,
            ClusterCoordinators clusterCoordinators, DynamicBrokerConfig dynamicBrokerConfig,
            SecurityMetadataStore security, ShareCoordinator shareCoordinator, SharePersister sharePersister) {
        this.clusterNode = clusterNode;
        this.replicaManager = replicaManager;
        this.cluster = cluster;
        this.topics = topics;
        this.producerIds = producerIds;
        this.groups = groups;
        this.partitions = partitions;
        this.features = features;
        this.transactions = transactions;
        this.transactionStateTopic = transactionStateTopic;
        this.coordinatorLocator = coordinatorLocator;
        this.transactionVerifier = transactionVerifier;
        this.localMarkers = localMarkers;
        this.clusterCoordinators = clusterCoordinators;
        this.dynamicBrokerConfig = dynamicBrokerConfig;
        this.dynamicConfigs = dynamicBrokerConfig.store();
        this.security = security;
        this.shareCoordinator = shareCoordinator;
        this.sharePersister = sharePersister;
        this.groupConfigs = new GroupConfigs(dynamicBrokerConfig);
        // Share groups (issue 12, sharegroup): the group coordinator reads share.session.timeout.ms /
        // share.heartbeat.interval.ms from the group configs and keeps share state through the SharePersister.
        groups.setShareGroups(new ShareGroupServices(groups.shareGroups().config(), groupConfigs, sharePersister));
    }

    /** With this broker as the config advertises it (tests; a port-0 listener is advertised as port 0). */
    static BrokerServices open(BrokerConfig config) {
        return open(config, Broker.localNode(config, listener -> 0));
    }

    static BrokerServices open(BrokerConfig config, LocalNode node) {
        return open(config, node, QuorumChannels::open);
    }

    /** In cluster mode the quorum channel comes from {@code quorum}. */
    static BrokerServices open(BrokerConfig config, LocalNode node, QuorumChannels.Factory quorum) {
        // Single node: the stored dynamic configs are read before the logs open, so retention and cleaning start
        // with them (a longer dynamic log.retention.ms must hold from the first pass).
        DynamicBrokerConfig storedDynamic = config.isClusterMode() ? null : new DynamicBrokerConfig(config,
                new LocalDynamicConfigStore(config.logDirs().get(0).resolve(ClusterMetadata.DIR_NAME)));
        // Single node: ACLs and SCRAM credentials from their file, read before anything opens, so a corrupt file
        // stops the start here (the broker never serves without the ACLs it had).
        SecurityMetadataStore storedSecurity = config.isClusterMode() ? null
                : new LocalSecurityMetadataStore(config.logDirs().get(0).resolve(ClusterMetadata.DIR_NAME));
        TopicService topics = TopicService.open(storedDynamic == null ? config : storedDynamic.current());
        ClusterNode clusterNode = null;
        ReplicaManager replicaManager = null;
        ProducerIdManager producerIds = null;
        Partitions partitions = null;
        GroupCoordinator groups = null;
        TransactionCoordinator transactions = null;
        ShareCoordinator shares = null;
        ClusterCoordinators coordinators = null;
        try {
            ClusterView cluster;
            if (config.isClusterMode()) {
                clusterNode = ClusterNode.open(config, topics, node, quorum);
                cluster = clusterNode.view();
            } else {
                cluster = new SingleNodeClusterView(topics, node);
            }
            partitions = new Partitions(PartitionLogs.of(topics), new PartitionWriters(writerThreads(config)),
                    new WaitingOperations<Partition>("waiting-operations"));
            topics.onTopicDeleted(partitions::removeTopic);
            // issue 11 (emulation): an emulated release's feature levels, which the transaction coordinator follows too.
            BrokerFeatures features = BrokerFeatures.of(config.emulatedRelease(), System.currentTimeMillis());
            if (clusterNode != null) {
                // After the catalog and logs follow an image, the replicas do: leader or follower, fetchers; the
                // coordinators load and unload with the leadership of their partitions, so they listen first.
                // issue 10 (listeners): fetchers and inter-broker senders reach the inter-broker listener as its
                // protocol says (TLS, SASL with sasl.mechanism.inter.broker.protocol).
                // Static keys until the first image brings the stored dynamic ones (the listener below).
                InterBrokerSecurity interBroker = new InterBrokerSecurity(config);
                replicaManager = new ReplicaManager(config.nodeId(), partitions, clusterNode.channel(),
                        new BrokerLocalLogs(topics), config.replicationSettings().withClientSecurity(interBroker),
                        clusterNode::brokerEpoch);
                coordinators = ClusterCoordinators.open(config, cluster, topics, partitions, features,
                        config.interBrokerListenerName(), interBroker, ControllerSettings.DEFAULTS.producerIdBlockSize());
                replicaManager.addLeadershipListener(coordinators.elections::onLeadershipChange);
                clusterNode.addImageListener(replicaManager::applyImage);
                ClusterView view = cluster;
                ImageDynamicConfigStore store = new ImageDynamicConfigStore(clusterNode.channel(),
                        offset -> view.awaitApplied(offset));
                DynamicBrokerConfig dynamic = dynamicBrokerConfig(config, store, topics);
                dynamic.addListener(interBroker::reconfigure);
                clusterNode.addImageListener(store::apply);
                ImageSecurityMetadataStore security = new ImageSecurityMetadataStore(clusterNode.channel(),
                        offset -> view.awaitApplied(offset));
                // Before the catalog and leaderships of each image: a partition led here is never served under older ACLs.
                clusterNode.addSecurityImageListener(security::apply);
                // After the first image's topic configs and dynamic defaults apply (the listener above), not before.
                clusterNode.addImageListener(image -> topics.releaseRetention());
                return withShares(config, new BrokerServices(clusterNode, replicaManager, cluster, topics, coordinators.producerIds,
                        coordinators.groups, partitions, features, coordinators.transactions, null, coordinators.locator,
                        coordinators.verifier, coordinators.localMarkers, coordinators, dynamic, security,
                        coordinators.shares, coordinators.sharePersister));
            }
            // Producer ids live in the first log dir, beside the cluster metadata.
            producerIds = ProducerIdManager.open(config.logDirs().get(0));
            groups = startGroupCoordinator(config, topics, partitions);
            transactions = startTransactionCoordinator(config, topics, partitions, producerIds,
                    groups, features);
            TransactionStateTopic stateTopic = TransactionStateTopic.start(topics, transactions,
                    transactions.config().stateLogPartitions(), config.transactionStateLogSegmentBytes());
            shares = startShareCoordinator(config, topics, partitions);
            ShareStateTopic shareStateTopic = ShareStateTopic.start(topics, shares);
            DynamicBrokerConfig dynamic = follow(storedDynamic, topics);
            return withShares(config, new BrokerServices(null, null, cluster, topics, producerIds, groups, partitions, features,
                    transactions, stateTopic, new LocalCoordinatorLocator(node, groups, stateTopic, shareStateTopic), transactions,
                    new LocalTransactionMarkerWriter(partitions, groups), null, dynamic, storedSecurity,
                    shares, new LocalSharePersister(shares, shareStateTopic::ready)));
        } catch (RuntimeException e) {
            if (coordinators != null) {
                coordinators.close();
            }
            if (shares != null) {
                shares.close();
            }
            if (transactions != null) {
                transactions.close();
            }
            if (groups != null) {
                groups.close();
            }
            if (replicaManager != null) {
                replicaManager.close();
            }
            if (partitions != null) {
                partitions.close();
            }
            if (producerIds != null) {
                producerIds.close();
            }
            if (clusterNode != null) {
                clusterNode.close();
            }
            topics.close();
            throw e;
        }
    }

    /**
     * issue 12 share fetch: the share partition manager over the partitions, closed with leadership moving away
     * (cluster) and with deleted topics; share state through the share coordinator ({@code sharePersister}), group
     * overrides from {@code groupConfigs}.
     */
    private static BrokerServices withShares(BrokerConfig config, BrokerServices services) {
        SharePartitionManager shares = new SharePartitionManager(services.partitions, services.sharePersister,
                services.groupConfigs, new ScheduledShareTimers());
        services.topics.onTopicDeleted(shares::onTopicDeleted);
        if (services.replicaManager != null) {
            services.replicaManager.addLeadershipListener(shares::onLeadershipChange);
        }
        services.shares = shares;
        return services;
    }

    /**
     * The broker config with its dynamic layers from {@code store}; the log defaults follow it from now on (and
     * at once, when stored dynamic configs differ from the static ones: persisted changes survive a restart).
     */
    private static DynamicBrokerConfig dynamicBrokerConfig(BrokerConfig config, DynamicConfigStore store,
            TopicService topics) {
        return follow(new DynamicBrokerConfig(config, store), topics);
    }

    private static DynamicBrokerConfig follow(DynamicBrokerConfig dynamic, TopicService topics) {
        dynamic.addListener(current -> topics.updateLogDefaults(current.logDefaults()));
        if (!dynamic.current().logDefaults().equals(topics.logDefaults())) {
            topics.updateLogDefaults(dynamic.current().logDefaults());
        }
        return dynamic;
    }

    /**
     * num.io.threads, but no more than there are cores: a writer appends without blocking on anything but
     * the disk, so writers beyond the cores only add thread switches to every produce (Kafka's request
     * handler threads, which the key sizes there, also wait on locks and purgatory).
     */
    static int writerThreads(BrokerConfig config) {
        return Math.max(1, Math.min(config.numIoThreads(), Runtime.getRuntime().availableProcessors()));
    }

    /**
     * Starts the group coordinator over {@code __consumer_offsets}, loading it if it exists. Otherwise it
     * is created on first need (a FindCoordinator or group request), as Kafka does, on the metadata
     * thread; its partition count is fixed from then on. Deleted topics drop their committed offsets.
     */
    private static GroupCoordinator startGroupCoordinator(BrokerConfig config, TopicService topics, Partitions partitions) {
        GroupCoordinatorConfig groupConfig = GroupCoordinatorConfig.from(config.effectiveConfigs());
        // The runtime writes through each offsets partition's Partition, like any producer.
        IntFunction<CoordinatorLog> logs = p -> new PartitionCoordinatorLog(partitions.partition(OffsetsTopic.NAME, p).orElseThrow());
        TopicServiceCatalog catalog = new TopicServiceCatalog(topics);
        Optional<TopicInfo> existing = topics.topic(OffsetsTopic.NAME);
        GroupCoordinator groups;
        if (existing.isPresent()) {
            groups = GroupCoordinator.create(groupConfig.withOffsetsTopicPartitions(existing.get().partitions()), logs, catalog);
            // issue 12, streams: before any partition loads; group configs as setShareGroups gives them later
            groups.configureStreams(StreamsGroupConfig.from(config.effectiveConfigs(), groups.groupConfigs()));
            groups.startup();
        } else {
            groups = GroupCoordinator.createOnDemand(groupConfig, logs, catalog, () -> topics.async(() -> topics.topic(OffsetsTopic.NAME)
                    .orElseGet(() -> topics.createTopic(OffsetsTopic.NAME, groupConfig.offsetsTopicPartitions(),
                            groupConfig.offsetsTopicConfigs(), false))
                    .partitions()));
            groups.configureStreams(StreamsGroupConfig.from(config.effectiveConfigs(), groups.groupConfigs())); // issue 12, streams
        }
        topics.onTopicDeleted(topic -> groups.onTopicsDeleted(List.of(topic)));
        // Share groups (issue 12, sharegroup): group.share.* settings; group configs and persister once the services exist.
        groups.setShareGroups(new ShareGroupServices(ShareGroupConfig.from(config.effectiveConfigs()), GroupConfigSource.NONE, null));
        return groups;
    }

    /**
     * The transaction coordinator over {@code __transaction_state}, with Kafka's {@code transaction.*} keys
     * and the finalized {@code transaction.version}. An existing topic's partition count wins over
     * {@code transaction.state.log.num.partitions}, as in Kafka. Markers go to data partitions through
     * their {@link Partitions} and to {@code __consumer_offsets} through the group coordinator, whose
     * partition for a group AddOffsetsToTxn uses too; partitions of topics deleted meanwhile are skipped
     * (see {@link LocalTransactionMarkerWriter}). Loading
     * (or creating the topic on first need) is {@link TransactionStateTopic}'s.
     */
    private static TransactionCoordinator startTransactionCoordinator(BrokerConfig config, TopicService topics,
            Partitions partitions, ProducerIdManager producerIds, GroupCoordinator groups, BrokerFeatures features) {
        TransactionCoordinatorConfig txnConfig = TransactionCoordinatorConfig.from(config.effectiveConfigs())
                .withTransactionVersionLevel(features.transactionVersion());
        int existing = TransactionStateTopic.existingPartitions(topics);
        if (existing > 0) {
            txnConfig = txnConfig.withStateLogPartitions(existing);
        }
        IntFunction<CoordinatorLog> logs = p -> new PartitionCoordinatorLog(
                partitions.partition(TransactionStateTopic.NAME, p).orElseThrow());
        // AddOffsetsToTxn places a group where the group coordinator does: by __consumer_offsets' real count.
        return TransactionCoordinator.createPlacingGroupsBy(txnConfig, logs, producerIds,
                new LocalTransactionMarkerWriter(partitions, groups, topic -> topics.topic(topic)
                        .map(t -> OptionalInt.of(t.partitions())).orElse(OptionalInt.empty())),
                groups::partitionFor);
    }

    /**
     * issue 12 (sharestate): the share coordinator over {@code __share_group_state}'s partitions, with Kafka's
     * {@code share.coordinator.*} keys; share partitions must be partitions of the catalog's topics. Loading (or
     * creating the topic on first need) is {@link ShareStateTopic}'s; a deleted topic's share state is dropped.
     */
    private static ShareCoordinator startShareCoordinator(BrokerConfig config, TopicService topics, Partitions partitions) {
        IntFunction<CoordinatorLog> logs = p -> new PartitionCoordinatorLog(partitions.partition(ShareStateTopic.NAME, p).orElseThrow());
        ShareCoordinator shares = ShareCoordinator.create(ShareCoordinatorConfig.from(config.effectiveConfigs()), logs,
                new TopicServiceCatalog(topics));
        topics.onTopicDeleted(topic -> shares.onTopicsDeleted());
        return shares;
    }

    /** Call once no handler runs any more: nothing may append while the logs flush and close. */
    @Override
    public void close() {
        if (shares != null) {
            shares.close(); // issue 12 share fetch: lock timers stop and sessions end before the share coordinator goes
        }
        if (clusterCoordinators != null) {
            clusterCoordinators.close(); // shares, transactions, groups, inter-broker senders, producer id blocks
        } else {
            // issue 12 (sharestate): after the share partitions (which write their state through it), before the logs.
            shareCoordinator.close();
            transactions.close(); // its markers still reach open partitions and the group coordinator
            groups.close();
        }
        if (replicaManager != null) {
            replicaManager.close(); // fetchers and the ISR task stop
        }
        partitions.close(); // appends already handed to the writers finish before the logs close
        if (clusterNode != null) {
            clusterNode.close(); // heartbeats stop, then the quorum (this node's voter) closes
        }
        if (clusterCoordinators == null) {
            producerIds.close();
        }
        topics.close();
    }
}
