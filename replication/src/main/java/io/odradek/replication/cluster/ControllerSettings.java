package io.odradek.replication.cluster;

/**
 * The controller's own configuration, the same on every controller (applying a command must give the same
 * image everywhere). {@code producerIdBlockSize}: Kafka's 1000.
 */
public record ControllerSettings(boolean uncleanLeaderElectionEnable, int producerIdBlockSize) {
    public static final ControllerSettings DEFAULTS = new ControllerSettings(false, 1000);
}
