package io.odradek.broker.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.BrokerConfig;
import io.odradek.replication.config.InMemoryDynamicConfigStore;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DynamicBrokerConfigTest {
    @Test
    void oneBadStoredKeyIsLeftOutAndTheOtherDynamicConfigsStayInForce() {
        InMemoryDynamicConfigStore store = new InMemoryDynamicConfigStore();
        store.alterBrokerConfigs("", Map.of("log.retention.ms", "60000", "message.max.bytes", "lots")).join();
        store.alterBrokerConfigs("1", Map.of("log.segment.bytes", "-5", "log.cleanup.policy", "compact")).join();

        DynamicBrokerConfig dynamic = new DynamicBrokerConfig(BrokerConfig.of(Map.of("node.id", "1")), store);

        assertThat(dynamic.current().logRetentionMs()).isEqualTo(60000);
        assertThat(dynamic.current().messageMaxBytes()).isEqualTo(1048588);
        assertThat(dynamic.current().logDefaults().isCompact()).isTrue();
        assertThat(dynamic.current().logDefaults().segmentBytes()).isEqualTo(1073741824);
    }

    @Test
    void aChangeThatLeavesOneBadKeyStillAppliesTheGoodOnes() {
        InMemoryDynamicConfigStore store = new InMemoryDynamicConfigStore();
        DynamicBrokerConfig dynamic = new DynamicBrokerConfig(BrokerConfig.of(Map.of("node.id", "1")), store);

        store.alterBrokerConfigs("", Map.of("log.retention.ms", "120000", "message.max.bytes", "lots")).join();

        assertThat(dynamic.current().logRetentionMs()).isEqualTo(120000);
        assertThat(dynamic.current().messageMaxBytes()).isEqualTo(1048588);
    }
}
