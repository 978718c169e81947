package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Kafka 4.4's kafka-configs sets, describes and deletes a share group's dynamic configs (GROUP resources). */
class ShareGroupConfigCommandTest {
    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withDefaults();

    @Test
    void groupConfigsAreAddedDescribedAndDeleted() throws Exception {
        KafkaTool.Output alter = KafkaConfigs.run(broker, "--alter", "--entity-type", "groups", "--entity-name",
                "workers", "--add-config", "share.auto.offset.reset=earliest,share.record.lock.duration.ms=20000");
        KafkaTool.Output describe = KafkaConfigs.run(broker, "--describe", "--entity-type", "groups",
                "--entity-name", "workers");
        KafkaConfigs.run(broker, "--alter", "--entity-type", "groups", "--entity-name", "workers",
                "--delete-config", "share.record.lock.duration.ms");
        KafkaTool.Output after = KafkaConfigs.run(broker, "--describe", "--entity-type", "groups",
                "--entity-name", "workers");

        assertThat(alter.stdout()).isEqualTo("Completed updating config for group workers.\n");
        assertThat(describe.stdout()).isEqualTo("Dynamic configs for group workers are:\n"
                + "  share.auto.offset.reset=earliest sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:"
                + "share.auto.offset.reset=earliest, DEFAULT_CONFIG:share.auto.offset.reset=latest}\n"
                + "  share.record.lock.duration.ms=20000 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:"
                + "share.record.lock.duration.ms=20000, DEFAULT_CONFIG:group.share.record.lock.duration.ms=30000}\n");
        assertThat(after.stdout()).isEqualTo("Dynamic configs for group workers are:\n"
                + "  share.auto.offset.reset=earliest sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:"
                + "share.auto.offset.reset=earliest, DEFAULT_CONFIG:share.auto.offset.reset=latest}\n");
    }

    @Test
    void aLockDurationBelowTheBrokersMinimumIsRefused() throws Exception {
        KafkaTool.Exited refused = KafkaTool.runToExit(org.apache.kafka.tools.ConfigCommand::main,
                "--bootstrap-server", broker.bootstrap(), "--alter", "--entity-type", "groups", "--entity-name",
                "workers", "--add-config", "share.record.lock.duration.ms=1000");

        assertThat(refused.status()).isEqualTo(1);
        // The bounds are the broker's group.share.min/max.record.lock.duration.ms (defaults 15000 and 60000).
        assertThat(refused.stderr() + refused.stdout()).contains("org.apache.kafka.common.errors.InvalidConfigurationException: "
                + "share.record.lock.duration.ms must be in the range 15000 to 60000 inclusive.");
    }
}
