package io.odradek.broker.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.odradek.broker.BrokerConfig;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaEnvironmentTest {
    /** What Testcontainers' org.testcontainers.kafka.KafkaContainer (1.21.4) sets, advertised listeners included. */
    static Map<String, String> kafkaContainerEnv() {
        Map<String, String> env = new HashMap<>();
        env.put("CLUSTER_ID", "4L6g3nShT-eMCtK--X86sw");
        env.put("KAFKA_LISTENERS", "PLAINTEXT://0.0.0.0:9092,BROKER://0.0.0.0:9093,CONTROLLER://0.0.0.0:9094");
        env.put("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP", "BROKER:PLAINTEXT,PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        env.put("KAFKA_INTER_BROKER_LISTENER_NAME", "BROKER");
        env.put("KAFKA_PROCESS_ROLES", "broker,controller");
        env.put("KAFKA_CONTROLLER_LISTENER_NAMES", "CONTROLLER");
        env.put("KAFKA_NODE_ID", "1");
        env.put("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@localhost:9094");
        env.put("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1");
        env.put("KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS", "1");
        env.put("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1");
        env.put("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1");
        env.put("KAFKA_LOG_FLUSH_INTERVAL_MESSAGES", "9223372036854775807");
        env.put("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        env.put("KAFKA_ADVERTISED_LISTENERS", "PLAINTEXT://localhost:32768,BROKER://a1b2c3:9093");
        return env;
    }

    @Test
    void underscoresBecomeDotsDoubleUnderscoresUnderscoresTripleUnderscoresDashes() {
        assertThat(KafkaEnvironment.configKey("ADVERTISED_LISTENERS")).isEqualTo("advertised.listeners");
        assertThat(KafkaEnvironment.configKey("LOG_RETENTION_MS")).isEqualTo("log.retention.ms");
        assertThat(KafkaEnvironment.configKey("LISTENER_NAME_BROKER___1_SSL_KEY"))
                .isEqualTo("listener.name.broker-1.ssl.key");
        assertThat(KafkaEnvironment.configKey("CONFLUENT__SUPPORT_ID")).isEqualTo("confluent_support.id");
        assertThat(KafkaEnvironment.configKey("A_B_C")).isEqualTo("a.b.c");
    }

    @Test
    void onlyKafkaVariablesBecomeKeysAndJvmOnesAreLeftOut() {
        Map<String, String> env = Map.of("KAFKA_NUM_PARTITIONS", "3", "KAFKA_HEAP_OPTS", "-Xmx1G",
                "KAFKA_OPTS", "-Dx=y", "KAFKA_JMX_PORT", "9101", "PATH", "/bin", "CLUSTER_ID", "abc",
                "KAFKA_SASL_JAAS_CONFIG", "a=b;");
        assertThat(KafkaEnvironment.configs(env)).containsExactly(entry("num.partitions", "3"),
                entry("sasl.jaas.config", "a=b;"));
    }

    @Test
    void anEmptyEnvironmentGetsApacheKafkasSingleCombinedNodeWithDataInTheVolume() {
        Map<String, String> configs = KafkaEnvironment.configs(KafkaEnvironment.withDefaults(Map.of()));
        assertThat(configs).containsEntry("process.roles", "broker,controller")
                .containsEntry("controller.quorum.voters", "1@localhost:29093")
                .containsEntry("listeners",
                        "PLAINTEXT://localhost:29092,CONTROLLER://localhost:29093,PLAINTEXT_HOST://0.0.0.0:9092")
                .containsEntry("advertised.listeners", "PLAINTEXT://localhost:29092,PLAINTEXT_HOST://localhost:9092")
                .containsEntry("log.dirs", "/var/lib/kafka/data")
                .containsEntry("node.id", "1");
        assertThat(KafkaEnvironment.clusterId(Map.of())).isEqualTo("5L6g3nShT-eMCtK--X86sw");
    }

    @Test
    void aSetVariableWinsOverItsDefaultAndAnEmptyOneDoesNot() {
        Map<String, String> configs = KafkaEnvironment.configs(KafkaEnvironment.withDefaults(
                Map.of("KAFKA_NODE_ID", "7", "KAFKA_LOG_DIRS", "")));
        assertThat(configs).containsEntry("node.id", "7").containsEntry("log.dirs", "/var/lib/kafka/data");
    }

    @Test
    void kafkaContainersEnvironmentIsAValidClusterConfigWithAdvertisedListenersHonoured() {
        Map<String, String> configs = KafkaEnvironment.configs(KafkaEnvironment.withDefaults(kafkaContainerEnv()));
        BrokerConfig config = BrokerConfig.of(configs);
        assertThat(config.nodeId()).isEqualTo(1);
        assertThat(config.get("process.roles")).isEqualTo("broker,controller");
        assertThat(config.advertisedListeners()).extracting(l -> l.name() + "://" + l.host() + ":" + l.port())
                .containsExactly("PLAINTEXT://localhost:32768", "BROKER://a1b2c3:9093");
        assertThat(configs).containsEntry("inter.broker.listener.name", "BROKER")
                .containsEntry("offsets.topic.num.partitions", "1");
        assertThat(KafkaEnvironment.clusterId(kafkaContainerEnv())).isEqualTo("4L6g3nShT-eMCtK--X86sw");
    }

    @Test
    void kafkaContainersExtraListenersNamedTcDashNAreAccepted() {
        // KafkaContainer.withListener("kafka:19092") adds listener TC-0 and maps it to PLAINTEXT.
        Map<String, String> env = kafkaContainerEnv();
        env.put("KAFKA_LISTENERS", env.get("KAFKA_LISTENERS") + ",TC-0://kafka:19092");
        env.put("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP", env.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP") + ",TC-0:PLAINTEXT");
        env.put("KAFKA_ADVERTISED_LISTENERS", env.get("KAFKA_ADVERTISED_LISTENERS") + ",TC-0://kafka:19092");
        BrokerConfig config = BrokerConfig.of(KafkaEnvironment.configs(KafkaEnvironment.withDefaults(env)));
        assertThat(config.advertisedListeners()).extracting(l -> l.name() + "://" + l.host() + ":" + l.port())
                .containsExactly("PLAINTEXT://localhost:32768", "BROKER://a1b2c3:9093", "TC-0://kafka:19092");
        assertThat(config.listenerConfig("TC-0").protocol().name()).isEqualTo("PLAINTEXT");
    }
}
