package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.config.DynamicBrokerConfig;
import io.odradek.broker.topics.ConfigDescriber;
import io.odradek.replication.config.LocalDynamicConfigStore;
import io.odradek.replication.metadata.ClusterMetadata;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AlterConfigsApi;
import io.odradek.wire.api.DescribeConfigsApi;
import io.odradek.wire.api.DescribeConfigsApi.Request.DescribeConfigsResource;
import io.odradek.wire.api.DescribeConfigsApi.Response.DescribeConfigsResult;
import io.odradek.wire.api.DescribeConfigsApi.Response.DescribeConfigsResult.DescribeConfigsResourceResult;
import io.odradek.wire.api.DescribeConfigsApi.Response.DescribeConfigsResult.DescribeConfigsResourceResult.DescribeConfigsSynonym;
import io.odradek.wire.api.IncrementalAlterConfigsApi;
import io.odradek.wire.api.IncrementalAlterConfigsApi.Request.AlterConfigsResource;
import io.odradek.wire.api.IncrementalAlterConfigsApi.Request.AlterConfigsResource.AlterableConfig;
import io.odradek.wire.api.IncrementalAlterConfigsApi.Response.AlterConfigsResourceResponse;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AlterConfigs / IncrementalAlterConfigs on a single node, read back with DescribeConfigs and from the logs. */
class AlterConfigsHandlerTest {
    private static final byte TOPIC = 2;
    private static final byte BROKER = 4;

    @TempDir
    Path dir;
    AdminFixture fx;
    DynamicBrokerConfig dynamic;

    @BeforeEach
    void open() {
        start();
        fx.topics.createTopic("orders", 2, Map.of(), false);
        fx.topics.createTopic("audit", 1, Map.of("max.message.bytes", "5000"), false);
    }

    private void start() {
        fx = new AdminFixture(dir, Map.of("log.segment.bytes", "2000000"));
        dynamic = new DynamicBrokerConfig(fx.config, new LocalDynamicConfigStore(dir.resolve(ClusterMetadata.DIR_NAME)));
        dynamic.addListener(c -> fx.topics.updateLogDefaults(c.logDefaults()));
        fx.topics.updateLogDefaults(dynamic.current().logDefaults());
    }

    @AfterEach
    void close() {
        fx.close();
    }

    // ------------------------------------------------------------------ topics

    @Test
    void incrementalSetOnATopicIsStoredReportedAndAppliedToItsLogs() {
        Struct r = incremental(false, resource(TOPIC, "orders", op("retention.ms", 0, "60000"),
                op("cleanup.policy", 0, "compact")));

        assertThat(outcomes(r)).containsExactly("orders:0:null");
        assertThat(fx.topics.topic("orders").orElseThrow().configs())
                .containsOnly(Map.entry("retention.ms", "60000"), Map.entry("cleanup.policy", "compact"));
        assertThat(fx.topics.partitionLog("orders", 1).orElseThrow().config().retentionMs()).isEqualTo(60000);
        assertThat(fx.topics.partitionLog("orders", 0).orElseThrow().config().isCompact()).isTrue();
        Map<String, Struct> configs = describe(TOPIC, "orders");
        assertThat(configs.get("retention.ms").get(DescribeConfigsResourceResult.VALUE)).isEqualTo("60000");
        assertThat(synonyms(configs.get("retention.ms"))).containsExactly("retention.ms=60000@1");
    }

    @Test
    void appendAndSubtractWorkOnListKeysOnlyStartingFromTheDefault() {
        incremental(false, resource(TOPIC, "orders", op("cleanup.policy", 2, "compact")));
        assertThat(fx.topics.topic("orders").orElseThrow().configs()).containsEntry("cleanup.policy", "delete,compact");

        incremental(false, resource(TOPIC, "orders", op("cleanup.policy", 3, "delete")));
        assertThat(fx.topics.topic("orders").orElseThrow().configs()).containsEntry("cleanup.policy", "compact");

        Struct r = incremental(false, resource(TOPIC, "orders", op("retention.ms", 2, "5")));
        assertThat(outcomes(r)).containsExactly(
                "orders:40:Can't APPEND to key retention.ms because its type is not LIST.");
    }

