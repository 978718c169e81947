package io.odradek.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import io.odradek.replication.cluster.ClusterImage;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * process.roles=broker,controller with a single voter: a one-member Ratis quorum. Topics made through it
 * hold data, and a restart replays the metadata log and keeps the topic and its log.
 */
class OneNodeQuorumTest {
    @TempDir
    Path dir;

    private Broker broker;

    @AfterEach
    void tearDown() {
        if (broker != null) {
            broker.close();
        }
    }

    private Broker start(int controllerPort) throws InterruptedException {
        Map<String, String> settings = new HashMap<>();
        settings.put("process.roles", "broker,controller");
        settings.put("node.id", "1");
        settings.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        settings.put("controller.listener.names", "CONTROLLER");
        settings.put("listeners", "PLAINTEXT://127.0.0.1:0,CONTROLLER://127.0.0.1:" + controllerPort);
        settings.put("log.dirs", dir.toString());
        settings.put("broker.heartbeat.interval.ms", "200");
        broker = Broker.start(BrokerConfig.of(settings));
        return broker;
    }

    private static ClusterImage await(Broker broker, Predicate<ClusterImage> condition) throws InterruptedException {
        return ImageWaits.await(broker, 60, condition);
    }

    @Test
    void aTopicMadeThroughTheQuorumKeepsItsIdAndRecordsAcrossARestart() throws Exception {
        int controllerPort;
        try (ServerSocket s = new ServerSocket(0)) {
            controllerPort = s.getLocalPort();
        }
        start(controllerPort);
        await(broker, image -> image.isActive(1));
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.port());
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic("events", 2, (short) 1))).all().get();
        }
        UUID id = broker.cluster().image().topic("events").orElseThrow().id();
        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.port());
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        RecordMetadata written;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps, new StringSerializer(),
                new StringSerializer())) {
            written = producer.send(new ProducerRecord<>("events", 1, "k", "v")).get();
        }
        assertThat(written.offset()).isZero();
        long clusterOffset = broker.cluster().image().offset();
        broker.close();
        broker = null;
        assertThat(dir.resolve("__cluster_metadata-ratis")).isDirectory();

        start(controllerPort);
        ClusterImage image = await(broker, i -> i.offset() > clusterOffset && i.isActive(1));
        assertThat(image.topic("events").orElseThrow().id()).isEqualTo(id);
        assertThat(broker.topics().partitionLog("events", 1).orElseThrow().logEndOffset()).isEqualTo(1);
        assertThat(broker.topics().partitionLog("events", 0).orElseThrow().logEndOffset()).isZero();
        assertThat(Files.isDirectory(dir.resolve("events-1"))).isTrue();
    }
}
