package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's AdminClient's cluster operations against a single-node broker. */
class ClusterAdminEndToEndTest {
    @TempDir
    Path logDir;

    private Broker broker;
    private Admin admin;

    @BeforeEach
    void start() throws InterruptedException {
        broker = Broker.start(BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", logDir.toString(), "node.id", "1")));
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.port());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        admin = Admin.create(props);
    }

    @AfterEach
    void stop() {
        admin.close();
        broker.close();
    }

    @Test
    void describeTopicsShowsThisBrokerLeadingAndCreatePartitionsGrowsTheTopic() throws Exception {
        admin.createTopics(List.of(new NewTopic("orders", 2, (short) 1))).all().get();

        admin.createPartitions(Map.of("orders", NewPartitions.increaseTo(5))).all().get();

        TopicDescription orders = admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders");
        assertThat(orders.partitions()).hasSize(5).allSatisfy(p -> {
            assertThat(p.leader().id()).isEqualTo(1);
            assertThat(p.leader().port()).isEqualTo(broker.port());
            assertThat(p.replicas()).extracting(n -> n.id()).containsExactly(1);
            assertThat(p.isr()).extracting(n -> n.id()).containsExactly(1);
        });
        assertThat(orders.partitions()).extracting(p -> p.partition()).containsExactly(0, 1, 2, 3, 4);

        // A producer writes to a new partition at once.
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.port());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            RecordMetadata written = producer.send(new ProducerRecord<>("orders", 4, "k", "v")).get();
            assertThat(written.partition()).isEqualTo(4);
            assertThat(written.offset()).isZero();
        }

        assertThatThrownBy(() -> admin.createPartitions(Map.of("orders", NewPartitions.increaseTo(5))).all().get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidPartitionsException.class)
                .hasMessage("Topic already has 5 partition(s).");
        assertThatThrownBy(() -> admin.createPartitions(Map.of("orders",
                NewPartitions.increaseTo(6, List.of(List.of(2))))).all().get())
                .cause().isInstanceOf(InvalidReplicaAssignmentException.class);
    }

    @Test
    void describeLogDirsShowsEveryReplicaWithItsSize() throws Exception {
        admin.createTopics(List.of(new NewTopic("orders", 2, (short) 1))).all().get();
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.port());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>("orders", 1, "key", "value")).get();
        }

        Map<String, LogDirDescription> dirs = admin.describeLogDirs(List.of(1)).allDescriptions().get().get(1);

        assertThat(dirs).containsOnlyKeys(logDir.toAbsolutePath().normalize().toString());
        LogDirDescription d = dirs.values().iterator().next();
        assertThat(d.error()).isNull();
        assertThat(d.totalBytes()).isPresent();
        assertThat(d.replicaInfos()).containsOnlyKeys(new TopicPartition("orders", 0), new TopicPartition("orders", 1));
        ReplicaInfo written = d.replicaInfos().get(new TopicPartition("orders", 1));
        assertThat(written.size()).isEqualTo(Files.size(logDir.resolve("orders-1").resolve("00000000000000000000.log")))
                .isPositive();
        assertThat(written.offsetLag()).isZero();
        assertThat(written.isFuture()).isFalse();
        assertThat(d.replicaInfos().get(new TopicPartition("orders", 0)).size()).isZero();
    }

    @Test
    void electionsAreNeverNeededAndNoReassignmentIsInProgress() throws Exception {
        admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1))).all().get();
        TopicPartition p0 = new TopicPartition("orders", 0);

        Map<TopicPartition, Optional<Throwable>> elected = admin.electLeaders(ElectionType.PREFERRED, Set.of(p0))
                .partitions().get();
        assertThat(elected.get(p0)).get().isInstanceOf(ElectionNotNeededException.class);

        admin.alterPartitionReassignments(Map.of(p0, Optional.of(new NewPartitionReassignment(List.of(1)))))
                .all().get();
        assertThat(admin.listPartitionReassignments().reassignments().get()).isEmpty();
        assertThatThrownBy(() -> admin.alterPartitionReassignments(Map.of(p0,
                Optional.of(new NewPartitionReassignment(List.of(1, 2))))).all().get())
                .cause().isInstanceOf(InvalidReplicaAssignmentException.class);
    }

    @Test
    void theMetadataQuorumIsThisBrokerAlone() throws Exception {
        QuorumInfo quorum = admin.describeMetadataQuorum().quorumInfo().get();

        assertThat(quorum.leaderId()).isEqualTo(1);
        assertThat(quorum.leaderEpoch()).isEqualTo(1);
        assertThat(quorum.highWatermark()).isZero();
        assertThat(quorum.voters()).extracting(QuorumInfo.ReplicaState::replicaId).containsExactly(1);
        assertThat(quorum.observers()).isEmpty();
    }
}
