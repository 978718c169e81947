package io.odradek.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConfigEntry.ConfigSource;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/**
 * Dynamic configs in a 3-node cluster: each change goes through the controller quorum, and every broker reads it
 * from its metadata image, also after a restart.
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
            ConfigEntry retention = entry(broker(id), "log.retention.ms");
            assertThat(retention.value()).as("broker %d", id).isEqualTo("3600000");
            assertThat(retention.source()).as("broker %d", id).isEqualTo(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
        }
        assertThat(entry(broker(2), "message.max.bytes").value()).isEqualTo("2000");
        assertThat(entry(broker(2), "message.max.bytes").source()).isEqualTo(ConfigSource.DYNAMIC_BROKER_CONFIG);
        assertThat(entry(broker(1), "message.max.bytes").value()).isEqualTo("1048588");
        assertThat(entry(broker(1), "message.max.bytes").source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
        assertThat(entry(topic, "segment.ms").value()).isEqualTo("600000");
        assertThat(entry(topic, "unclean.leader.election.enable").value()).isEqualTo("true");
        assertThat(entry(topic, "unclean.leader.election.enable").source()).isEqualTo(ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(entry(topic, "retention.ms").value()).isEqualTo("3600000");
        assertThat(entry(topic, "retention.ms").source()).isEqualTo(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);

        cluster.stop(3);
        cluster.start(3);
        cluster.awaitBrokers(3, Duration.ofSeconds(60));

        OdradekCluster.awaitCondition("broker 3 reads the dynamic default again", Duration.ofSeconds(60),
                () -> "3600000".equals(valueOrNull(broker(3), "log.retention.ms")));
        assertThat(entry(broker(3), "log.retention.ms").source()).isEqualTo(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
    }
}
