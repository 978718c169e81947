package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.config.DynamicBrokerConfig;
import io.odradek.broker.group.GroupConfigs;
import io.odradek.broker.topics.ConfigDescriber;
import io.odradek.coordinator.share.partition.SharePartitionSettings;
import io.odradek.replication.config.LocalDynamicConfigStore;
import io.odradek.replication.metadata.ClusterMetadata;
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
import io.odradek.wire.api.ListConfigResourcesApi;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12: GROUP config resources on a single node: IncrementalAlterConfigs / AlterConfigs set them with Kafka
 * 4.4's validation and messages, DescribeConfigs shows them as Kafka's ConfigHelper does, ListConfigResources lists
 * the groups that have any, the file keeps them across a restart, and GroupConfigs gives the effective values.
 */
class GroupConfigsHandlerTest {
    private static final byte GROUP = 32;
    private static final byte SET = 0;
    private static final byte DELETE = 1;
    private static final byte APPEND = 2;

    /** Kafka 4.4's non-internal group config keys, which DescribeConfigs lists for every group. */
    private static final List<String> LISTED_KEYS = List.of("consumer.assignment.interval.ms",
            "consumer.heartbeat.interval.ms", "consumer.session.timeout.ms", "errors.deadletterqueue.copy.record.enable",
            "errors.deadletterqueue.topic.name", "share.assignment.interval.ms", "share.auto.offset.reset",
            "share.delivery.count.limit", "share.heartbeat.interval.ms", "share.isolation.level",
            "share.partition.max.record.locks", "share.record.lock.duration.ms", "share.renew.acknowledge.enable",
            "share.session.timeout.ms", "streams.assignment.interval.ms", "streams.assignor.name",
            "streams.heartbeat.interval.ms", "streams.initial.rebalance.delay.ms", "streams.num.standby.replicas",
            "streams.rack.aware.assignment.tags", "streams.session.timeout.ms");

    @TempDir
    Path dir;
    AdminFixture fx;
    DynamicBrokerConfig dynamic;

    private void start(Map<String, String> settings) {
        fx = new AdminFixture(dir, settings);
        dynamic = new DynamicBrokerConfig(fx.config, new LocalDynamicConfigStore(dir.resolve(ClusterMetadata.DIR_NAME)));
    }

    @AfterEach
    void close() {
        if (fx != null) {
            fx.close();
        }
    }

    @Test
    void aSetGroupConfigIsDescribedAsDynamicGroupConfigAndTheOthersComeFromTheBrokerDefaults() {
        start(Map.of("group.share.delivery.count.limit", "7"));

        Struct r = incremental(false, resource("orders-queue", op("share.auto.offset.reset", SET, "earliest"),
                op("share.record.lock.duration.ms", SET, "20000")));

        assertThat(outcomes(r)).containsExactly("orders-queue:0:null");
        Map<String, Struct> configs = describe("orders-queue");
        assertThat(configs.keySet()).containsExactlyElementsOf(LISTED_KEYS);
        assertThat(entry(configs.get("share.auto.offset.reset"))).isEqualTo("earliest@8");
        assertThat(synonyms(configs.get("share.auto.offset.reset")))
                .containsExactly("share.auto.offset.reset=earliest@8", "share.auto.offset.reset=latest@5");
        assertThat(entry(configs.get("share.record.lock.duration.ms"))).isEqualTo("20000@8");
        assertThat(synonyms(configs.get("share.record.lock.duration.ms"))).containsExactly(
                "share.record.lock.duration.ms=20000@8", "group.share.record.lock.duration.ms=30000@5");
        // Not set on the group: the broker key's value and source (here server.properties: STATIC_BROKER_CONFIG).
        assertThat(entry(configs.get("share.delivery.count.limit"))).isEqualTo("7@4");
        assertThat(synonyms(configs.get("share.delivery.count.limit"))).containsExactly(
                "group.share.delivery.count.limit=7@4", "group.share.delivery.count.limit=5@5");
        assertThat(entry(configs.get("share.isolation.level"))).isEqualTo("read_uncommitted@5");
        assertThat(entry(configs.get("streams.assignor.name"))).isEqualTo("sticky@5");
        assertThat(configs.get("share.session.timeout.ms").get(DescribeConfigsResourceResult.CONFIG_TYPE))
                .isEqualTo((byte) 3);
        assertThat(configs.get("share.auto.offset.reset").get(DescribeConfigsResourceResult.READ_ONLY)).isFalse();

        GroupConfigs groups = new GroupConfigs(dynamic);
        assertThat(groups.configs("orders-queue")).containsOnly(Map.entry("share.auto.offset.reset", "earliest"),
                Map.entry("share.record.lock.duration.ms", "20000"));
        assertThat(groups.shareAutoOffsetReset("orders-queue")).isEqualTo("earliest");
        assertThat(groups.shareRecordLockDurationMs("orders-queue")).isEqualTo(20000);
        assertThat(groups.shareDeliveryCountLimit("orders-queue")).isEqualTo(7);
        assertThat(groups.sharePartitionSettings("orders-queue"))
                .isEqualTo(new SharePartitionSettings(20000, 7, 2000, "earliest", false));
        assertThat(groups.shareAutoOffsetReset("another")).isEqualTo("latest");
        assertThat(groups.shareRecordLockDurationMs("another")).isEqualTo(30000);
    }

