package io.odradek.compat.cluster;

import static io.odradek.compat.cluster.ClusterClients.awaitIsr;
import static io.odradek.compat.cluster.ClusterClients.leader;
import static io.odradek.compat.cluster.ClusterClients.readAll;
import static io.odradek.compat.cluster.ClusterClients.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.DeletedRecords;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * DeleteRecords on three replicas, as Kafka: the leader answers once every replica's log start reached the
 * offset (the low watermark), which the followers learn from the leader's fetch responses; the new start
 * survives a leader failover and a killed node's restart.
 */
class ClusterDeleteRecordsTest extends WithThreeNodeCluster {
    @Test
    void theLowWatermarkWaitsForEveryReplicaAndTheNewStartSurvivesALeaderFailover() throws Exception {
        String topic = "trimmed";
        TopicPartition tp = new TopicPartition(topic, 0);
        cluster.admin().createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(1, 2, 3))))).all()
                .get(60, TimeUnit.SECONDS);
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(30));
        List<String> records = IntStream.range(0, 10).mapToObj(i -> "r-" + i).toList();
        KafkaProducer<String, String> producer = ClusterClients.producer(cluster);
        for (String r : records) {
            producer.send(new ProducerRecord<>(topic, 0, r, r)).get(60, TimeUnit.SECONDS);
        }

        DeletedRecords deleted = cluster.admin().deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(6)))
                .lowWatermarks().get(tp).get(60, TimeUnit.SECONDS);

        assertThat(deleted.lowWatermark()).isEqualTo(6L);
        // The answer came once every replica had followed, and each checkpoints its new start at once.
        for (int id = 1; id <= 3; id++) {
            assertThat(logStartCheckpoint(id)).as("node %d", id).contains(topic + " 0 6\n");
        }

        int oldLeader = leader(cluster, topic, 0);
        assertThat(oldLeader).as("the preferred replica leads").isEqualTo(1);
        cluster.kill(oldLeader);
        OdradekCluster.awaitCondition("a new leader for " + tp, Duration.ofSeconds(30), () -> {
            int now = leader(cluster, topic, 0);
            return now != -1 && now != oldLeader;
        });
        String survivors = cluster.bootstrap(cluster.others(oldLeader));
        List<ConsumerRecord<String, String>> read = readAll(survivors, tp, "read_uncommitted");
        assertThat(values(read)).isEqualTo(records.subList(6, 10));
        assertThat(read.get(0).offset()).isEqualTo(6L);

        cluster.start(oldLeader);
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(60));
        assertThat(logStartCheckpoint(oldLeader)).contains(topic + " 0 6\n");

        // Leading again after its unclean restart, the killed node answers the same earliest offset.
        try {
            cluster.admin().electLeaders(ElectionType.PREFERRED, Set.of(tp)).partitions().get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            // ELECTION_NOT_NEEDED: an automatic rebalance got there first
        }
        OdradekCluster.awaitCondition("node 1 leading " + tp + " again", Duration.ofSeconds(30),
                () -> leader(cluster, topic, 0) == oldLeader);
        long earliest = cluster.admin().listOffsets(Map.of(tp, OffsetSpec.earliest())).partitionResult(tp)
                .get(30, TimeUnit.SECONDS).offset();
        assertThat(earliest).isEqualTo(6L);
    }

    private static String logStartCheckpoint(int id) throws java.io.IOException {
        Path file = cluster.logDir(id).resolve("log-start-offset-checkpoint");
        return Files.exists(file) ? Files.readString(file) : "";
    }
}
