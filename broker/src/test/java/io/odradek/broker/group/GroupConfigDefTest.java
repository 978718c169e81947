package io.odradek.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.config.BrokerConfigDef;
import io.odradek.broker.config.ConfigKey;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.coordinator.group.GroupConfig;
import org.apache.kafka.server.config.AbstractKafkaConfig;
import org.junit.jupiter.api.Test;

/** Our group config table is Kafka 4.4's GroupConfig, and our group.* broker keys have Kafka's defaults. */
class GroupConfigDefTest {
    @Test
    void groupConfigKeysTypesDefaultsInternalFlagsAndBrokerSynonymsAreKafkas() {
        Map<String, String> kafka = new TreeMap<>();
        GroupConfig.CONFIG_DEF.configKeys().forEach((name, key) -> kafka.put(name, key.type.name() + " "
                + ConfigDef.convertToString(key.defaultValue, key.type) + " internal=" + key.internalConfig
                + " synonym=" + GroupConfig.brokerSynonym(name).orElse(null)));

        Map<String, String> ours = new TreeMap<>();
        GroupConfigDef.keys().forEach((name, key) -> ours.put(name, key.key().type().name() + " "
                + key.key().defaultValue() + " internal=" + key.internal() + " synonym=" + key.brokerSynonym()));

        assertThat(ours).isEqualTo(kafka);
    }

    @Test
    void theGroupBrokerKeysHaveKafkasDefaults() {
        int checked = 0;
        for (ConfigKey key : BrokerConfigDef.keys().values()) {
            ConfigDef.ConfigKey kafka = AbstractKafkaConfig.CONFIG_DEF.configKeys().get(key.name());
            if (!key.name().startsWith("group.") || kafka == null) {
                continue;
            }
            assertThat(key.defaultValue()).as(key.name())
                    .isEqualTo(ConfigDef.convertToString(kafka.defaultValue, kafka.type));
            assertThat(key.type().name()).as(key.name()).isEqualTo(kafka.type.name());
            checked++;
        }
        assertThat(checked).isGreaterThan(50);
    }
}
