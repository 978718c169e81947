package io.odradek.replication.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.cluster.ControllerCommand.AlterDynamicConfigs;
import io.odradek.replication.cluster.ControllerCommand.AlterGroupConfigs;
import io.odradek.replication.config.QuotaEntity;
import io.odradek.wire.ErrorCode;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Dynamic broker configs and quotas in cluster mode: the command, its application and the image section. */
class DynamicConfigCommandsTest {
    private static final QuotaEntity APP = QuotaEntity.of(Map.of(QuotaEntity.CLIENT_ID, "app"));
    private static final QuotaEntity DEFAULT_USER = QuotaEntity.of(nullable(QuotaEntity.USER, null));

    private static <V> Map<String, V> nullable(String key, V value) {
        Map<String, V> map = new HashMap<>();
        map.put(key, value);
        return map;
    }

    private static AlterDynamicConfigs setRetention(String broker, String value) {
        return new AlterDynamicConfigs(Map.of(broker, nullable("log.retention.ms", value)), Map.of());
    }

    @Test
    void commandWithRemovalsAndDefaultEntitiesSurvivesTheCodec() {
        Map<String, Map<String, String>> brokers = new LinkedHashMap<>();
        brokers.put("", nullable("log.retention.ms", "60000"));
        brokers.put("2", nullable("message.max.bytes", null));
        Map<QuotaEntity, Map<String, Double>> quotas = new LinkedHashMap<>();
        quotas.put(APP, nullable("producer_byte_rate", 1048576.0));
        quotas.put(DEFAULT_USER, nullable("consumer_byte_rate", null));
        AlterDynamicConfigs command = new AlterDynamicConfigs(brokers, quotas);

        byte[] bytes = CommandCodec.encode(command);

        assertThat(bytes[0]).isEqualTo(CommandCodec.FORMAT);
        assertThat(bytes[1]).isEqualTo((byte) 14);
        assertThat(CommandCodec.decode(bytes)).isEqualTo(command);
    }

    @Test
    void perBrokerAndClusterDefaultConfigsLandInTheImageAndRemovalsDropThem() {
        Cluster c = new Cluster().withBrokers(2);
        Cluster.expectOk(c.run(setRetention("", "60000")));
        Cluster.expectOk(c.run(new AlterDynamicConfigs(Map.of("2", Map.of("message.max.bytes", "2000000",
                "log.retention.ms", "1000")), Map.of(APP, Map.of("producer_byte_rate", 1024.0)))));

        assertThat(c.image.dynamicConfigs().broker("")).containsExactly(Map.entry("log.retention.ms", "60000"));
        assertThat(c.image.dynamicConfigs().broker("2")).containsExactly(Map.entry("log.retention.ms", "1000"),
                Map.entry("message.max.bytes", "2000000"));
        assertThat(c.image.dynamicConfigs().quotas()).containsExactly(Map.entry(APP, Map.of("producer_byte_rate", 1024.0)));

        Cluster.expectOk(c.run(setRetention("", null)));
        assertThat(c.image.dynamicConfigs().brokers()).containsOnlyKeys("2");
    }

    @Test
    void brokerEntityNamesAreCheckedAsKafkasControllerDoes() {
        Cluster c = new Cluster().withBrokers(1);
        long before = c.image.offset();

        CommandResult notANumber = c.run(setRetention("one", "1"));
        CommandResult negative = c.run(setRetention("-3", "1"));

        assertThat(notANumber.error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(notANumber.message()).isEqualTo("Unable to parse broker name as a base 10 number.");
        assertThat(negative.error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(negative.message()).isEqualTo("Invalid negative broker ID.");
        assertThat(c.image.dynamicConfigs().brokers()).isEmpty();
        assertThat(c.image.offset()).isEqualTo(before + 2);
    }

    @Test
    void dynamicConfigsSurviveTheImageCodecAndLaterCommandsKeepThem() {
        Cluster c = new Cluster().withBrokers(1);
        Cluster.expectOk(c.run(new AlterDynamicConfigs(Map.of("", Map.of("log.segment.bytes", "1048576")),
                Map.of(DEFAULT_USER, Map.of("request_percentage", 50.0)))));
        c.run(new ControllerCommand.AllocateProducerIds(1, c.epoch(1)));

        byte[] bytes = ImageCodec.encode(c.image);

        ClusterImage decoded = ImageCodec.decode(bytes);
        assertThat(decoded).isEqualTo(c.image);
        assertThat(decoded.dynamicConfigs().broker("")).containsEntry("log.segment.bytes", "1048576");
        assertThat(decoded.dynamicConfigs().quotas().get(DEFAULT_USER)).containsEntry("request_percentage", 50.0);
    }

    @Test
    void groupConfigsLandInTheImageSurviveBothCodecsAndAnEmptyGroupNameIsRefused() {
        Cluster c = new Cluster().withBrokers(1);
        AlterGroupConfigs set = new AlterGroupConfigs("orders-queue", Map.of("share.auto.offset.reset", "earliest",
                "share.delivery.count.limit", "3"));
        AlterGroupConfigs remove = new AlterGroupConfigs("orders-queue", nullable("share.delivery.count.limit", null));
        assertThat(CommandCodec.decode(CommandCodec.encode(remove))).isEqualTo(remove);
        assertThat(CommandCodec.encode(set)[1]).isEqualTo((byte) 18);

        Cluster.expectOk(c.run(set));
        Cluster.expectOk(c.run(new AlterGroupConfigs("other", Map.of("streams.num.standby.replicas", "1"))));
        Cluster.expectOk(c.run(remove));
        CommandResult empty = c.run(new AlterGroupConfigs("", Map.of("share.auto.offset.reset", "earliest")));

        assertThat(empty.error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(empty.message()).isEqualTo("Default group resources are not allowed.");
        assertThat(c.image.dynamicConfigs().groups()).containsOnly(
                Map.entry("orders-queue", Map.of("share.auto.offset.reset", "earliest")),
                Map.entry("other", Map.of("streams.num.standby.replicas", "1")));
        ClusterImage decoded = ImageCodec.decode(ImageCodec.encode(c.image));
        assertThat(decoded).isEqualTo(c.image);
        assertThat(decoded.dynamicConfigs().group("other")).containsExactly(Map.entry("streams.num.standby.replicas", "1"));
    }

    @Test
    void aFormat4SnapshotWrittenBeforeGroupConfigsIsStillRead() {
        Cluster c = new Cluster().withBrokers(1);
        Cluster.expectOk(c.run(setRetention("", "60000")));
        byte[] current = ImageCodec.encode(c.image);
        // Format 4 is format 5 without the trailing group-config section (an empty count).
        byte[] old = Arrays.copyOf(current, current.length - 4);
        old[0] = 4;

        ClusterImage decoded = ImageCodec.decode(old);

        assertThat(decoded).isEqualTo(c.image);
        assertThat(decoded.dynamicConfigs().broker("")).containsExactly(Map.entry("log.retention.ms", "60000"));
    }

    @Test
    void aFormat2SnapshotWrittenBeforeDynamicConfigsIsStillRead() {
        ClusterImage image = new Cluster().withBrokers(2).image;
        byte[] current = ImageCodec.encode(image);
        // Format 2 is format 5 without the three trailing sections (dynamic configs and security: two empty counts
        // each; group configs: one).
        byte[] old = Arrays.copyOf(current, current.length - 20);
        old[0] = 2;

        ClusterImage decoded = ImageCodec.decode(old);

        assertThat(decoded).isEqualTo(image);
        assertThat(decoded.dynamicConfigs().brokers()).isEmpty();
    }
}
