package io.odradek.replication.cluster;

/**
 * Cluster-wide controller defaults: {@code unclean.leader.election.enable} for topics without an override, and
 * the producer-id block size (Kafka's 1000). The values in force are the image's ({@link ClusterImage#settings}),
 * so every controller applies commands alike; a node's configured values are only its proposal, carried by
 * its broker's first registration (see {@link ControllerLogic#withProposals}).
 */
public record ControllerSettings(boolean uncleanLeaderElectionEnable, int producerIdBlockSize) {
    public static final ControllerSettings DEFAULTS = new ControllerSettings(false, 1000);
}