    @Test
    void badTopicValuesUnknownKeysAndUnknownTopicsAreRefusedWithKafkasMessages() {
        Struct r = incremental(false,
                resource(TOPIC, "orders", op("retention.ms", 0, "abc")),
                resource(TOPIC, "audit", op("retention.msec", 0, "1")),
                resource(TOPIC, "nope", op("retention.ms", 0, "1000")),
                resource(TOPIC, "orders2", op("cleanup.policy", 0, "shred")),
                resource(TOPIC, "", op("retention.ms", 0, "1")));

        assertThat(outcomes(r)).containsExactly(
                "orders:40:Invalid value abc for configuration retention.ms: Not a number of type LONG",
                "audit:40:Unknown topic config name: retention.msec",
                "nope:3:The topic 'nope' does not exist.",
                "orders2:40:Invalid value shred for configuration cleanup.policy: Each entry must be one of: compact, delete",
                ":42:Default topic resources are not allowed.");
        assertThat(fx.topics.topic("orders").orElseThrow().configs()).isEmpty();
    }

    @Test
    void validateOnlyChecksButChangesNothing() {
        Struct r = incremental(true, resource(TOPIC, "orders", op("retention.ms", 0, "1000")),
                resource(BROKER, "", op("log.retention.ms", 0, "1000")));

        assertThat(outcomes(r)).containsExactly("orders:0:null", ":0:null");
        assertThat(fx.topics.topic("orders").orElseThrow().configs()).isEmpty();
        assertThat(dynamic.clusterDefault()).isEmpty();
    }

    @Test
    void legacyAlterConfigsReplacesTheWholeSet() {
        incremental(false, resource(TOPIC, "audit", op("retention.ms", 0, "1000")));

        Struct req = AlterConfigsApi.Request.SCHEMA.newStruct().set(AlterConfigsApi.Request.VALIDATE_ONLY, false);
        req.add(AlterConfigsApi.Request.RESOURCES)
                .set(AlterConfigsApi.Request.AlterConfigsResource.RESOURCE_TYPE, TOPIC)
                .set(AlterConfigsApi.Request.AlterConfigsResource.RESOURCE_NAME, "audit")
                .add(AlterConfigsApi.Request.AlterConfigsResource.CONFIGS)
                .set(AlterConfigsApi.Request.AlterConfigsResource.AlterableConfig.NAME, "segment.ms")
                .set(AlterConfigsApi.Request.AlterConfigsResource.AlterableConfig.VALUE, "3600000");
        Struct r = fx.call(new AlterConfigsHandler(fx.topics, dynamic), 0, req);

        Struct one = r.get(AlterConfigsApi.Response.RESPONSES).get(0);
        assertThat(one.get(AlterConfigsApi.Response.AlterConfigsResourceResponse.ERROR_CODE)).isZero();
        assertThat(fx.topics.topic("audit").orElseThrow().configs()).containsExactly(Map.entry("segment.ms", "3600000"));
        assertThat(fx.topics.partitionLog("audit", 0).orElseThrow().config().maxMessageBytes()).isEqualTo(1048588);
    }

    // ------------------------------------------------------------------ brokers

