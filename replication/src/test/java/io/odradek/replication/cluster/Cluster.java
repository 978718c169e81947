package io.odradek.replication.cluster;

import io.odradek.replication.cluster.ControllerCommand.AlterPartition;
import io.odradek.replication.cluster.ControllerCommand.CreateTopics;
import io.odradek.replication.cluster.ControllerCommand.FenceBrokers;
import io.odradek.replication.cluster.ControllerCommand.NewTopic;
import io.odradek.replication.cluster.ControllerCommand.RegisterBroker;
import io.odradek.replication.cluster.ControllerCommand.UnfenceBroker;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A controller's image driven by commands at consecutive offsets, as the metadata log would apply them. */
final class Cluster {
    final ControllerLogic logic;
    ClusterImage image = ClusterImage.EMPTY;
    long offset = 99;

    Cluster() {
        this(ControllerSettings.DEFAULTS);
    }

    Cluster(ControllerSettings settings) {
        this.logic = new ControllerLogic(settings);
    }

    /** Applies {@code command} as this node would submit it (its registrations propose its settings). */
    CommandResult run(ControllerCommand command) {
        ControllerLogic.Applied applied = logic.apply(image, logic.withProposals(command), ++offset);
        image = applied.image();
        return applied.result();
    }

    static UUID incarnation(int brokerId) {
        return new UUID(7, brokerId);
    }

    static RegisterBroker register(int brokerId, String rack) {
        return new RegisterBroker(brokerId, incarnation(brokerId),
                List.of(new Endpoint("PLAINTEXT", "127.0.0.1", 9091 + brokerId)), rack, "cluster-" + brokerId);
    }

    /** Registers and unfences brokers 1..n (no racks). */
    Cluster withBrokers(int n) {
        for (int id = 1; id <= n; id++) {
            addBroker(id, null);
        }
        return this;
    }

    void addBroker(int id, String rack) {
        long epoch = run(register(id, rack)).value();
        expectOk(run(new UnfenceBroker(id, epoch)));
    }

    long epoch(int brokerId) {
        return image.brokers().get(brokerId).epoch();
    }

    BrokerRegistration broker(int brokerId) {
        return image.brokers().get(brokerId);
    }

    /** Creates a topic with explicit replicas per partition. */
    TopicImage createAssigned(String name, List<List<Integer>> replicas) {
        Map<Integer, List<Integer>> assignments = new java.util.TreeMap<>();
        for (int p = 0; p < replicas.size(); p++) {
            assignments.put(p, replicas.get(p));
        }
        CommandResult r = run(new CreateTopics(List.of(new NewTopic(name, UUID.nameUUIDFromBytes(name.getBytes()),
                -1, (short) -1, assignments, Map.of())), false));
        if (r.items().get(0).error() != ErrorCode.NONE) {
            throw new AssertionError(r);
        }
        return image.topics().get(name);
    }

    TopicImage createPlaced(String name, int partitions, int replicationFactor, Map<String, String> configs) {
        CommandResult r = run(new CreateTopics(List.of(new NewTopic(name, UUID.nameUUIDFromBytes(name.getBytes()),
                partitions, (short) replicationFactor, null, configs)), false));
        if (r.items().get(0).error() != ErrorCode.NONE) {
            throw new AssertionError(r);
        }
        return image.topics().get(name);
    }

    PartitionRegistration partition(String topic, int partition) {
        return image.partition(topic, partition).orElseThrow();
    }

    CommandResult fence(Integer... ids) {
        return run(new FenceBrokers(List.of(ids)));
    }

    CommandResult alterIsr(int brokerId, String topic, int partition, List<Integer> newIsr) {
        PartitionRegistration p = partition(topic, partition);
        return run(new AlterPartition(brokerId, epoch(brokerId), image.topics().get(topic).id(), partition,
                p.leaderEpoch(), p.partitionEpoch(), newIsr));
    }

    static void expectOk(CommandResult r) {
        if (r.error() != ErrorCode.NONE) {
            throw new AssertionError(r);
        }
    }
}
