package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.tools.ConfigCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Kafka 4.4's kafka-configs against a single-node Odradek: topic and broker configs, altered and described. */
class ConfigCommandTest {
    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of("log.segment.bytes", "2000000"));

    private KafkaTool.Output configs(String... args) throws Exception {
        return KafkaConfigs.run(broker, args);
    }

    @Test
    void topicConfigsAreAddedDescribedAndDeleted() throws Exception {
        broker.createTopic("orders", 1);

        KafkaTool.Output alter = configs("--alter", "--entity-type", "topics", "--entity-name", "orders",
                "--add-config", "retention.ms=60000,cleanup.policy=[compact,delete]");
        KafkaTool.Output describe = configs("--describe", "--entity-type", "topics", "--entity-name", "orders");
        configs("--alter", "--entity-type", "topics", "--entity-name", "orders", "--delete-config", "retention.ms");
        KafkaTool.Output after = configs("--describe", "--entity-type", "topics", "--entity-name", "orders");

        assertThat(alter.stdout()).isEqualTo("Completed updating config for topic orders.\n");
        assertThat(describe.stdout()).isEqualTo("Dynamic configs for topic orders are:\n"
                + "  cleanup.policy=compact,delete sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:cleanup.policy="
                + "compact,delete, DEFAULT_CONFIG:log.cleanup.policy=delete}\n"
                + "  retention.ms=60000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=60000}\n");
        assertThat(after.stdout()).isEqualTo("Dynamic configs for topic orders are:\n"
                + "  cleanup.policy=compact,delete sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:cleanup.policy="
                + "compact,delete, DEFAULT_CONFIG:log.cleanup.policy=delete}\n");
    }

    @Test
    void brokerConfigsPerBrokerAndClusterDefaultAreAlteredAndDescribed() throws Exception {
        KafkaTool.Output perBroker = configs("--alter", "--entity-type", "brokers", "--entity-name", "1",
                "--add-config", "message.max.bytes=2000000");
        KafkaTool.Output clusterDefault = configs("--alter", "--entity-type", "brokers", "--entity-default",
                "--add-config", "log.retention.ms=3600000,log.segment.bytes=3000000");
        KafkaTool.Output describeBroker = configs("--describe", "--entity-type", "brokers", "--entity-name", "1");
        KafkaTool.Output describeDefault = configs("--describe", "--entity-type", "brokers", "--entity-default");
        KafkaTool.Output all = configs("--describe", "--all", "--entity-type", "brokers", "--entity-name", "1");

        assertThat(perBroker.stdout()).isEqualTo("Completed updating config for broker 1.\n");
        assertThat(clusterDefault.stdout()).isEqualTo("Completed updating default config for brokers in the cluster.\n");
        assertThat(describeBroker.stdout()).isEqualTo("Dynamic configs for broker 1 are:\n"
                + "  message.max.bytes=2000000 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:message.max.bytes=2000000,"
                + " DEFAULT_CONFIG:message.max.bytes=1048588}\n");
        assertThat(describeDefault.stdout()).isEqualTo("Default configs for brokers in the cluster are:\n"
                + "  log.retention.ms=3600000 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:"
                + "log.retention.ms=3600000}\n"
                + "  log.segment.bytes=3000000 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:"
                + "log.segment.bytes=3000000}\n");
        assertThat(all.stdout()).startsWith("All configs for broker 1 are:\n")
                .contains("  log.segment.bytes=3000000 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:"
                        + "log.segment.bytes=3000000, STATIC_BROKER_CONFIG:log.segment.bytes=2000000, "
                        + "DEFAULT_CONFIG:log.segment.bytes=1073741824}\n")
                .contains("  num.partitions=1 sensitive=false synonyms={DEFAULT_CONFIG:num.partitions=1}\n");
    }

    @Test
    void aReadOnlyBrokerConfigIsRefusedWithKafkasMessage() throws Exception {
        KafkaTool.Exited refused = KafkaTool.runToExit(ConfigCommand::main, "--bootstrap-server", broker.bootstrap(),
                "--alter", "--entity-type", "brokers", "--entity-name", "1", "--add-config", "num.partitions=3");

        assertThat(refused.status()).isEqualTo(1);
        assertThat(refused.stdout() + refused.stderr())
                .contains("Cannot update these configs dynamically: [num.partitions]");
    }
}
