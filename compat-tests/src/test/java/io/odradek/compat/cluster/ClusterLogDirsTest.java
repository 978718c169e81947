package io.odradek.compat.cluster;

import static io.odradek.compat.cluster.ClusterClients.awaitIsr;
import static io.odradek.compat.cluster.ClusterClients.leader;
import static io.odradek.compat.cluster.ClusterClients.readAll;
import static io.odradek.compat.cluster.ClusterClients.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.DescribeReplicaLogDirsResult.ReplicaLogDirInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * AlterReplicaLogDirs in a cluster whose nodes have two log dirs each: the leader's and a follower's replica
 * move to their broker's second dir, and the partition keeps taking acks=all writes and serving every record.
 */
class ClusterLogDirsTest {
    private static OdradekCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = OdradekCluster.launch(3, Map.of("log.dirs", OdradekCluster.NODE_DIR + "," + OdradekCluster.NODE_DIR
                + "-b"));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Path secondDir(int id) {
        return Path.of(cluster.logDir(id) + "-b").toAbsolutePath();
    }

    @Test
    void replicasMovedToTheirBrokersSecondDirKeepServingAndReplicating() throws Exception {
        String topic = "moving";
        TopicPartition tp = new TopicPartition(topic, 0);
        cluster.admin().createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(1, 2, 3))))).all()
                .get(60, TimeUnit.SECONDS);
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(30));
        List<String> records = IntStream.range(0, 20).mapToObj(i -> "r-" + i).toList();
        KafkaProducer<String, String> producer = ClusterClients.producer(cluster);
        for (String r : records.subList(0, 10)) {
            producer.send(new ProducerRecord<>(topic, 0, r, r)).get(60, TimeUnit.SECONDS);
        }
        assertThat(leader(cluster, topic, 0)).isEqualTo(1);
        TopicPartitionReplica onLeader = new TopicPartitionReplica(topic, 0, 1);
        TopicPartitionReplica onFollower = new TopicPartitionReplica(topic, 0, 2);
        assertThat(cluster.logDir(1).resolve("moving-0")).isDirectory();

        cluster.admin().alterReplicaLogDirs(Map.of(onLeader, secondDir(1).toString(),
                onFollower, secondDir(2).toString())).all().get(60, TimeUnit.SECONDS);

        assertThat(secondDir(1).resolve("moving-0")).isDirectory();
        assertThat(cluster.logDir(1).resolve("moving-0")).doesNotExist();
        assertThat(secondDir(2).resolve("moving-0")).isDirectory();
        assertThat(cluster.logDir(2).resolve("moving-0")).doesNotExist();
        Map<TopicPartitionReplica, ReplicaLogDirInfo> dirs = cluster.admin()
                .describeReplicaLogDirs(List.of(onLeader, onFollower)).all().get(30, TimeUnit.SECONDS);
        assertThat(Path.of(dirs.get(onLeader).getCurrentReplicaLogDir())).isEqualTo(secondDir(1));
        assertThat(Path.of(dirs.get(onFollower).getCurrentReplicaLogDir())).isEqualTo(secondDir(2));

        for (String r : records.subList(10, 20)) {
            producer.send(new ProducerRecord<>(topic, 0, r, r)).get(60, TimeUnit.SECONDS);
        }
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(30));
        assertThat(values(readAll(cluster.bootstrap(), tp, "read_uncommitted"))).isEqualTo(records);
    }
}