    @Test
    void groupConfigsSurviveARestartAndDeleteRemovesAKey() {
        start(Map.of());
        incremental(false, resource("q", op("share.auto.offset.reset", SET, "by_duration:PT1H"),
                op("share.delivery.count.limit", SET, "3")));

        fx.close();
        start(Map.of());

        assertThat(entry(describe("q").get("share.auto.offset.reset"))).isEqualTo("by_duration:PT1H@8");
        assertThat(new GroupConfigs(dynamic).shareDeliveryCountLimit("q")).isEqualTo(3);

        assertThat(outcomes(incremental(false, resource("q", op("share.delivery.count.limit", DELETE, null)))))
                .containsExactly("q:0:null");
        assertThat(entry(describe("q").get("share.delivery.count.limit"))).isEqualTo("5@5");
        assertThat(dynamic.store().groupConfigs("q")).containsOnly(Map.entry("share.auto.offset.reset", "by_duration:PT1H"));
        fx.close();
        start(Map.of());
        assertThat(dynamic.store().groupConfigs("q")).containsOnly(Map.entry("share.auto.offset.reset", "by_duration:PT1H"));
    }

    @Test
    void invalidGroupConfigsAreRefusedWithKafkasMessagesAndChangeNothing() {
        start(Map.of());
        Struct r = incremental(false,
                resource("g1", op("share.auto.offset.rest", SET, "earliest")),
                resource("g2", op("share.delivery.count.limit", SET, "many")),
                resource("g3", op("share.delivery.count.limit", SET, "1")),
                resource("g4", op("share.delivery.count.limit", SET, "20")),
                resource("g5", op("share.record.lock.duration.ms", SET, "5000")),
                resource("g6", op("share.auto.offset.reset", SET, "none")),
                resource("g7", op("share.isolation.level", SET, "committed")),
                resource("g8", op("consumer.session.timeout.ms", SET, "45000"),
                        op("consumer.heartbeat.interval.ms", SET, "15000"),
                        op("consumer.session.timeout.ms", SET, "50000")),
                resource("g9", op("streams.num.standby.replicas", SET, "3")),
                resource("g10", op("share.auto.offset.reset", APPEND, "earliest")),
                resource("", op("share.auto.offset.reset", SET, "earliest")),
                resource("g11", op("streams.assignor.name", SET, "balanced")));

        assertThat(outcomes(r)).containsExactly(
                "g1:40:Unknown group config name: share.auto.offset.rest",
                "g2:40:Invalid value many for configuration share.delivery.count.limit: Not a number of type INT",
                "g3:40:Invalid value 1 for configuration share.delivery.count.limit: Value must be at least 2",
                "g4:40:share.delivery.count.limit must be in the range 2 to 10 inclusive.",
                "g5:40:share.record.lock.duration.ms must be in the range 15000 to 60000 inclusive.",
                "g6:40:Invalid value none for configuration share.auto.offset.reset: Invalid value `none` for"
                        + " configuration share.auto.offset.reset. The value must be either 'earliest', 'latest' or of"
                        + " the format 'by_duration:<PnDTnHnMn.nS>'.",
                "g7:40:Invalid value committed for configuration share.isolation.level: String must be one of:"
                        + " read_committed, read_uncommitted",
                "g8:42:Error due to duplicate config keys",
                "g9:40:streams.num.standby.replicas must be less than or equal to 2",
                "g10:40:Can't APPEND to key share.auto.offset.reset because its type is not LIST.",
                ":42:Default group resources are not allowed.",
                "g11:40:streams.assignor.name 'balanced' is not a registered task assignor. Registered assignors are:"
                        + " [sticky].");
        assertThat(dynamic.store().groupConfigs()).isEmpty();

        Struct session = incremental(false, resource("g12", op("share.session.timeout.ms", SET, "45000"),
                op("share.heartbeat.interval.ms", SET, "15000")));
        assertThat(outcomes(session)).containsExactly("g12:0:null");
        Struct equal = incremental(false, resource("g13", op("streams.session.timeout.ms", SET, "45000"),
                op("streams.heartbeat.interval.ms", SET, "45000")));
        assertThat(outcomes(equal)).containsExactly(
                "g13:40:streams.heartbeat.interval.ms must be in the range 5000 to 15000 inclusive.");
    }

