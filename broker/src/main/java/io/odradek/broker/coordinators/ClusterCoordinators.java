package io.odradek.broker.coordinators;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.api.BrokerFeatures;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.sharestate.ClusterSharePersister;
import io.odradek.broker.sharestate.ShareStateTopic;
import io.odradek.broker.topics.TopicService;
import io.odradek.broker.topics.TopicServiceCatalog;
import io.odradek.broker.txn.BrokerClientSender;
import io.odradek.broker.txn.ClusterTransactionMarkerWriter;
import io.odradek.broker.txn.ClusterTransactionVerifier;
import io.odradek.broker.txn.InterBrokerSender;
import io.odradek.broker.txn.LocalTransactionMarkerWriter;
import io.odradek.broker.txn.TransactionStateTopic;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.group.GroupConfigSource;
import io.odradek.coordinator.group.ShareGroupConfig;
import io.odradek.coordinator.group.ShareGroupServices;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.producer.BlockProducerIdManager;
import io.odradek.coordinator.producer.ProducerIdManager;
import io.odradek.coordinator.runtime.CoordinatorLog;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.state.ShareCoordinator;
import io.odradek.coordinator.share.state.ShareCoordinatorConfig;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.coordinator.transaction.TransactionCoordinatorConfig;
import io.odradek.coordinator.transaction.TransactionVerifier;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.replication.fetcher.ClientSecurity;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.Partitions;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

/**
 * The group and transaction coordinators of a broker in a cluster, and what goes with them, made in one
 * place for BrokerServices (a single node keeps its own wiring there):
 * <ul>
 * <li>producer ids in blocks from the controller ({@link BlockProducerIdManager} over
 *     {@link ControllerProducerIdBlocks});</li>
 * <li>a {@link GroupCoordinator} and a {@link TransactionCoordinator} that load nothing by themselves: the
 *     {@link CoordinatorElections} (give {@code elections::onLeadershipChange} to the ReplicaManager as its
 *     LeadershipListener) loads the partitions this broker leads, over {@link LeaderCoordinatorLog}s;</li>
 * <li>the internal topics, created through the controller on the first lookup ({@link InternalTopics});</li>
 * <li>FindCoordinator's {@link ClusterCoordinatorLocator};</li>
 * <li>transaction markers routed to each partition's leader ({@link ClusterTransactionMarkerWriter}), the
 *     WriteTxnMarkers handler's own writer ({@code localMarkers}), and the produce and TxnOffsetCommit paths'
 *     verification with the transactional id's coordinator wherever it is ({@link ClusterTransactionVerifier}).</li>
 * </ul>
 * The partition count of {@code __transaction_state} is taken from the image when the broker starts with
 * the topic in it, else {@code transaction.state.log.num.partitions} (every broker must agree, as in Kafka).
 */
public final class ClusterCoordinators implements AutoCloseable {
    public final ProducerIdManager producerIds;
    public final GroupCoordinator groups;
    public final TransactionCoordinator transactions;
    public final InternalTopics internalTopics;
    public final CoordinatorLocator locator;
    public final CoordinatorElections elections;
    public final TransactionVerifier verifier;
    /** For the WriteTxnMarkers handler: markers other coordinators send for partitions led here. */
    public final LocalTransactionMarkerWriter localMarkers;
    /** issue 12 (sharestate): the share coordinator of the {@code __share_group_state} partitions led here. */
    public final ShareCoordinator shares;
    /** issue 12 (sharestate): share state kept by each key's share coordinator, here or on another broker. */
    public final SharePersister sharePersister;
    /** The senders this made itself, closed with it. */
    private final List<BrokerClientSender> senders = new ArrayList<>();

    private ClusterCoordinators(ProducerIdManager producerIds, GroupCoordinator groups, TransactionCoordinator transactions,
            InternalTopics internalTopics, CoordinatorLocator locator, CoordinatorElections elections,
            TransactionVerifier verifier, LocalTransactionMarkerWriter localMarkers, ShareCoordinator shares,
            SharePersister sharePersister) {
        this.producerIds = producerIds;
        this.groups = groups;
        this.transactions = transactions;
        this.internalTopics = internalTopics;
        this.locator = locator;
        this.elections = elections;
        this.verifier = verifier;
        this.localMarkers = localMarkers;
        this.shares = shares;
        this.sharePersister = sharePersister;
    }

