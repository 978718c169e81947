package io.odradek.broker.coordinators;

import io.odradek.broker.sharestate.ShareStateTopic;
import io.odradek.broker.topics.LocalNode;
import io.odradek.broker.txn.TransactionStateTopic;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.replication.cluster.Endpoint;

/**
 * One node leads every partition of {@code __consumer_offsets}, {@code __transaction_state} and
 * {@code __share_group_state}: the
 * coordinator of any key is this broker, once the internal topic exists. The first lookup of either kind
 * creates its topic in the background (COORDINATOR_NOT_AVAILABLE until it exists, as Kafka answers).
 */
public final class LocalCoordinatorLocator implements CoordinatorLocator {
    private final LocalNode node;
    private final GroupCoordinator groups;
    private final TransactionStateTopic transactions;
    private final ShareStateTopic shares;

    /** @param transactions null on a broker without a transaction coordinator (transactional keys: not available) */
    public LocalCoordinatorLocator(LocalNode node, GroupCoordinator groups, TransactionStateTopic transactions) {
        this(node, groups, transactions, null);
    }

    /** @param shares {@code __share_group_state}, created on the first share key lookup; null: share keys not available */
    public LocalCoordinatorLocator(LocalNode node, GroupCoordinator groups, TransactionStateTopic transactions,
            ShareStateTopic shares) {
        this.node = node;
        this.groups = groups;
        this.transactions = transactions;
        this.shares = shares;
    }

    @Override
    public Coordinator find(byte keyType, String key, String listener) {
        boolean exists = switch (keyType) {
            case GROUP -> groups.ensureOffsetsTopic();
            case SHARE -> shares != null && shares.ensureCreated();
            default -> transactions != null && transactions.ensureCreated();
        };
        Endpoint endpoint = node.endpoint(listener);
        return exists && endpoint != null ? Coordinator.at(node.nodeId(), endpoint.host(), endpoint.port())
                : Coordinator.notAvailable();
    }
}
