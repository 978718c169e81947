package io.odradek.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The image under Testcontainers: loaded into the Docker engine from target/odradek-image.tar, then started by
 * Testcontainers' own KafkaContainer (as a substitute for apache/kafka) and by OdradekContainer. Runs only where a
 * Docker engine answers; skipped, saying so, elsewhere (ImageRunIT runs the same image without Docker).
 */
class TestcontainersIT {
    private static boolean loaded;

    /** Each test is skipped with this message where no Docker engine runs; else the image is loaded once. */
    @BeforeEach
    void loadTheImage() throws Exception {
        assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                "no Docker engine on this machine: the Testcontainers tests of the image are skipped"
                        + " (ImageRunIT ran the image under chroot instead)");
        synchronized (TestcontainersIT.class) {
            if (!loaded) {
                try (InputStream tar = Files.newInputStream(ImageArchive.built())) {
                    DockerClientFactory.instance().client().loadImageCmd(tar).exec();
                }
                loaded = true;
            }
        }
    }

    @Test
    void kafkaContainerRunsTheImageAsADropInForApacheKafka() throws Exception {
        DockerImageName image = DockerImageName.parse("odradek").asCompatibleSubstituteFor("apache/kafka");
        try (KafkaContainer kafka = new KafkaContainer(image).withEnv("KAFKA_NUM_PARTITIONS", "3")) {
            kafka.start();
            assertThat(partitionsOfANewTopic(kafka.getBootstrapServers())).isEqualTo(3);
            assertThat(produceThree(kafka.getBootstrapServers())).containsExactly(0L, 1L, 2L);
            assertThat(ImageRunIT.consumeAll(kafka.getBootstrapServers(), 3))
                    .containsExactly("0:k0=v0", "1:k1=v1", "2:k2=v2");
        }
    }

    @Test
    void odradekContainerStartsTheImageByNameWithBrokerConfigs() throws Exception {
        try (OdradekContainer odradek = new OdradekContainer().withBrokerConfig("num.partitions", "3")) {
            odradek.start();
            assertThat(partitionsOfANewTopic(odradek.getBootstrapServers())).isEqualTo(3);
            assertThat(produceThree(odradek.getBootstrapServers())).containsExactly(0L, 1L, 2L);
            assertThat(ImageRunIT.consumeAll(odradek.getBootstrapServers(), 3))
                    .containsExactly("0:k0=v0", "1:k1=v1", "2:k2=v2");
        }
    }

    /** Creates topic "orders" without a partition count: the broker's num.partitions applies. */
    static int partitionsOfANewTopic(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic("orders", Optional.empty(), Optional.empty()))).all().get();
            return admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders").partitions().size();
        }
    }

    /** k0=v0, k1=v1, k2=v2 to orders-0; their offsets. */
    static List<Long> produceThree(String bootstrap) throws Exception {
        List<Long> offsets = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(ImageRunIT.producerProps(bootstrap))) {
            for (int i = 0; i < 3; i++) {
                RecordMetadata m = producer.send(new ProducerRecord<>("orders", 0, "k" + i, "v" + i)).get();
                offsets.add(m.offset());
            }
        }
        return offsets;
    }
}
