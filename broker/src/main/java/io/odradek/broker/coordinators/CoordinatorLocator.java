package io.odradek.broker.coordinators;

import io.odradek.wire.ErrorCode;

/**
 * Where the coordinator of a group or transactional id is, as FindCoordinator answers it: one node, or
 * an error (COORDINATOR_NOT_AVAILABLE while its internal topic is being created or its partition has no
 * leader). Single node: {@link LocalCoordinatorLocator}; cluster: {@link ClusterCoordinatorLocator}.
 */
public interface CoordinatorLocator {
    /** FindCoordinator's key types. */
    byte GROUP = 0;
    byte TRANSACTION = 1;
    /** issue 12 (sharestate): a share partition's coordinator key, {@code groupId:topicId:partition}. */
    byte SHARE = 2;

    /**
     * @param keyType  {@link #GROUP}, {@link #TRANSACTION} or {@link #SHARE} (the handler refuses any other)
     * @param listener the listener the request came on: the coordinator is given at its endpoint of that listener,
     *                 COORDINATOR_NOT_AVAILABLE when it has none (as Kafka)
     */
    Coordinator find(byte keyType, String key, String listener);

    /** A node, or an error with node -1, host "", port -1 (what Kafka sends with an error). */
    record Coordinator(ErrorCode error, int nodeId, String host, int port) {
        public static Coordinator at(int nodeId, String host, int port) {
            return new Coordinator(ErrorCode.NONE, nodeId, host, port);
        }

        public static Coordinator notAvailable() {
            return new Coordinator(ErrorCode.COORDINATOR_NOT_AVAILABLE, -1, "", -1);
        }
    }
}