    @Test
    void dynamicBrokerConfigsLayerOverStaticOnesAndTopicsWithoutOverridesFollow() {
        Struct r = incremental(false, resource(BROKER, "", op("log.retention.ms", 0, "3600000")),
                resource(BROKER, "1", op("message.max.bytes", 0, "2000"), op("log.segment.bytes", 0, "3000000")));
        assertThat(outcomes(r)).containsExactly(":0:null", "1:0:null");

        // The logs: orders follows the broker, audit keeps its own max.message.bytes.
        assertThat(fx.topics.partitionLog("orders", 0).orElseThrow().config().maxMessageBytes()).isEqualTo(2000);
        assertThat(fx.topics.partitionLog("orders", 1).orElseThrow().config().retentionMs()).isEqualTo(3600000);
        assertThat(fx.topics.partitionLog("orders", 1).orElseThrow().config().segmentBytes()).isEqualTo(3000000);
        assertThat(fx.topics.partitionLog("audit", 0).orElseThrow().config().maxMessageBytes()).isEqualTo(5000);

        Map<String, Struct> broker = describe(BROKER, "1");
        assertThat(entry(broker.get("message.max.bytes"))).isEqualTo("2000@2 readOnly=false");
        assertThat(synonyms(broker.get("message.max.bytes"))).containsExactly("message.max.bytes=2000@2",
                "message.max.bytes=1048588@5");
        assertThat(synonyms(broker.get("log.segment.bytes"))).containsExactly("log.segment.bytes=3000000@2",
                "log.segment.bytes=2000000@4", "log.segment.bytes=1073741824@5");
        assertThat(entry(broker.get("log.retention.ms"))).isEqualTo("3600000@3 readOnly=false");
        assertThat(synonyms(broker.get("log.retention.ms"))).containsExactly("log.retention.ms=3600000@3",
                "log.retention.hours=168@5");
        assertThat(entry(broker.get("log.dirs"))).isEqualTo(dir + "@4 readOnly=true");

        Map<String, Struct> clusterDefault = describe(BROKER, "");
        assertThat(clusterDefault.keySet()).containsExactly("log.retention.ms");
        assertThat(synonyms(clusterDefault.get("log.retention.ms"))).containsExactly("log.retention.ms=3600000@3");

        Map<String, Struct> topic = describe(TOPIC, "orders");
        assertThat(entry(topic.get("max.message.bytes"))).isEqualTo("2000@2 readOnly=false");
        assertThat(synonyms(topic.get("max.message.bytes"))).containsExactly("message.max.bytes=2000@2",
                "message.max.bytes=1048588@5");
        assertThat(synonyms(topic.get("retention.ms"))).containsExactly("log.retention.ms=3600000@3",
                "log.retention.hours=168@5");
        assertThat(entry(describe(TOPIC, "audit").get("max.message.bytes"))).isEqualTo("5000@1 readOnly=false");
    }

    @Test
    void cleanerDefaultsChangeDynamicallyForEveryCompactedTopic() {
        Struct r = incremental(false, resource(BROKER, "", op("log.cleaner.delete.retention.ms", 0, "1000"),
                op("log.cleaner.min.cleanable.ratio", 0, "0.1")));

        assertThat(outcomes(r)).containsExactly(":0:null");
        assertThat(fx.topics.partitionLog("orders", 0).orElseThrow().config().deleteRetentionMs()).isEqualTo(1000);
        assertThat(fx.topics.partitionLog("orders", 0).orElseThrow().config().minCleanableDirtyRatio()).isEqualTo(0.1);
        assertThat(synonyms(describe(TOPIC, "orders").get("delete.retention.ms"))).containsExactly(
                "log.cleaner.delete.retention.ms=1000@3", "log.cleaner.delete.retention.ms=86400000@5");
        assertThat(outcomes(incremental(false, resource(BROKER, "", op("log.cleaner.min.cleanable.ratio", 0, "2")))))
                .containsExactly(":42:Invalid value 2 for configuration log.cleaner.min.cleanable.ratio: Value must be"
                        + " no more than 1");
    }

    @Test
    void deletingADynamicKeyFallsBackToTheStaticValue() {
        incremental(false, resource(BROKER, "1", op("log.segment.bytes", 0, "3000000")));
        incremental(false, resource(BROKER, "1", op("log.segment.bytes", 1, null)));

        assertThat(dynamic.perBroker()).isEmpty();
        assertThat(fx.topics.partitionLog("orders", 0).orElseThrow().config().segmentBytes()).isEqualTo(2000000);
        assertThat(entry(describe(BROKER, "1").get("log.segment.bytes"))).isEqualTo("2000000@4 readOnly=false");
    }

