package io.odradek.replication.cluster;

import io.odradek.replication.cluster.ControllerCommand.AllocateProducerIds;
import io.odradek.replication.cluster.ControllerCommand.AlterClusterSettings;
import io.odradek.replication.cluster.ControllerCommand.AlterDynamicConfigs;
import io.odradek.replication.cluster.ControllerCommand.AlterGroupConfigs;
import io.odradek.replication.cluster.ControllerCommand.AlterPartition;
import io.odradek.replication.cluster.ControllerCommand.AlterReassignments;
import io.odradek.replication.cluster.ControllerCommand.AlterScramCredentials;
import io.odradek.replication.cluster.ControllerCommand.AlterTopicConfigs;
import io.odradek.replication.cluster.ControllerCommand.ControlledShutdown;
import io.odradek.replication.cluster.ControllerCommand.CreateAcls;
import io.odradek.replication.cluster.ControllerCommand.CreatePartitions;
import io.odradek.replication.cluster.ControllerCommand.CreateTopics;
import io.odradek.replication.cluster.ControllerCommand.DeleteAcls;
import io.odradek.replication.cluster.ControllerCommand.DeleteTopics;
import io.odradek.replication.cluster.ControllerCommand.ElectLeaders;
import io.odradek.replication.cluster.ControllerCommand.FenceBrokers;
import io.odradek.replication.cluster.ControllerCommand.RegisterBroker;
import io.odradek.replication.cluster.ControllerCommand.UnfenceBroker;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.replication.security.SecurityMetadata;
import io.odradek.wire.ErrorCode;
import java.util.List;

/**
 * Applies commands to images (Kafka's QuorumController's record generation and replay in one step): pure
 * and deterministic, the same inputs giving the same image on every controller. This class only
 * dispatches: broker lifecycle and producer ids are {@link BrokerControl}'s, topics {@link TopicControl}'s,
 * ISR changes, elections and reassignments {@link ReplicationControl}'s, the election rules
 * {@link Elections}'. A refused command leaves the image as it was except for its offset, which always
 * moves to the command's, so a submitter waiting for the image to reach its offset never waits forever.
 *
 * <p>Behaviour notes (Kafka 4.4's controller is the reference): errors and messages as its
 * ReplicationControlManager/ClusterControlManager give them. Differences, on purpose: no eligible leader
 * replicas (ELR), so a fenced last ISR member stays in the ISR and the partition has no leader; new replicas
 * go only to unfenced brokers not shutting down (Kafka may add fenced followers); the cluster id and the
 * cluster-wide settings (unclean election default, producer-id block size: Kafka's controller takes them from
 * its own config) are the first registration's proposals, kept in the image, and later proposals are ignored
 * rather than refused; a topic's unclean election setting is its override, else the image's dynamic cluster
 * default, else those settings (never a node's own per-broker dynamic value, which Kafka's controller also reads:
 * every node must compute the same image); unclean election on
 * an offline partition happens at once when allowed (Kafka waits for a periodic sweep); liveness (session
 * timeouts, DUPLICATE_BROKER_REGISTRATION) is the active controller's, outside this pure logic.
 * Results: RegisterBroker's value is the new broker epoch, AllocateProducerIds' the block's first id,
 * AlterPartition's the new partition epoch; topic and partition commands answer per item; DeleteAcls answers per
 * filter the ACLs it removed. ACL and SCRAM commands are all or nothing with Kafka's checks
 * ({@link SecurityMetadata}); Kafka's controller answers CreateAcls per ACL, which the submitting broker does from
 * its own checks before it submits.
 */
public final class ControllerLogic {
    /** The image after a command, and what to tell its submitter. */
    public record Applied(ClusterImage image, CommandResult result) {
    }

    private final ControllerSettings settings;
    private final BrokerControl brokers = new BrokerControl();
    private final TopicControl topics = new TopicControl();
    private final ReplicationControl replication = new ReplicationControl();

    /** {@code settings}: this node's proposal of the cluster-wide settings; apply never reads it. */
    public ControllerLogic(ControllerSettings settings) {
        this.settings = settings;
    }

    /** This node's proposal of the cluster-wide settings (the image's {@link ClusterImage#settings} apply). */
    public ControllerSettings settings() {
        return settings;
    }

