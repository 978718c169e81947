package io.odradek.broker.coordinators;

import io.odradek.broker.topics.LocalNode;
import io.odradek.broker.txn.TransactionStateTopic;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.replication.cluster.Endpoint;

/**
 * One node leads every partition of {@code __consumer_offsets} and {@code __transaction_state}: the
 * coordinator of any key is this broker, once the internal topic exists. The first lookup of either kind
 * creates its topic in the background (COORDINATOR_NOT_AVAILABLE until it exists, as Kafka answers).
 */
public final class LocalCoordinatorLocator implements CoordinatorLocator {
    private final LocalNode node;
    private final GroupCoordinator groups;
    private final TransactionStateTopic transactions;

    /** @param transactions null on a broker without a transaction coordinator (transactional keys: not available) */
    public LocalCoordinatorLocator(LocalNode node, GroupCoordinator groups, TransactionStateTopic transactions) {
        this.node = node;
        this.groups = groups;
        this.transactions = transactions;
    }

    @Override
    public Coordinator find(byte keyType, String key, String listener) {
        boolean exists = keyType == GROUP ? groups.ensureOffsetsTopic()
                : transactions != null && transactions.ensureCreated();
        Endpoint endpoint = node.endpoint(listener);
        return exists && endpoint != null ? Coordinator.at(node.nodeId(), endpoint.host(), endpoint.port())
                : Coordinator.notAvailable();
    }
}