    @Test
    void brokerChangesAreRefusedAsKafkaRefusesThem() {
        Struct r = incremental(false,
                resource(BROKER, "1", op("log.dirs", 0, "/tmp/x"), op("num.partitions", 0, "3")),
                resource(BROKER, "2", op("message.max.bytes", 0, "1")),
                resource(BROKER, "x", op("message.max.bytes", 0, "1")),
                resource(BROKER, "", op("message.max.bytes", 0, "abc")),
                resource((byte) 8, "1", op("kafka.server", 0, "DEBUG")));

        assertThat(outcomes(r)).containsExactly(
                "1:42:Cannot update these configs dynamically: [log.dirs, num.partitions]",
                "2:42:Unexpected broker id, expected 1, but received 2",
                "x:42:Node id must be an integer, but it is: x",
                ":42:Invalid value abc for configuration message.max.bytes: Not a number of type INT",
                "1:42:Unknown resource type 8");
        Struct twice = incremental(false, resource(BROKER, "", op("message.max.bytes", 0, "5000")),
                resource(BROKER, "", op("log.segment.bytes", 0, "5000")),
                resource(BROKER, "1", op("message.max.bytes", 2, "5")));
        assertThat(outcomes(twice)).containsExactly(":42:Each resource must appear at most once.",
                ":42:Each resource must appear at most once.",
                "1:40:Config value append is not allowed for config key: message.max.bytes");
        assertThat(dynamic.clusterDefault()).isEmpty();
        assertThat(dynamic.perBroker()).isEmpty();

        Struct single = incremental(false,
                resource(BROKER, "", op("listeners", 0, "PLAINTEXT://:9093")),
                resource(BROKER, "1", op("log.cleanup.policy", 0, "compact"), op("log.cleanup.policy", 1, null)),
                resource(TOPIC, "orders", op("retention.ms", 0, null)));
        assertThat(outcomes(single)).containsExactly(
                ":42:Cannot update these configs at default cluster level, broker id must be specified: [listeners]",
                "1:42:Error due to duplicate config keys",
                "orders:42:Null value not supported for : retention.ms");
    }

    @Test
    void dynamicConfigsSurviveARestartAndApplyAtOnce() {
        incremental(false, resource(BROKER, "", op("message.max.bytes", 0, "3000")),
                resource(TOPIC, "orders", op("retention.ms", 0, "120000")));
        fx.close();

        start();

        assertThat(dynamic.clusterDefault()).containsExactly(Map.entry("message.max.bytes", "3000"));
        assertThat(fx.topics.partitionLog("orders", 0).orElseThrow().config().maxMessageBytes()).isEqualTo(3000);
        assertThat(fx.topics.partitionLog("orders", 0).orElseThrow().config().retentionMs()).isEqualTo(120000);
        assertThat(entry(describe(TOPIC, "orders").get("max.message.bytes"))).isEqualTo("3000@3 readOnly=false");
    }

    @Test
    void describeConfigsV0SaysWhichEntriesAreDefaults() {
        incremental(false, resource(TOPIC, "orders", op("retention.ms", 0, "60000")));
        Struct req = DescribeConfigsApi.Request.SCHEMA.newStruct();
        req.add(DescribeConfigsApi.Request.RESOURCES).set(DescribeConfigsResource.RESOURCE_TYPE, TOPIC)
                .set(DescribeConfigsResource.RESOURCE_NAME, "orders")
                .set(DescribeConfigsResource.CONFIGURATION_KEYS, List.of("retention.ms", "segment.bytes", "flush.ms"));

        Struct result = fx.call(new DescribeConfigsHandler(fx.topics, new ConfigDescriber(dynamic)), 0, req)
                .get(DescribeConfigsApi.Response.RESULTS).get(0);

        assertThat(result.get(DescribeConfigsResult.CONFIGS).stream().map(c -> c.get(DescribeConfigsResourceResult.NAME)
                + "=" + c.get(DescribeConfigsResourceResult.VALUE) + " default="
                + c.get(DescribeConfigsResourceResult.IS_DEFAULT)).toList()).containsExactly(
                "flush.ms=9223372036854775807 default=true", "retention.ms=60000 default=false",
                "segment.bytes=2000000 default=false");
    }

    @Test
    void kafkaKeysWeOnlyStoreAreCheckedAgainstKafkasTypes() {
        Struct r = incremental(false, resource(BROKER, "", op("remote.log.reader.threads", 0, "lots")),
                resource(BROKER, "1", op("leader.replication.throttled.rate", 0, "1.5")));

        assertThat(outcomes(r)).containsExactly(
                ":42:Invalid value lots for configuration remote.log.reader.threads: Not a number of type INT",
                "1:42:Invalid value 1.5 for configuration leader.replication.throttled.rate: Not a number of type LONG");
        assertThat(dynamic.clusterDefault()).isEmpty();
        assertThat(dynamic.perBroker()).isEmpty();

        assertThat(outcomes(incremental(false, resource(BROKER, "", op("remote.log.reader.threads", 0, "4"),
                op("log.cleaner.io.max.bytes.per.second", 0, "1048576.5"))))).containsExactly(":0:null");
        assertThat(dynamic.clusterDefault()).containsOnly(Map.entry("remote.log.reader.threads", "4"),
                Map.entry("log.cleaner.io.max.bytes.per.second", "1048576.5"));
    }

