package io.odradek.compat.cluster;

import static io.odradek.compat.cluster.ClusterClients.awaitIsr;
import static io.odradek.compat.cluster.ClusterClients.describe;
import static io.odradek.compat.cluster.ClusterClients.idList;
import static io.odradek.compat.cluster.ClusterClients.ids;
import static io.odradek.compat.cluster.ClusterClients.readAll;
import static io.odradek.compat.cluster.ClusterClients.values;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.compat.KafkaTool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.tools.reassign.ReassignPartitionsCommand;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What Kafka's AdminClient and kafka-reassign-partitions see of the cluster while brokers die and return: leaders
 * and ISR in describeTopics, preferred leader election, and a replica moved to another broker with its data.
 */
class ClusterAdminTest extends WithThreeNodeCluster {
    @BeforeEach
    void allNodesUp() throws Exception {
        cluster.heal();
    }

    @Test
    void describeTopicsShowsLeadersAndIsrMovingAsABrokerDiesAndReturnsAndPreferredElectionRestoresThem()
            throws Exception {
        String topic = "watched";
        // Each broker the preferred (first) replica of one partition.
        cluster.admin().createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(1, 2, 3), 1, List.of(2, 3, 1),
                2, List.of(3, 1, 2))))).all().get(60, TimeUnit.SECONDS);
        for (int p = 0; p < 3; p++) {
            awaitIsr(cluster, topic, p, Set.of(1, 2, 3), Duration.ofSeconds(30));
        }
        TopicDescription healthy = describe(cluster, cluster.admin(), topic);
        for (TopicPartitionInfo p : healthy.partitions()) {
            assertThat(p.leader().id()).as("leader of partition %d", p.partition()).isEqualTo(p.replicas().get(0).id());
        }

        int victim = 2;
        cluster.kill(victim);
        OdradekCluster.awaitCondition("broker 2 out of every ISR and leading nothing", Duration.ofSeconds(30), () ->
                describe(cluster, cluster.admin(), topic).partitions().stream().allMatch(p -> p.leader() != null
                        && p.leader().id() != victim && ids(p.isr()).equals(Set.of(1, 3))));
        TopicDescription degraded = describe(cluster, cluster.admin(), topic);
        assertThat(degraded.partitions()).extracting(p -> p.leader().id()).containsExactly(1, 3, 3);
        assertThat(degraded.partitions()).extracting(p -> idList(p.replicas()))
                .as("the replica sets do not change").containsExactly(List.of(1, 2, 3), List.of(2, 3, 1),
                        List.of(3, 1, 2));
        assertThat(cluster.admin().describeCluster().nodes().get(30, TimeUnit.SECONDS))
                .extracting(n -> n.id()).containsExactlyInAnyOrder(1, 3);

        cluster.start(victim);
        cluster.awaitBrokers(3, Duration.ofSeconds(60));
        for (int p = 0; p < 3; p++) {
            awaitIsr(cluster, topic, p, Set.of(1, 2, 3), Duration.ofSeconds(60));
        }
        // Back in every ISR; a preferred election hands partition 1 back to broker 2 (unless an automatic
        // rebalance already did: then Kafka answers ELECTION_NOT_NEEDED).
        Set<TopicPartition> partitions = Set.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1),
                new TopicPartition(topic, 2));
        Map<TopicPartition, Optional<Throwable>> elected = cluster.admin().electLeaders(ElectionType.PREFERRED,
                partitions).partitions().get(30, TimeUnit.SECONDS);
        assertThat(elected.keySet()).isEqualTo(partitions);
        assertThat(elected.get(new TopicPartition(topic, 0))).containsInstanceOf(ElectionNotNeededException.class);
        assertThat(elected.get(new TopicPartition(topic, 2))).containsInstanceOf(ElectionNotNeededException.class);
        assertThat(elected.get(new TopicPartition(topic, 1))).satisfiesAnyOf(
                e -> assertThat(e).isEmpty(), e -> assertThat(e).containsInstanceOf(ElectionNotNeededException.class));
        OdradekCluster.awaitCondition("preferred leaders 1, 2, 3", Duration.ofSeconds(30), () ->
                describe(cluster, cluster.admin(), topic).partitions().stream().map(p -> p.leader().id()).toList()
                        .equals(List.of(1, 2, 3)));
    }

    @Test
    void kafkaReassignPartitionsMovesAReplicaToTheThirdBrokerAndTheDataFollows() throws Exception {
        String topic = "moving";
        TopicPartition tp = new TopicPartition(topic, 0);
        cluster.admin().createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(1, 2))))).all()
                .get(60, TimeUnit.SECONDS);
        awaitIsr(cluster, topic, 0, Set.of(1, 2), Duration.ofSeconds(30));
        List<String> records = IntStream.range(0, 2000).mapToObj(i -> "moved-" + i).toList();
        try (KafkaProducer<String, String> producer = ClusterClients.producer(cluster)) {
            List<Future<?>> acks = new ArrayList<>();
            for (String r : records) {
                acks.add(producer.send(new ProducerRecord<>(topic, 0, "k", r)));
            }
            for (Future<?> ack : acks) {
                ack.get(60, TimeUnit.SECONDS);
            }
        }
        assertThat(ReplicaFiles.exists(cluster.logDir(3), topic, 0)).as("broker 3 holds no replica yet").isFalse();

        Path plan = Files.createTempFile(cluster.dir(), "reassign", ".json");
        Files.writeString(plan, "{\"version\":1,\"partitions\":[{\"topic\":\"moving\",\"partition\":0,"
                + "\"replicas\":[3,2]}]}");
        // Success returns from main; a failure calls exit(1), which KafkaTool.run reports.
        KafkaTool.Output execute = KafkaTool.run(ReassignPartitionsCommand::main, "--bootstrap-server",
                cluster.bootstrap(), "--reassignment-json-file", plan.toString(), "--execute");
        assertThat(execute.stdout()).contains("Current partition replica assignment")
                .contains("{\"topic\":\"moving\",\"partition\":0,\"replicas\":[1,2]")
                .contains("Successfully started partition reassignment for moving-0");

        // --verify until done. Throttles are left alone: the tool clears them with IncrementalAlterConfigs.
        OdradekCluster.awaitCondition("kafka-reassign-partitions --verify: completed", Duration.ofSeconds(60), () -> {
            try {
                KafkaTool.Output verify = KafkaTool.run(ReassignPartitionsCommand::main, "--bootstrap-server",
                        cluster.bootstrap(), "--reassignment-json-file", plan.toString(), "--verify",
                        "--preserve-throttles");
                assertThat(verify.stdout()).contains("Status of partition reassignment:");
                return verify.stdout().contains("Reassignment of partition moving-0 is completed.");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        TopicPartitionInfo moved = describe(cluster, cluster.admin(), topic).partitions().get(0);
        assertThat(idList(moved.replicas())).containsExactly(3, 2);
        assertThat(ids(moved.isr())).containsExactlyInAnyOrder(2, 3);
        assertThat(cluster.admin().listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS)).isEmpty();

        // The data followed: broker 3's files hold every record, broker 1 dropped its copy.
        OdradekCluster.awaitCondition("broker 1's replica of moving-0 deleted", Duration.ofSeconds(30),
                () -> !ReplicaFiles.exists(cluster.logDir(1), topic, 0));
        assertThat(ReplicaFiles.read(cluster.logDir(3), topic, 0).values()).containsExactlyElementsOf(records);
        // With broker 2 gone, broker 3 alone serves it.
        cluster.kill(2);
        OdradekCluster.awaitCondition("broker 3 leads moving-0", Duration.ofSeconds(30), () ->
                describe(cluster, cluster.admin(), topic).partitions().get(0).leader().id() == 3);
        assertThat(values(readAll(cluster.bootstrap(1, 3), tp, "read_uncommitted"))).containsExactlyElementsOf(records);
    }
}
