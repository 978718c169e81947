package io.odradek.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConfigEntry.ConfigSource;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/**
 * Dynamic configs in a 3-node cluster: each change goes through the controller quorum, and every broker reads it
 * from its metadata image, also after a restart. As in Kafka, the alter is answered once the quorum has committed
 * the change, and each broker applies it when its copy of the metadata log gets there, a moment later; a describe
 * right after the alter may still see the old value (Kafka's own PlaintextAdminIntegrationTest waits the same way,
 * "Expected to see the broker properties we just set"), so each check waits until the broker asked shows it.
 */
class ClusterConfigsTest extends WithThreeNodeCluster {
    private static void set(ConfigResource resource, String key, String value) throws Exception {
        cluster.admin().incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(key, value),
                AlterConfigOp.OpType.SET)))).all().get(60, TimeUnit.SECONDS);
    }

    private static ConfigEntry entry(ConfigResource resource, String key) throws Exception {
        Config config = cluster.admin().describeConfigs(List.of(resource)).all().get(60, TimeUnit.SECONDS).get(resource);
        return config.get(key);
    }

    /**
     * Waits until {@code resource}'s {@code key} reads {@code value} (the broker answering has applied the change)
     * and returns that entry.
     */
    private static ConfigEntry awaitEntry(ConfigResource resource, String key, String value) {
        AtomicReference<ConfigEntry> seen = new AtomicReference<>();
        OdradekCluster.awaitCondition(resource + " showing " + key + "=" + value, Duration.ofSeconds(30), () -> {
            try {
                seen.set(entry(resource, key));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            assertThat(seen.get().value()).as("%s %s", resource, key).isEqualTo(value); // the last one in a failure
            return true;
        });
        return seen.get();
    }

    /** The value, or null while the broker cannot answer yet. */
    private static String valueOrNull(ConfigResource resource, String key) {
        try {
            return entry(resource, key).value();
        } catch (Exception e) {
            return null;
        }
    }

    private static ConfigResource broker(int id) {
        return new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(id));
    }

    @Test
    void brokerAndTopicConfigsReachEveryBrokerThroughTheQuorumAndSurviveARestart() throws Exception {
        cluster.admin().createTopics(List.of(new NewTopic("orders", 3, (short) 3))).all().get(60, TimeUnit.SECONDS);
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "orders");

        set(new ConfigResource(ConfigResource.Type.BROKER, ""), "log.retention.ms", "3600000");
        set(broker(2), "message.max.bytes", "2000");
        set(topic, "segment.ms", "600000");
        set(topic, "unclean.leader.election.enable", "true");

        for (int id = 1; id <= 3; id++) {
            ConfigEntry retention = awaitEntry(broker(id), "log.retention.ms", "3600000");
            assertThat(retention.source()).as("broker %d", id).isEqualTo(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
        }
        assertThat(awaitEntry(broker(2), "message.max.bytes", "2000").source())
                .isEqualTo(ConfigSource.DYNAMIC_BROKER_CONFIG);
        // A per-broker value is that broker's alone.
        ConfigEntry otherBroker = entry(broker(1), "message.max.bytes");
        assertThat(otherBroker.value()).isEqualTo("1048588");
        assertThat(otherBroker.source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
        // Topic configs are described by whichever broker the client picks: each read waits for the one it asked.
        assertThat(awaitEntry(topic, "segment.ms", "600000").value()).isEqualTo("600000");
        assertThat(awaitEntry(topic, "unclean.leader.election.enable", "true").source())
                .isEqualTo(ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(awaitEntry(topic, "retention.ms", "3600000").source())
                .isEqualTo(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);

        cluster.stop(3);
        cluster.start(3);
        cluster.awaitBrokers(3, Duration.ofSeconds(60));

        OdradekCluster.awaitCondition("broker 3 reads the dynamic default again", Duration.ofSeconds(60),
                () -> "3600000".equals(valueOrNull(broker(3), "log.retention.ms")));
        assertThat(entry(broker(3), "log.retention.ms").source()).isEqualTo(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
    }
}
