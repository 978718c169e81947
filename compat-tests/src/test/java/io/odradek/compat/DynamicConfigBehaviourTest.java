package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Dynamic config changes seen in what the broker does, and kept across a restart. */
class DynamicConfigBehaviourTest {
    private static final ConfigResource CLUSTER_DEFAULT = new ConfigResource(ConfigResource.Type.BROKER, "");

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of("log.retention.check.interval.ms", "200"));

    private void alter(ConfigResource resource, String key, String value) throws Exception {
        broker.admin().incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(key, value),
                AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
    }

    @Test
    void loweringMessageMaxBytesRefusesABatchThatFittedBefore() throws Exception {
        broker.createTopic("orders", 1);
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of(ProducerConfig.LINGER_MS_CONFIG, 0));
        String value = "x".repeat(5000);
        assertThat(producer.send(new ProducerRecord<>("orders", "k", value)).get().offset()).isZero();

        alter(CLUSTER_DEFAULT, "message.max.bytes", "2000");

        assertThatThrownBy(() -> producer.send(new ProducerRecord<>("orders", "k", value)).get())
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(RecordTooLargeException.class);
        assertThat(producer.send(new ProducerRecord<>("orders", "k", "small")).get().offset()).isEqualTo(1);
    }

    @Test
    void shorteningATopicsRetentionDeletesItsOldSegments() throws Exception {
        broker.createTopic("events", 1, Map.of("segment.bytes", "1000"));
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of(ProducerConfig.LINGER_MS_CONFIG, 0));
        long hourAgo = System.currentTimeMillis() - 3_600_000;
        for (int i = 0; i < 10; i++) {
            producer.send(new ProducerRecord<>("events", 0, hourAgo, "k" + i, "v".repeat(400))).get();
        }
        long segmentsBefore = segmentFiles();
        assertThat(segmentsBefore).isGreaterThan(3);

        alter(new ConfigResource(ConfigResource.Type.TOPIC, "events"), "retention.ms", "60000");

        TopicPartition tp = new TopicPartition("events", 0);
        long logStart = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (logStart == 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
            logStart = broker.admin().listOffsets(Map.of(tp, OffsetSpec.earliest())).partitionResult(tp).get().offset();
        }
        // Every closed segment is older than a minute and goes; the active one stays (Kafka never deletes it).
        assertThat(logStart).isGreaterThan(5);
        assertThat(segmentFiles()).isLessThan(segmentsBefore);
    }

    @Test
    void dynamicBrokerAndTopicConfigsSurviveARestart() throws Exception {
        broker.createTopic("orders", 1);
        alter(CLUSTER_DEFAULT, "log.retention.ms", "7200000");
        alter(new ConfigResource(ConfigResource.Type.BROKER, "1"), "message.max.bytes", "3000");
        alter(new ConfigResource(ConfigResource.Type.TOPIC, "orders"), "segment.ms", "600000");

        broker.restart();

        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "orders");
        Map<ConfigResource, Config> described = broker.admin().describeConfigs(List.of(topic, CLUSTER_DEFAULT),
                new DescribeConfigsOptions().includeSynonyms(true)).all().get(30, TimeUnit.SECONDS);
        Config topicConfig = described.get(topic);
        assertThat(topicConfig.get("segment.ms").value()).isEqualTo("600000");
        assertThat(topicConfig.get("segment.ms").source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(topicConfig.get("retention.ms").value()).isEqualTo("7200000");
        assertThat(topicConfig.get("retention.ms").source())
                .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
        assertThat(topicConfig.get("max.message.bytes").value()).isEqualTo("3000");
        assertThat(topicConfig.get("max.message.bytes").source())
                .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG);
        Collection<ConfigEntry> defaults = described.get(CLUSTER_DEFAULT).entries();
        assertThat(defaults).extracting(ConfigEntry::name, ConfigEntry::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("log.retention.ms", "7200000"));
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of(ProducerConfig.LINGER_MS_CONFIG, 0));
        assertThatThrownBy(() -> producer.send(new ProducerRecord<>("orders", "k", "x".repeat(5000))).get())
                .hasCauseInstanceOf(RecordTooLargeException.class);
    }

    private long segmentFiles() throws Exception {
        Path dir = broker.partitionDir("events", 0);
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log")).count();
        }
    }
}
