package io.odradek.replication.cluster;

import io.odradek.replication.config.DynamicConfigStore;
import io.odradek.replication.config.DynamicConfigs;
import io.odradek.replication.security.SecurityMetadata;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A working copy of an image while one command is applied: brokers and topics in mutable maps, turned back
 * into an immutable {@link ClusterImage} at the command's offset. Also answers the questions elections ask.
 */
final class ImageBuilder {
    static final String UNCLEAN_LEADER_ELECTION_ENABLE = "unclean.leader.election.enable";

    final TreeMap<Integer, BrokerRegistration> brokers;
    final TreeMap<String, TopicImage> topics;
    String clusterId;
    long nextProducerId;
    ControllerSettings settings;
    DynamicConfigs dynamicConfigs;
    SecurityMetadata security;

    ImageBuilder(ClusterImage base) {
        this.brokers = new TreeMap<>(base.brokers());
        this.topics = new TreeMap<>(base.topics());
        this.clusterId = base.clusterId();
        this.nextProducerId = base.nextProducerId();
        this.settings = base.settings();
        this.dynamicConfigs = base.dynamicConfigs();
        this.security = base.security();
    }

    ClusterImage build(long offset) {
        return new ClusterImage(offset, clusterId, brokers, topics, nextProducerId, settings, dynamicConfigs,
                security);
    }

    /** May lead and be in an ISR: registered, unfenced and not in controlled shutdown. */
    boolean isEligible(int brokerId) {
        BrokerRegistration b = brokers.get(brokerId);
        return b != null && !b.fenced() && !b.inControlledShutdown();
    }

    /**
     * The topic's {@code unclean.leader.election.enable} as Kafka's ConfigurationControlManager resolves it: the
     * topic override, else the dynamic cluster default (broker entity ""), else the image's settings (the static
     * value the first controller proposed). Kafka also consults the controller node's own per-broker dynamic
     * config before the cluster default; that depends on which node applies the command, and every node must
     * compute the same image, so it is not consulted here.
     */
    boolean uncleanAllowed(TopicImage topic) {
        String value = topic.configs().get(UNCLEAN_LEADER_ELECTION_ENABLE);
        if (value == null) {
            value = dynamicConfigs.broker(DynamicConfigStore.DEFAULT_BROKER).get(UNCLEAN_LEADER_ELECTION_ENABLE);
        }
        return value == null ? settings.uncleanLeaderElectionEnable() : Boolean.parseBoolean(value.trim());
    }

    /** Elects a leader for every leaderless partition whose topic now allows unclean election. */
    void electUncleanWhereAllowed() {
        for (TopicImage topic : topics.values().toArray(new TopicImage[0])) {
            if (uncleanAllowed(topic)) {
                for (int p = 0; p < topic.partitions().size(); p++) {
                    putPartition(topic, p,
                            Elections.electIfLeaderless(topic.partitions().get(p), this::isEligible, true));
                }
            }
        }
    }

    Optional<TopicImage> topicById(UUID id) {
        for (TopicImage t : topics.values()) {
            if (t.id().equals(id)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    void putPartition(TopicImage topic, int partition, PartitionRegistration registration) {
        TopicImage current = topics.get(topic.name());
        if (current.partition(partition) != registration) {
            topics.put(topic.name(), current.withPartition(partition, registration));
        }
    }

    /**
     * Applies {@code change} to every partition that has {@code brokerId} as a replica (the election rules
     * see the broker registrations as they are now in this builder).
     */
    void changePartitionsOf(int brokerId, PartitionChange change) {
        for (TopicImage topic : topics.values().toArray(new TopicImage[0])) {
            for (int p = 0; p < topic.partitions().size(); p++) {
                PartitionRegistration current = topic.partitions().get(p);
                if (current.replicas().contains(brokerId)) {
                    putPartition(topic, p, change.apply(topic, current));
                }
            }
        }
    }

    interface PartitionChange {
        PartitionRegistration apply(TopicImage topic, PartitionRegistration current);
    }
}
