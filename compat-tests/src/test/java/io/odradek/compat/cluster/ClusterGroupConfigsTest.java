package io.odradek.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConfigEntry.ConfigSource;
import org.apache.kafka.clients.admin.ListConfigResourcesOptions;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/**
 * Issue 12: group configs (GROUP resources) in a 3-node cluster: stored through the controller quorum, read by
 * every broker from its metadata image, and kept when each node in turn (the controller leader among them) is
 * restarted. Reads wait until the broker asked has applied the change, as in {@link ClusterConfigsTest}.
 */
class ClusterGroupConfigsTest extends WithThreeNodeCluster {
    private static final ConfigResource GROUP = new ConfigResource(ConfigResource.Type.GROUP, "orders-queue");

    private static ConfigEntry entryOrNull(String key) {
        try {
            Config config = cluster.admin().describeConfigs(List.of(GROUP)).all().get(10, TimeUnit.SECONDS).get(GROUP);
            return config.get(key);
        } catch (Exception e) {
            return null;
        }
    }

    private static void awaitValue(String key, String value, ConfigSource source, String when) {
        OdradekCluster.awaitCondition(when + ": " + key + "=" + value, Duration.ofSeconds(60), () -> {
            ConfigEntry e = entryOrNull(key);
            return e != null && value.equals(e.value()) && e.source() == source;
        });
    }

    @Test
    void aGroupConfigGoesThroughTheQuorumAndSurvivesEveryNodeRestartingInTurn() throws Exception {
        cluster.admin().incrementalAlterConfigs(Map.of(GROUP, List.of(
                new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("share.delivery.count.limit", "3"), AlterConfigOp.OpType.SET))))
                .all().get(60, TimeUnit.SECONDS);

        awaitValue("share.auto.offset.reset", "earliest", ConfigSource.DYNAMIC_GROUP_CONFIG, "after the alter");
        awaitValue("share.delivery.count.limit", "3", ConfigSource.DYNAMIC_GROUP_CONFIG, "after the alter");
        Collection<ConfigResource> listed = cluster.admin().listConfigResources(Set.of(ConfigResource.Type.GROUP),
                new ListConfigResourcesOptions()).all().get(30, TimeUnit.SECONDS);
        assertThat(listed).containsExactly(GROUP);

        for (int id = 1; id <= 3; id++) {
            cluster.stop(id);
            cluster.start(id);
            cluster.awaitBrokers(3, Duration.ofSeconds(90));
        }

        awaitValue("share.auto.offset.reset", "earliest", ConfigSource.DYNAMIC_GROUP_CONFIG, "after the restarts");
        awaitValue("share.delivery.count.limit", "3", ConfigSource.DYNAMIC_GROUP_CONFIG, "after the restarts");
        assertThat(entryOrNull("share.record.lock.duration.ms").value()).isEqualTo("30000");
    }
}
