package io.odradek.broker.coordinators;

import io.odradek.broker.sharestate.ShareStateTopic;
import io.odradek.broker.txn.TransactionStateTopic;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.share.state.ShareCoordinator;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.replication.partition.LeadershipListener;
import java.util.concurrent.CompletableFuture;
import java.util.function.ToIntFunction;

/**
 * Moves the coordinators with the leadership of their internal partitions (Kafka's
 * BrokerMetadataPublisher calling onElection/onResignation): the ReplicaManager tells it, in metadata order
 * on its one thread, which partitions this broker now leads and which it no longer does (it is the
 * ReplicaManager's {@link LeadershipListener}). A {@code __consumer_offsets} partition led here loads its groups (again when led under a newer leader
 * epoch); a
 * {@code __transaction_state} partition its transactional ids, with the leader epoch as the coordinator
 * epoch its markers carry (as Kafka). Both place their keys by the topic's partition count in the image. Losing leadership unloads them: their keys answer NOT_COORDINATOR and
 * clients look the coordinator up again. Other topics are not its business. The loads run on the
 * coordinators' own threads; this only starts them.
 */
public final class CoordinatorElections implements LeadershipListener {
    private static final System.Logger LOG = System.getLogger(CoordinatorElections.class.getName());

    private final GroupCoordinator groups;
    private final TransactionCoordinator transactions;
    private final ToIntFunction<String> partitionCount;
    /** issue 12 (sharestate): loads {@code __share_group_state} partitions led here; null when not given. */
    private final ShareCoordinator shares;

    /**
     * @param transactions   null on a broker without a transaction coordinator
     * @param partitionCount an internal topic's partition count in the image being applied (0 when it is not
     *                       there): the topic catalog, which applies each image before the ReplicaManager
     *                       reports its leaderships (the ClusterView publishes it only after)
     */
    public CoordinatorElections(GroupCoordinator groups, TransactionCoordinator transactions, ToIntFunction<String> partitionCount) {
        this(groups, transactions, null, partitionCount);
    }

    /** @param shares the share coordinator, which loads the {@code __share_group_state} partitions led here; may be null */
    public CoordinatorElections(GroupCoordinator groups, TransactionCoordinator transactions, ShareCoordinator shares,
            ToIntFunction<String> partitionCount) {
        this.groups = groups;
        this.transactions = transactions;
        this.shares = shares;
        this.partitionCount = partitionCount;
    }

    /** This broker became ({@code isLeader}) or stopped being the partition's leader. */
    @Override
    public void onLeadershipChange(String topic, int partition, int leaderEpoch, boolean isLeader) {
        if (shares != null && ShareStateTopic.NAME.equals(topic)) {
            onShareStateLeadership(partition, leaderEpoch, isLeader);
            return;
        }
        boolean offsets = OffsetsTopic.NAME.equals(topic);
        if (!offsets && !(TransactionStateTopic.NAME.equals(topic) && transactions != null)) {
            return;
        }
        CompletableFuture<Void> done;
        try {
            if (offsets) {
                done = isLeader ? groups.onElection(partition, partitionCount(OffsetsTopic.NAME), leaderEpoch) : groups.onResignation(partition);
            } else {
                if (isLeader) {
                    transactions.useStateLogPartitions(partitionCount(TransactionStateTopic.NAME));
                    done = transactions.onElection(partition, leaderEpoch);
                } else {
                    done = transactions.onResignation(partition);
                }
            }
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e); // no local replica to load from: never on the metadata thread
        }
        String what = (isLeader ? "load " : "unload ") + topic + "-" + partition + " (leader epoch " + leaderEpoch + ")";
        LOG.log(System.Logger.Level.DEBUG, what);
        done.whenComplete((v, failure) -> {
            if (failure != null) {
                // Its keys answer NOT_COORDINATOR; the next election of the partition tries again.
                LOG.log(System.Logger.Level.WARNING, "cannot " + what + ": " + failure);
            }
        });
    }

    /**
     * issue 12 (sharestate): a {@code __share_group_state} partition led here loads its share partitions (again when
     * led under a newer epoch: a resignation in between unloaded it); losing it unloads them.
     */
    private void onShareStateLeadership(int partition, int leaderEpoch, boolean isLeader) {
        CompletableFuture<Void> done;
        try {
            if (isLeader) {
                shares.useStateTopicPartitions(partitionCount(ShareStateTopic.NAME));
                done = shares.onElection(partition, leaderEpoch);
            } else {
                done = shares.onResignation(partition);
            }
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        String what = (isLeader ? "load " : "unload ") + ShareStateTopic.NAME + "-" + partition + " (leader epoch " + leaderEpoch + ")";
        done.whenComplete((v, failure) -> {
            if (failure != null) {
                LOG.log(System.Logger.Level.WARNING, "cannot " + what + ": " + failure);
            }
        });
    }

    /** The topic's partition count; 0 (the coordinator keeps what it knows) if not known. */
    private int partitionCount(String topic) {
        try {
            return Math.max(0, partitionCount.applyAsInt(topic));
        } catch (RuntimeException e) {
            return 0;
        }
    }
}
