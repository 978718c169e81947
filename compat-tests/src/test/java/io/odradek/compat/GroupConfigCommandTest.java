package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.tools.ConfigCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 12: Kafka 4.4's kafka-configs --entity-type groups against a single-node Odradek: a group's dynamic configs
 * added, described (by name, and without one through ListConfigResources), deleted, and a bad value refused with
 * Kafka's message; they survive a broker restart.
 */
class GroupConfigCommandTest {
    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of());

    private KafkaTool.Output configs(String... args) throws Exception {
        return KafkaConfigs.run(broker, args);
    }

    @Test
    void groupConfigsAreAddedDescribedAndDeleted() throws Exception {
        KafkaTool.Output alter = configs("--alter", "--entity-type", "groups", "--entity-name", "g",
                "--add-config", "share.auto.offset.reset=earliest,share.record.lock.duration.ms=20000");
        KafkaTool.Output describe = configs("--describe", "--entity-type", "groups", "--entity-name", "g");
        KafkaTool.Output describeAllGroups = configs("--describe", "--entity-type", "groups");
        configs("--alter", "--entity-type", "groups", "--entity-name", "g", "--delete-config",
                "share.record.lock.duration.ms");
        KafkaTool.Output after = configs("--describe", "--entity-type", "groups", "--entity-name", "g");

        assertThat(alter.stdout()).isEqualTo("Completed updating config for group g.\n");
        String described = "Dynamic configs for group g are:\n"
                + "  share.auto.offset.reset=earliest sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:"
                + "share.auto.offset.reset=earliest, DEFAULT_CONFIG:share.auto.offset.reset=latest}\n"
                + "  share.record.lock.duration.ms=20000 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:"
                + "share.record.lock.duration.ms=20000, DEFAULT_CONFIG:group.share.record.lock.duration.ms=30000}\n";
        assertThat(describe.stdout()).isEqualTo(described);
        assertThat(describeAllGroups.stdout()).isEqualTo(described);
        assertThat(after.stdout()).isEqualTo("Dynamic configs for group g are:\n"
                + "  share.auto.offset.reset=earliest sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:"
                + "share.auto.offset.reset=earliest, DEFAULT_CONFIG:share.auto.offset.reset=latest}\n");
    }

    @Test
    void allGroupConfigsShowTheBrokerDefaultsForKeysTheGroupDoesNotSet() throws Exception {
        configs("--alter", "--entity-type", "groups", "--entity-name", "g", "--add-config",
                "share.delivery.count.limit=3");

        KafkaTool.Output all = configs("--describe", "--all", "--entity-type", "groups", "--entity-name", "g");

        assertThat(all.stdout()).startsWith("All configs for group g are:\n")
                .contains("  share.delivery.count.limit=3 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:"
                        + "share.delivery.count.limit=3, DEFAULT_CONFIG:group.share.delivery.count.limit=5}\n")
                .contains("  share.session.timeout.ms=45000 sensitive=false synonyms={DEFAULT_CONFIG:"
                        + "group.share.session.timeout.ms=45000}\n")
                .contains("  share.isolation.level=read_uncommitted sensitive=false synonyms={DEFAULT_CONFIG:"
                        + "share.isolation.level=read_uncommitted}\n");
    }

    @Test
    void anOutOfRangeGroupConfigIsRefusedWithKafkasMessage() throws Exception {
        KafkaTool.Exited refused = KafkaTool.runToExit(ConfigCommand::main, "--bootstrap-server", broker.bootstrap(),
                "--alter", "--entity-type", "groups", "--entity-name", "g", "--add-config",
                "share.record.lock.duration.ms=5000");

        assertThat(refused.status()).isEqualTo(1);
        assertThat(refused.stdout() + refused.stderr())
                .contains("share.record.lock.duration.ms must be in the range 15000 to 60000 inclusive.");
    }

    @Test
    void groupConfigsSurviveABrokerRestart() throws Exception {
        configs("--alter", "--entity-type", "groups", "--entity-name", "g", "--add-config",
                "share.auto.offset.reset=earliest");

        broker.restart();

        assertThat(configs("--describe", "--entity-type", "groups", "--entity-name", "g").stdout())
                .isEqualTo("Dynamic configs for group g are:\n"
                        + "  share.auto.offset.reset=earliest sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:"
                        + "share.auto.offset.reset=earliest, DEFAULT_CONFIG:share.auto.offset.reset=latest}\n");
    }
}