    @Test
    void sessionTimeoutMustStayAboveTheHeartbeatIntervalWithTheBrokersDefaultsForTheUnsetOne() {
        start(Map.of("group.share.min.session.timeout.ms", "1000", "group.share.max.heartbeat.interval.ms", "30000"));

        Struct r = incremental(false, resource("g", op("share.session.timeout.ms", SET, "5000")));

        assertThat(outcomes(r)).containsExactly("g:40:share.session.timeout.ms must be greater than share.heartbeat.interval.ms");
        assertThat(outcomes(incremental(false, resource("g", op("share.heartbeat.interval.ms", SET, "20000"),
                op("share.session.timeout.ms", SET, "21000"))))).containsExactly("g:0:null");
    }

    @Test
    void validateOnlyChecksAGroupButStoresNothing() {
        start(Map.of());

        Struct r = incremental(true, resource("g", op("share.auto.offset.reset", SET, "earliest")));

        assertThat(outcomes(r)).containsExactly("g:0:null");
        assertThat(dynamic.store().groupConfigs("g")).isEmpty();
    }

    @Test
    void legacyAlterConfigsReplacesAGroupsWholeSet() {
        start(Map.of());
        incremental(false, resource("g", op("share.auto.offset.reset", SET, "earliest"),
                op("share.delivery.count.limit", SET, "4")));

        Struct req = AlterConfigsApi.Request.SCHEMA.newStruct().set(AlterConfigsApi.Request.VALIDATE_ONLY, false);
        req.add(AlterConfigsApi.Request.RESOURCES)
                .set(AlterConfigsApi.Request.AlterConfigsResource.RESOURCE_TYPE, GROUP)
                .set(AlterConfigsApi.Request.AlterConfigsResource.RESOURCE_NAME, "g")
                .add(AlterConfigsApi.Request.AlterConfigsResource.CONFIGS)
                .set(AlterConfigsApi.Request.AlterConfigsResource.AlterableConfig.NAME, "share.isolation.level")
                .set(AlterConfigsApi.Request.AlterConfigsResource.AlterableConfig.VALUE, "read_committed");
        Struct r = fx.call(new AlterConfigsHandler(fx.topics, dynamic), 2, req);

        assertThat(r.get(AlterConfigsApi.Response.RESPONSES).get(0)
                .get(AlterConfigsApi.Response.AlterConfigsResourceResponse.ERROR_CODE)).isZero();
        assertThat(dynamic.store().groupConfigs("g")).containsOnly(Map.entry("share.isolation.level", "read_committed"));
        assertThat(new GroupConfigs(dynamic).shareReadCommitted("g")).isTrue();
    }

    @Test
    void aGroupValueOutsideBoundsNarrowedLaterIsClampedToThem() {
        start(Map.of());
        incremental(false, resource("g", op("share.record.lock.duration.ms", SET, "55000")));
        fx.close();

        start(Map.of("group.share.max.record.lock.duration.ms", "40000"));

        assertThat(new GroupConfigs(dynamic).shareRecordLockDurationMs("g")).isEqualTo(40000);
        assertThat(entry(describe("g").get("share.record.lock.duration.ms"))).isEqualTo("55000@8");
    }

    @Test
    void describingAGroupWithAnEmptyNameIsAnInvalidRequest() {
        start(Map.of());
        Struct result = describeResult("");

        assertThat(result.get(DescribeConfigsResult.ERROR_CODE)).isEqualTo((short) 42);
        assertThat(result.get(DescribeConfigsResult.ERROR_MESSAGE)).isEqualTo("Group name must not be empty");
    }