    /** Kafka's request.timeout.ms for inter-broker requests, and a connection attempt's bound. */
    static final int REQUEST_TIMEOUT_MS = 30_000;
    static final int CONNECT_TIMEOUT_MS = 10_000;

    /**
     * Markers and verification go to other brokers over {@link BrokerClientSender}s (one each, so a
     * verification never waits behind a marker being committed on the same connection) at their
     * {@code interBrokerListener} endpoints, connecting as {@code interBrokerSecurity} says.
     *
     * @param producerIdBlockSize the controller's {@code ControllerSettings.producerIdBlockSize}
     */
    public static ClusterCoordinators open(BrokerConfig config, ClusterView cluster, TopicService topics,
            Partitions partitions, BrokerFeatures features, String interBrokerListener, ClientSecurity interBrokerSecurity,
            int producerIdBlockSize) {
        String prefix = "broker-" + cluster.localBrokerId();
        BrokerClientSender markers = new BrokerClientSender(cluster, interBrokerListener, prefix + "-txn-markers",
                CONNECT_TIMEOUT_MS, REQUEST_TIMEOUT_MS, interBrokerSecurity);
        BrokerClientSender verification = new BrokerClientSender(cluster, interBrokerListener, prefix + "-txn-verification",
                CONNECT_TIMEOUT_MS, REQUEST_TIMEOUT_MS, interBrokerSecurity);
        // issue 12 (sharestate): share-state requests to other brokers' share coordinators, on their own connections.
        BrokerClientSender shareState = new BrokerClientSender(cluster, interBrokerListener, prefix + "-share-state",
                CONNECT_TIMEOUT_MS, REQUEST_TIMEOUT_MS, interBrokerSecurity);
        ClusterCoordinators coordinators = open(config, cluster, topics, partitions, features, markers, verification,
                shareState, producerIdBlockSize);
        coordinators.senders.add(markers);
        coordinators.senders.add(verification);
        coordinators.senders.add(shareState);
        return coordinators;
    }

    /**
     * @param markerSender       WriteTxnMarkers to other brokers
     * @param verificationSender AddPartitionsToTxn to other brokers' transaction coordinators
     */
    public static ClusterCoordinators open(BrokerConfig config, ClusterView cluster, TopicService topics,
            Partitions partitions, BrokerFeatures features, InterBrokerSender markerSender,
            InterBrokerSender verificationSender, int producerIdBlockSize) {
        return open(config, cluster, topics, partitions, features, markerSender, verificationSender, markerSender,
                producerIdBlockSize);
    }

