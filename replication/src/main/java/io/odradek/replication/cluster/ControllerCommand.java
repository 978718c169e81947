package io.odradek.replication.cluster;

import io.odradek.replication.config.QuotaEntity;
import io.odradek.replication.security.SecurityMetadataStore.ScramChange;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A change asked of the controller. Commands are what the metadata log holds: every controller applies
 * each committed command to its image with {@link ControllerLogic}, deterministically, so a command
 * carries every input that is not in the image (new ids, counts the submitting broker resolved from its
 * config). Whoever submits a command gets the {@link CommandResult} of the leader's application.
 */
public sealed interface ControllerCommand {

    /**
     * A broker (re)registers at start: it is fenced until it has caught up. Result value: its new epoch.
     * {@code proposedSettings}: the submitting node's controller settings, adopted by the first registration
     * only (as the cluster id); null when not filled in (the submitting channel fills it, see
     * {@link ControllerLogic#withProposals}).
     */
    record RegisterBroker(int brokerId, UUID incarnationId, List<Endpoint> endpoints, String rack,
            String proposedClusterId, ControllerSettings proposedSettings) implements ControllerCommand {
        /** Without settings of its own (the older form). */
        public RegisterBroker(int brokerId, UUID incarnationId, List<Endpoint> endpoints, String rack,
                String proposedClusterId) {
            this(brokerId, incarnationId, endpoints, rack, proposedClusterId, null);
        }

        public RegisterBroker withProposedSettings(ControllerSettings settings) {
            return new RegisterBroker(brokerId, incarnationId, endpoints, rack, proposedClusterId, settings);
        }
    }

    /** Changes the cluster-wide controller settings of the image (an operator's change, applied everywhere). */
    record AlterClusterSettings(ControllerSettings settings) implements ControllerCommand {
    }

    /** The active controller lets a caught-up broker in (it may lead and join ISRs again). */
    record UnfenceBroker(int brokerId, long brokerEpoch) implements ControllerCommand {
    }

    /**
     * The active controller fences brokers whose session expired: leaderships move to in-sync replicas.
     * {@code brokerEpochs}: broker id -> the epoch whose session expired; a broker registered again since
     * (another epoch) is skipped, so a fence committed late never fences the new registration.
     * {@link #ANY_EPOCH} fences whatever the epoch.
     */
    record FenceBrokers(Map<Integer, Long> brokerEpochs) implements ControllerCommand {
        public static final long ANY_EPOCH = -1L;

        /** Keeps the given order: brokers are fenced in turn, and the order decides where leaderships go. */
        public FenceBrokers {
            brokerEpochs = Collections.unmodifiableMap(new LinkedHashMap<>(brokerEpochs));
        }

        /** Fences these brokers at whatever epoch they are registered (the older form). */
        public FenceBrokers(List<Integer> brokerIds) {
            this(anyEpoch(brokerIds));
        }

        public List<Integer> brokerIds() {
            return List.copyOf(brokerEpochs.keySet());
        }

        private static Map<Integer, Long> anyEpoch(List<Integer> brokerIds) {
            Map<Integer, Long> epochs = new LinkedHashMap<>();
            brokerIds.forEach(id -> epochs.put(id, ANY_EPOCH));
            return epochs;
        }
    }

    /** A broker stopping cleanly: its leaderships move away and it leaves the ISRs before it closes. */
    record ControlledShutdown(int brokerId, long brokerEpoch) implements ControllerCommand {
    }

    /**
     * Creates topics; each is refused or created on its own (per-topic {@link ItemResult}, key = name).
     * {@code assignments} (partition -> replicas) wins over {@code numPartitions}/{@code replicationFactor},
     * which the submitting broker resolved from its defaults.
     */
    record CreateTopics(List<NewTopic> topics, boolean validateOnly) implements ControllerCommand {
    }

    record NewTopic(String name, UUID id, int numPartitions, short replicationFactor,
            Map<Integer, List<Integer>> assignments, Map<String, String> configs) {
    }

