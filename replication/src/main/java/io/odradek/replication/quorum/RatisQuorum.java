package io.odradek.replication.quorum;

import java.io.IOException;

/**
 * This node's voter in the metadata quorum: a Ratis server on its CONTROLLER address holding the metadata log
 * (see the design page). API commit: bodies follow.
 */
public final class RatisQuorum implements AutoCloseable {
    private RatisQuorum() {
    }

    /** Starts the Ratis server of a voter ({@code config.controller()} must be true); returns once it is up. */
    public static RatisQuorum start(QuorumConfig config) throws IOException {
        throw new UnsupportedOperationException("in progress");
    }

    /** Whether this voter is the Raft leader (the active controller) now. */
    public boolean isLeader() {
        return false;
    }

    @Override
    public void close() {
    }
}
