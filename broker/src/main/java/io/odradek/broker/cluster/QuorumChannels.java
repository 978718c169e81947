package io.odradek.broker.cluster;

import io.odradek.broker.BrokerConfig;
import io.odradek.replication.cluster.ControllerChannel;
import java.io.IOException;

/**
 * Opens this node's line to the metadata quorum from the broker config: the Ratis voter on the CONTROLLER
 * listener when the node has the controller role (storage in {@code <metadata.log.dir>/__cluster_metadata-ratis}),
 * and a client of the voters in any case.
 */
public final class QuorumChannels {
    /** The Ratis storage directory's name inside metadata.log.dir (or the first log dir). */
    public static final String STORAGE_DIR = "__cluster_metadata-ratis";

    /** How a broker gets its channel; tests pass their own. */
    @FunctionalInterface
    public interface Factory {
        ControllerChannel open(BrokerConfig config) throws IOException;
    }

    private QuorumChannels() {
    }

    public static ControllerChannel open(BrokerConfig config) throws IOException {
        throw new UnsupportedOperationException("PLACEHOLDER: the Ratis quorum (branch quorum) is not merged yet");
    }
}