    /** @param shareStateSender share-state requests (83-87) to other brokers' share coordinators */
    public static ClusterCoordinators open(BrokerConfig config, ClusterView cluster, TopicService topics,
            Partitions partitions, BrokerFeatures features, InterBrokerSender markerSender,
            InterBrokerSender verificationSender, InterBrokerSender shareStateSender, int producerIdBlockSize) {
        ProducerIdManager producerIds = new BlockProducerIdManager(new ControllerProducerIdBlocks(cluster), producerIdBlockSize);
        InternalTopics internal = new InternalTopics(cluster);

        GroupCoordinatorConfig groupConfig = GroupCoordinatorConfig.from(config.effectiveConfigs());
        InternalTopics.Spec offsets = InternalTopics.offsets(config, groupConfig);
        GroupCoordinator groups = GroupCoordinator.createForElections(groupConfig, leaderLog(partitions, OffsetsTopic.NAME),
                new TopicServiceCatalog(topics), () -> internal.ensure(offsets));
        groups.configureStreams(io.odradek.coordinator.group.StreamsGroupConfig.from(config.effectiveConfigs(),
                groups.groupConfigs())); // issue 12, streams: group configs as BrokerServices' setShareGroups gives them
        topics.onTopicDeleted(topic -> groups.onTopicsDeleted(List.of(topic)));
        // Share groups (issue 12, sharegroup): group.share.* settings; group configs and persister set by BrokerServices.
        groups.setShareGroups(new ShareGroupServices(ShareGroupConfig.from(config.effectiveConfigs()), GroupConfigSource.NONE, null));

        TransactionCoordinatorConfig txnConfig = TransactionCoordinatorConfig.from(config.effectiveConfigs())
                .withTransactionVersionLevel(features.transactionVersion());
        int existing = cluster.image().topic(TransactionStateTopic.NAME).map(t -> t.partitions().size()).orElse(0);
        if (existing > 0) {
            txnConfig = txnConfig.withStateLogPartitions(existing);
        }
        InternalTopics.Spec transactionState = InternalTopics.transactionState(config, txnConfig.stateLogPartitions());
        LocalTransactionMarkerWriter localMarkers = new LocalTransactionMarkerWriter(partitions, groups);
        // The coordinator's own markers: partitions of topics gone from the image are skipped (see the writer).
        LocalTransactionMarkerWriter ownLocalMarkers = new LocalTransactionMarkerWriter(partitions, groups,
                topic -> cluster.image().topic(topic).map(TopicImage::partitions)
                        .map(p -> OptionalInt.of(p.size())).orElse(OptionalInt.empty()));
        TransactionCoordinator transactions = TransactionCoordinator.createPlacingGroupsBy(txnConfig,
                leaderLog(partitions, TransactionStateTopic.NAME), producerIds,
                new ClusterTransactionMarkerWriter(cluster, ownLocalMarkers, markerSender), groups::partitionFor);

        // issue 12 (sharestate): the share coordinator; __share_group_state created through the controller on first need.
        ShareCoordinatorConfig shareConfig = ShareCoordinatorConfig.from(config.effectiveConfigs());
        int existingShareState = cluster.image().topic(ShareStateTopic.NAME).map(t -> t.partitions().size()).orElse(0);
        if (existingShareState > 0) {
            shareConfig = shareConfig.withStateTopicPartitions(existingShareState);
        }
        InternalTopics.Spec shareState = InternalTopics.shareState(shareConfig, shareConfig.stateTopicPartitions());
        ShareCoordinator shares = ShareCoordinator.create(shareConfig, leaderLog(partitions, ShareStateTopic.NAME),
                new TopicServiceCatalog(topics));
        topics.onTopicDeleted(topic -> shares.onTopicsDeleted());
        SharePersister sharePersister = new ClusterSharePersister(cluster, shares, shareStateSender, () -> internal.ensure(shareState));

        CoordinatorLocator locator = new ClusterCoordinatorLocator(cluster, name -> {
            InternalTopics.Spec spec = OffsetsTopic.NAME.equals(name) ? offsets
                    : ShareStateTopic.NAME.equals(name) ? shareState : transactionState;
            CompletableFuture<Integer> creating = internal.ensure(spec);
            creating.exceptionally(e -> 0); // logged by InternalTopics; the next lookup tries again
        });
        // Partition counts from the topic catalog, which has applied the image whose leaderships are reported.
        CoordinatorElections elections = new CoordinatorElections(groups, transactions, shares, name -> topics.topic(name)
                .map(TopicInfo::partitions)
                .orElseGet(() -> cluster.image().topic(name).map(t -> t.partitions().size()).orElse(0)));
        TransactionVerifier verifier = new ClusterTransactionVerifier(cluster, transactions, verificationSender);
        return new ClusterCoordinators(producerIds, groups, transactions, internal, locator, elections, verifier, localMarkers,
                shares, sharePersister);
    }

    /** A coordinator partition's log: its Partition, installed by the ReplicaManager before it reports the election. */
    private static IntFunction<CoordinatorLog> leaderLog(Partitions partitions, String topic) {
        return p -> {
            Partition partition = partitions.partition(topic, p).orElseThrow(() -> new IllegalStateException(
                    "no local replica of " + topic + "-" + p + " (" + ErrorCode.NOT_LEADER_OR_FOLLOWER + ")"));
            return new LeaderCoordinatorLog(partition);
        };
    }

    /**
     * The share coordinator first (after the share partitions that write through it), transactions (their last
     * markers reach the group coordinator), then groups, the senders, producer ids.
     */
    @Override
    public void close() {
        shares.close();
        transactions.close();
        groups.close();
        senders.forEach(BrokerClientSender::close);
        producerIds.close();
    }
}