    @Test
    void appendAndSubtractWorkOnKafkaListKeysWeOnlyStore() {
        assertThat(outcomes(incremental(false, resource(BROKER, "", op("metric.reporters", 2, "a.Reporter,b.Reporter")))))
                .containsExactly(":0:null");
        assertThat(outcomes(incremental(false, resource(BROKER, "", op("metric.reporters", 3, "a.Reporter")))))
                .containsExactly(":0:null");
        assertThat(dynamic.clusterDefault()).containsExactly(Map.entry("metric.reporters", "b.Reporter"));

        assertThat(outcomes(incremental(false, resource(BROKER, "", op("remote.log.reader.threads", 2, "1")))))
                .containsExactly(":40:Config value append is not allowed for config key: remote.log.reader.threads");
    }

    // ------------------------------------------------------------------ helpers

    private record Op(String name, int operation, String value) {
    }

    private record Res(byte type, String name, Op[] ops) {
    }

    private static Op op(String name, int operation, String value) {
        return new Op(name, operation, value);
    }

    private static Res resource(byte type, String name, Op... ops) {
        return new Res(type, name, ops);
    }

    private Struct incremental(boolean validateOnly, Res... resources) {
        Struct req = IncrementalAlterConfigsApi.Request.SCHEMA.newStruct()
                .set(IncrementalAlterConfigsApi.Request.VALIDATE_ONLY, validateOnly);
        for (Res r : resources) {
            Struct resource = req.add(IncrementalAlterConfigsApi.Request.RESOURCES)
                    .set(AlterConfigsResource.RESOURCE_TYPE, r.type()).set(AlterConfigsResource.RESOURCE_NAME, r.name());
            for (Op op : r.ops()) {
                resource.add(AlterConfigsResource.CONFIGS).set(AlterableConfig.NAME, op.name())
                        .set(AlterableConfig.CONFIG_OPERATION, (byte) op.operation()).set(AlterableConfig.VALUE, op.value());
            }
        }
        return fx.call(new IncrementalAlterConfigsHandler(fx.topics, dynamic), 1, req);
    }

    private static List<String> outcomes(Struct response) {
        return response.get(IncrementalAlterConfigsApi.Response.RESPONSES).stream()
                .map(r -> r.get(AlterConfigsResourceResponse.RESOURCE_NAME) + ":"
                        + r.get(AlterConfigsResourceResponse.ERROR_CODE) + ":"
                        + r.get(AlterConfigsResourceResponse.ERROR_MESSAGE)).toList();
    }

    private Map<String, Struct> describe(byte type, String name) {
        Struct req = DescribeConfigsApi.Request.SCHEMA.newStruct().set(DescribeConfigsApi.Request.INCLUDE_SYNONYMS, true);
        req.add(DescribeConfigsApi.Request.RESOURCES).set(DescribeConfigsResource.RESOURCE_TYPE, type)
                .set(DescribeConfigsResource.RESOURCE_NAME, name).set(DescribeConfigsResource.CONFIGURATION_KEYS, null);
        Struct result = fx.call(new DescribeConfigsHandler(fx.topics, new ConfigDescriber(dynamic)), 4, req)
                .get(DescribeConfigsApi.Response.RESULTS).get(0);
        assertThat(result.get(DescribeConfigsResult.ERROR_CODE)).isZero();
        Map<String, Struct> m = new LinkedHashMap<>();
        result.get(DescribeConfigsResult.CONFIGS).forEach(c -> m.put(c.get(DescribeConfigsResourceResult.NAME), c));
        return m;
    }

    private static String entry(Struct e) {
        return e.get(DescribeConfigsResourceResult.VALUE) + "@" + e.get(DescribeConfigsResourceResult.CONFIG_SOURCE)
                + " readOnly=" + e.get(DescribeConfigsResourceResult.READ_ONLY);
    }

    private static List<String> synonyms(Struct e) {
        return e.get(DescribeConfigsResourceResult.SYNONYMS).stream().map(s -> s.get(DescribeConfigsSynonym.NAME) + "="
                + s.get(DescribeConfigsSynonym.VALUE) + "@" + s.get(DescribeConfigsSynonym.SOURCE)).toList();
    }
}