    @Test
    void listConfigResourcesListsGroupsWithConfigsThenBrokersAndTopics() {
        start(Map.of());
        fx.topics.createTopic("orders", 1, Map.of(), false);
        incremental(false, resource("b-group", op("share.auto.offset.reset", SET, "earliest")));
        incremental(false, resource("a-group", op("streams.num.standby.replicas", SET, "1")));
        ListConfigResourcesHandler handler = new ListConfigResourcesHandler(fx.cluster, new GroupConfigs(dynamic));

        assertThat(list(handler, 1, List.of((byte) 32))).containsExactly("32:a-group", "32:b-group");
        assertThat(list(handler, 1, List.of())).containsExactly("32:a-group", "32:b-group", "8:1", "4:1", "2:orders");
        assertThat(list(handler, 0, List.of())).isEmpty();

        Struct req = ListConfigResourcesApi.Request.SCHEMA.newStruct()
                .set(ListConfigResourcesApi.Request.RESOURCE_TYPES, List.of((byte) 32, (byte) 64));
        Struct unsupported = fx.call(handler, 1, req);
        assertThat(unsupported.get(ListConfigResourcesApi.Response.ERROR_CODE)).isEqualTo((short) 35);
        assertThat(unsupported.get(ListConfigResourcesApi.Response.CONFIG_RESOURCES)).isEmpty();
    }

    // ------------------------------------------------------------------ helpers

    private record Op(String name, byte operation, String value) {
    }

    private record Res(String name, Op[] ops) {
    }

    private static Op op(String name, byte operation, String value) {
        return new Op(name, operation, value);
    }

    private static Res resource(String name, Op... ops) {
        return new Res(name, ops);
    }

    private Struct incremental(boolean validateOnly, Res... resources) {
        Struct req = IncrementalAlterConfigsApi.Request.SCHEMA.newStruct()
                .set(IncrementalAlterConfigsApi.Request.VALIDATE_ONLY, validateOnly);
        for (Res r : resources) {
            Struct resource = req.add(IncrementalAlterConfigsApi.Request.RESOURCES)
                    .set(AlterConfigsResource.RESOURCE_TYPE, GROUP).set(AlterConfigsResource.RESOURCE_NAME, r.name());
            for (Op op : r.ops()) {
                resource.add(AlterConfigsResource.CONFIGS).set(AlterableConfig.NAME, op.name())
                        .set(AlterableConfig.CONFIG_OPERATION, op.operation()).set(AlterableConfig.VALUE, op.value());
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

    private Struct describeResult(String group) {
        Struct req = DescribeConfigsApi.Request.SCHEMA.newStruct().set(DescribeConfigsApi.Request.INCLUDE_SYNONYMS, true);
        req.add(DescribeConfigsApi.Request.RESOURCES).set(DescribeConfigsResource.RESOURCE_TYPE, GROUP)
                .set(DescribeConfigsResource.RESOURCE_NAME, group).set(DescribeConfigsResource.CONFIGURATION_KEYS, null);
        return fx.call(new DescribeConfigsHandler(fx.topics, new ConfigDescriber(dynamic)), 4, req)
                .get(DescribeConfigsApi.Response.RESULTS).get(0);
    }

    private Map<String, Struct> describe(String group) {
        Struct result = describeResult(group);
        assertThat(result.get(DescribeConfigsResult.ERROR_CODE)).isZero();
        Map<String, Struct> m = new LinkedHashMap<>();
        result.get(DescribeConfigsResult.CONFIGS).forEach(c -> m.put(c.get(DescribeConfigsResourceResult.NAME), c));
        return m;
    }

    private List<String> list(ListConfigResourcesHandler handler, int version, List<Byte> types) {
        Struct req = ListConfigResourcesApi.Request.SCHEMA.newStruct()
                .set(ListConfigResourcesApi.Request.RESOURCE_TYPES, types);
        Struct response = fx.call(handler, version, req);
        assertThat(response.get(ListConfigResourcesApi.Response.ERROR_CODE)).isZero();
        return response.get(ListConfigResourcesApi.Response.CONFIG_RESOURCES).stream()
                .map(c -> c.get(ListConfigResourcesApi.Response.ConfigResource.RESOURCE_TYPE) + ":"
                        + c.get(ListConfigResourcesApi.Response.ConfigResource.RESOURCE_NAME)).toList();
    }

    private static String entry(Struct e) {
        return e.get(DescribeConfigsResourceResult.VALUE) + "@" + e.get(DescribeConfigsResourceResult.CONFIG_SOURCE);
    }

    private static List<String> synonyms(Struct e) {
        return e.get(DescribeConfigsResourceResult.SYNONYMS).stream().map(s -> s.get(DescribeConfigsSynonym.NAME) + "="
                + s.get(DescribeConfigsSynonym.VALUE) + "@" + s.get(DescribeConfigsSynonym.SOURCE)).toList();
    }
}
