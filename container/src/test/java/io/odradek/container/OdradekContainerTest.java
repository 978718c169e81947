package io.odradek.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.container.KafkaEnvironment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** OdradekContainer's set-up, checked without starting anything (no Docker needed). */
class OdradekContainerTest {
    @Test
    void brokerKeysBecomeTheVariablesTheImageReadsBack() {
        for (String key : List.of("num.partitions", "log.retention.ms", "listener.name.broker-1.ssl.key",
                "confluent_support.id")) {
            String env = OdradekContainer.envName(key);
            assertThat(env).startsWith("KAFKA_");
            assertThat(KafkaEnvironment.configs(Map.of(env, "x"))).containsOnlyKeys(key);
        }
        assertThat(OdradekContainer.envName("num.partitions")).isEqualTo("KAFKA_NUM_PARTITIONS");
    }

    @Test
    void itIsSetUpAsKafkaContainerSetsUpApacheKafka() {
        try (OdradekContainer odradek = new OdradekContainer().withBrokerConfig("num.partitions", "3")) {
            assertThat(odradek.getExposedPorts()).containsExactly(9092);
            assertThat(odradek.getCommandParts()).containsExactly("sh", "-c",
                    "while [ ! -f /tmp/testcontainers_start.sh ]; do sleep 0.1; done; /tmp/testcontainers_start.sh");
            Map<String, String> configs = KafkaEnvironment.configs(odradek.getEnvMap());
            assertThat(configs).containsEntry("num.partitions", "3")
                    .containsEntry("process.roles", "broker,controller")
                    .containsEntry("controller.quorum.voters", "1@localhost:9094")
                    .containsEntry("inter.broker.listener.name", "BROKER")
                    .containsEntry("listeners", "PLAINTEXT://0.0.0.0:9092,BROKER://0.0.0.0:9093,"
                            + "CONTROLLER://localhost:9094");
        }
    }

    @Test
    void anImageThatIsNotOdradekIsRefusedUnlessDeclaredASubstitute() {
        assertThatThrownBy(() -> new OdradekContainer("apache/kafka:4.0.0").close())
                .hasMessageContaining("apache/kafka:4.0.0");
    }
}
