package io.odradek.compat.cluster;

import static io.odradek.compat.cluster.ClusterClients.awaitIsr;
import static io.odradek.compat.cluster.ClusterClients.idList;
import static io.odradek.compat.cluster.ClusterClients.readAll;
import static io.odradek.compat.cluster.ClusterClients.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Two of the three Ratis voters frozen (SIGSTOP): the metadata quorum has no majority, so no metadata change can
 * commit, but the surviving broker keeps serving the data it leads; with the two back the cluster carries on.
 */
class ControllerQuorumLossTest extends WithThreeNodeCluster {
    private static final int SURVIVOR = 1;

    @Test
    void withoutAControllerMajorityNoTopicIsCreatedButTheSurvivorServesItsPartitionsAndAfterwardsAllCarriesOn()
            throws Exception {
        // Partition 0 led by the survivor (its preferred leader), partition 1 by a node that will be frozen.
        String topic = "served";
        cluster.admin().createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(SURVIVOR, 2, 3), 1,
                List.of(2, 3, SURVIVOR))).configs(Map.of("min.insync.replicas", "2")))).all().get(60, TimeUnit.SECONDS);
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(30));
        awaitIsr(cluster, topic, 1, Set.of(1, 2, 3), Duration.ofSeconds(30));
        TopicDescription created = ClusterClients.describe(cluster, cluster.admin(), topic);
        assertThat(created.partitions().get(0).leader().id()).isEqualTo(SURVIVOR);
        assertThat(idList(created.partitions().get(0).replicas())).containsExactly(SURVIVOR, 2, 3);
        assertThat(created.partitions().get(1).leader().id()).isEqualTo(2);

        List<String> records = IntStream.range(0, 500).mapToObj(i -> "r-" + i).toList();
        try (KafkaProducer<String, String> producer = ClusterClients.producer(cluster)) {
            List<Future<?>> acks = new ArrayList<>();
            for (String r : records) {
                acks.add(producer.send(new ProducerRecord<>(topic, 0, "k", r)));
            }
            for (Future<?> ack : acks) {
                ack.get(60, TimeUnit.SECONDS);
            }
        }

        cluster.pause(2);
        cluster.pause(3);
        try {
            // No majority: the creation cannot commit, so the broker cannot report it created (one request, given
            // 10 s; its own client so that the request left waiting does not hold up the next ones).
            Admin creator = ClusterClients.admin(cluster, cluster.bootstrap(SURVIVOR), 10_000, 10_000);
            assertThatThrownBy(() -> creator.createTopics(List.of(new NewTopic("during-loss", 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS))
                    .as("CreateTopics without a controller majority\n%s", cluster.describe())
                    .isInstanceOf(ExecutionException.class);
            Admin survivor = ClusterClients.admin(cluster, cluster.bootstrap(SURVIVOR), 5000, 15000);
            assertThat(survivor.listTopics().names().get(15, TimeUnit.SECONDS)).contains(topic)
                    .doesNotContain("during-loss");

            // Data already replicated is still served by the broker that leads it, every record up to the HWM.
            assertThat(values(readAll(cluster.bootstrap(SURVIVOR), new TopicPartition(topic, 0), "read_uncommitted")))
                    .as("partition 0 read from the survivor alone").containsExactlyElementsOf(records);
        } finally {
            cluster.resume(2);
            cluster.resume(3);
        }

        // Restored: the quorum commits again, every broker is back, a topic can be created and written.
        cluster.awaitBrokers(3, Duration.ofSeconds(60));
        String later = "after-restore";
        cluster.admin().createTopics(List.of(new NewTopic(later, 1, (short) 3))).all().get(60, TimeUnit.SECONDS);
        awaitIsr(cluster, later, 0, Set.of(1, 2, 3), Duration.ofSeconds(30));
        List<String> more = IntStream.range(0, 50).mapToObj(i -> "later-" + i).toList();
        try (KafkaProducer<String, String> producer = ClusterClients.producer(cluster)) {
            for (String r : more) {
                producer.send(new ProducerRecord<>(later, 0, "k", r)).get(60, TimeUnit.SECONDS);
            }
        }
        assertThat(values(readAll(cluster.bootstrap(), new TopicPartition(later, 0), "read_uncommitted")))
                .containsExactlyElementsOf(more);
        assertThat(values(readAll(cluster.bootstrap(), new TopicPartition(topic, 0), "read_uncommitted")))
                .containsExactlyElementsOf(records);
    }
}
