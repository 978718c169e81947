package io.odradek.broker.cluster;

import io.odradek.broker.BrokerConfig;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerSettings;
import io.odradek.replication.quorum.QuorumConfig;
import io.odradek.replication.quorum.RatisControllerChannel;
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
        return RatisControllerChannel.open(quorumConfig(config));
    }

    /**
     * The quorum settings of a cluster node: voters and roles from the config, Ratis storage in
     * metadata.log.dir, the controller's settings (unclean election default, Kafka's producer-id block
     * size), broker.session.timeout.ms, and Raft election timeouts from controller.quorum.election.timeout.ms
     * (Ratis randomizes between it and twice it).
     */
    public static QuorumConfig quorumConfig(BrokerConfig config) {
        BrokerConfig.ClusterRoles roles = config.clusterRoles();
        long election = config.controllerQuorumElectionTimeoutMs();
        return new QuorumConfig(config.nodeId(), roles.controller(), roles.voters(),
                config.metadataLogDir().resolve(STORAGE_DIR),
                new ControllerSettings(config.uncleanLeaderElectionEnable(), ControllerSettings.DEFAULTS.producerIdBlockSize()),
                config.brokerSessionTimeoutMs(), election, 2 * election, QuorumConfig.DEFAULT_REQUEST_TIMEOUT_MS,
                QuorumConfig.DEFAULT_SNAPSHOT_EVERY_ENTRIES);
    }
}
