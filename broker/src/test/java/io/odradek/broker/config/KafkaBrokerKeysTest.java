package io.odradek.broker.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.server.config.AbstractKafkaConfig;
import org.apache.kafka.server.config.DynamicConfig;
import org.junit.jupiter.api.Test;

/** kafka-broker-keys.txt is exactly Kafka 4.4's broker keys with their types (regenerate it if this fails). */
class KafkaBrokerKeysTest {
    @Test
    void generatedKeyListMatchesKafkasBrokerConfigDef() throws IOException {
        Map<String, String> kafka = new TreeMap<>();
        DynamicConfig.Broker.configKeys().forEach((name, key) -> kafka.put(name, key.type.name()));
        for (Map.Entry<String, ConfigDef.ConfigKey> e : AbstractKafkaConfig.CONFIG_DEF.configKeys().entrySet()) {
            kafka.put(e.getKey(), e.getValue().type.name());
        }

        Map<String, String> ours = new TreeMap<>();
        try (InputStream in = BrokerConfigDef.class.getResourceAsStream("kafka-broker-keys.txt")) {
            new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .forEach(line -> ours.put(line.split(" ")[0], line.split(" ")[1]));
        }

        assertThat(ours).isEqualTo(kafka);
        kafka.forEach((name, type) -> assertThat(BrokerConfigDef.kafkaType(name)).as(name).isEqualTo(type));
    }
}