    /** Deletes topics by id (per-topic ItemResult, key = name, or the id's string when unknown). */
    record DeleteTopics(List<UUID> topicIds) implements ControllerCommand {
    }

    /** Grows a topic to {@code totalCount} partitions, placing the new ones unless {@code assignments} says. */
    record CreatePartitions(String topic, int totalCount, List<List<Integer>> assignments, boolean validateOnly)
            implements ControllerCommand {
    }

    /** Replaces a topic's config overrides. */
    record AlterTopicConfigs(String topic, Map<String, String> configs) implements ControllerCommand {
    }

    /**
     * Changes dynamic broker configs ({@code brokers}: entity "" = cluster default, or a node id -> key ->
     * value) and client quotas (entity -> quota key -> value), all or nothing; a null value removes the key.
     * The submitting broker validated the values; the controller checks the entity names as Kafka's does.
     */
    record AlterDynamicConfigs(Map<String, Map<String, String>> brokers,
            Map<QuotaEntity, Map<String, Double>> quotas) implements ControllerCommand {
        public AlterDynamicConfigs {
            brokers = Collections.unmodifiableMap(new LinkedHashMap<>(brokers));
            quotas = Collections.unmodifiableMap(new LinkedHashMap<>(quotas));
        }
    }

    /**
     * Issue 12: sets (non-null value) or removes (null value) keys of one group's dynamic configs (a GROUP
     * resource), all or nothing. The submitting broker validated the whole new set against Kafka's GroupConfig;
     * the controller refuses an empty group name as Kafka's does.
     */
    record AlterGroupConfigs(String groupId, Map<String, String> changes) implements ControllerCommand {
        public AlterGroupConfigs {
            changes = Collections.unmodifiableMap(new LinkedHashMap<>(changes));
        }
    }

    /**
     * A partition leader asks to change its ISR (Kafka's AlterPartition). Refused unless the broker is the
     * leader at {@code leaderEpoch} and {@code partitionEpoch} is current; a new member must be unfenced.
     */
    record AlterPartition(int brokerId, long brokerEpoch, UUID topicId, int partition, int leaderEpoch,
            int partitionEpoch, List<Integer> newIsr) implements ControllerCommand {
    }

    /** Preferred (the first replica, if in sync) or unclean (any live replica) leader election; null = all. */
    record ElectLeaders(boolean unclean, List<PartitionRef> partitions) implements ControllerCommand {
    }

    /** Starts (target replicas) or cancels (null) reassignments (ItemResult key = "topic-partition"). */
    record AlterReassignments(Map<PartitionRef, List<Integer>> targets) implements ControllerCommand {
    }

    /** Hands a broker the next block of producer ids. Result value: the block's first id. */
    record AllocateProducerIds(int brokerId, long brokerEpoch) implements ControllerCommand {
    }

    /**
     * Adds ACLs (one already stored stays once), all or nothing: an ACL Kafka's controller would refuse refuses the
     * command (INVALID_REQUEST). The submitting broker answers CreateAcls per ACL from its own checks.
     */
    record CreateAcls(List<AclBinding> acls) implements ControllerCommand {
        public CreateAcls {
            acls = List.copyOf(acls);
        }
    }

    /**
     * Removes every ACL any filter matches, the filters evaluated against the image the command applies to, so
     * concurrent deletes never both claim an ACL nor miss one created in between. Result: per filter, in order,
     * the ACLs it removed ({@link CommandResult#deletedAcls}).
     */
    record DeleteAcls(List<AclBindingFilter> filters) implements ControllerCommand {
        public DeleteAcls {
            filters = List.copyOf(filters);
        }
    }

    /**
     * Sets (credential) or deletes (null credential) SCRAM credentials, in order, all or nothing, with Kafka's
     * checks (empty user, iterations, deleting a credential that does not exist).
     */
    record AlterScramCredentials(List<ScramChange> changes) implements ControllerCommand {
        public AlterScramCredentials {
            changes = List.copyOf(changes);
        }
    }

    record PartitionRef(String topic, int partition) {
        @Override
        public String toString() {
            return topic + "-" + partition;
        }
    }
}