    /**
     * {@code command} as this node submits it: a registration without proposed settings carries this node's,
     * so the first one sets the cluster's (on the submitting side, before the command enters the log).
     */
    public ControllerCommand withProposals(ControllerCommand command) {
        if (command instanceof RegisterBroker c && c.proposedSettings() == null) {
            return c.withProposedSettings(settings);
        }
        return command;
    }

    /** Applies {@code command}, the metadata log's entry at {@code offset}, to {@code image}. */
    public Applied apply(ClusterImage image, ControllerCommand command, long offset) {
        ImageBuilder next = new ImageBuilder(image);
        try {
            CommandResult result = dispatch(next, command, offset);
            return new Applied(next.build(offset), result);
        } catch (MetadataException e) {
            return new Applied(withOffset(image, offset), CommandResult.failed(offset, e.error(), e.getMessage()));
        } catch (RuntimeException e) {
            // A malformed command (a null field, say) must not stop the state machine: every controller
            // refuses it the same way and the log moves on.
            return new Applied(withOffset(image, offset),
                    CommandResult.failed(offset, ErrorCode.UNKNOWN_SERVER_ERROR, "Cannot apply " + command + ": " + e));
        }
    }

    private CommandResult dispatch(ImageBuilder image, ControllerCommand command, long offset) {
        List<ItemResult> none = List.of();
        if (command instanceof RegisterBroker c) {
            return CommandResult.ok(offset, none, brokers.register(image, c, offset));
        } else if (command instanceof UnfenceBroker c) {
            brokers.unfence(image, c);
        } else if (command instanceof FenceBrokers c) {
            brokers.fence(image, c);
        } else if (command instanceof ControlledShutdown c) {
            brokers.controlledShutdown(image, c);
        } else if (command instanceof AlterClusterSettings c) {
            if (c.settings() == null) {
                throw new MetadataException(ErrorCode.INVALID_REQUEST, "No cluster settings given");
            }
            image.settings = c.settings();
        } else if (command instanceof AllocateProducerIds c) {
            return CommandResult.ok(offset, none, brokers.allocateProducerIds(image, c));
        } else if (command instanceof CreateTopics c) {
            return CommandResult.ok(offset, topics.createTopics(image, c), -1);
        } else if (command instanceof DeleteTopics c) {
            return CommandResult.ok(offset, topics.deleteTopics(image, c), -1);
        } else if (command instanceof CreatePartitions c) {
            topics.createPartitions(image, c);
            return CommandResult.ok(offset, List.of(ItemResult.ok(c.topic())), -1);
        } else if (command instanceof AlterTopicConfigs c) {
            topics.alterConfigs(image, c);
        } else if (command instanceof AlterDynamicConfigs c) {
            DynamicConfigControl.apply(image, c);
        } else if (command instanceof AlterGroupConfigs c) {
            DynamicConfigControl.apply(image, c);
        } else if (command instanceof CreateAcls c) {
            image.security = image.security.withAcls(c.acls());
        } else if (command instanceof DeleteAcls c) {
            // Against the image this command applies to: the log orders deletes, so each is atomic.
            SecurityMetadata.Deletion deletion = image.security.withoutMatching(c.filters());
            image.security = deletion.next();
            return new CommandResult(offset, ErrorCode.NONE, null, none, -1, deletion.removed());
        } else if (command instanceof AlterScramCredentials c) {
            image.security = image.security.withScramChanges(c.changes());
        } else if (command instanceof AlterPartition c) {
            return CommandResult.ok(offset, none, replication.alterPartition(image, c));
        } else if (command instanceof ElectLeaders c) {
            return CommandResult.ok(offset, replication.electLeaders(image, c), -1);
        } else if (command instanceof AlterReassignments c) {
            return CommandResult.ok(offset, replication.alterReassignments(image, c), -1);
        } else {
            throw new IllegalArgumentException("unknown command " + command);
        }
        return CommandResult.ok(offset, none, -1);
    }

    /** {@code image} unchanged but at {@code offset}: the log entry there changed nothing. */
    public static ClusterImage withOffset(ClusterImage image, long offset) {
        return new ClusterImage(offset, image.clusterId(), image.brokers(), image.topics(), image.nextProducerId(),
                image.settings(), image.dynamicConfigs(), image.security());
    }
}
