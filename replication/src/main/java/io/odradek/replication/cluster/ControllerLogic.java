package io.odradek.replication.cluster;

/**
 * Applies commands to images (Kafka's QuorumController's record generation and replay in one step): pure
 * and deterministic, the same inputs giving the same image on every controller. Placement of new replicas
 * follows Kafka's (round robin over the unfenced brokers, rack-aware when brokers have racks), starting at a
 * position derived from the topic id, which the submitter drew at random.
 */
public final class ControllerLogic {
    /** The image after a command, and what to tell its submitter. */
    public record Applied(ClusterImage image, CommandResult result) {
    }

    private final ControllerSettings settings;

    public ControllerLogic(ControllerSettings settings) {
        this.settings = settings;
    }

    /** Applies {@code command}, the metadata log's entry at {@code offset}, to {@code image}. */
    public Applied apply(ClusterImage image, ControllerCommand command, long offset) {
        throw new UnsupportedOperationException("PLACEHOLDER: cluster-model implements this (" + settings + ")");
    }
}
