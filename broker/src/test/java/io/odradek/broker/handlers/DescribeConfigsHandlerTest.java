package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DescribeConfigsApi.Request;
import io.odradek.wire.api.DescribeConfigsApi.Request.DescribeConfigsResource;
import io.odradek.wire.api.DescribeConfigsApi.Response;
import io.odradek.wire.api.DescribeConfigsApi.Response.DescribeConfigsResult;
import io.odradek.wire.api.DescribeConfigsApi.Response.DescribeConfigsResult.DescribeConfigsResourceResult;
import io.odradek.wire.api.DescribeConfigsApi.Response.DescribeConfigsResult.DescribeConfigsResourceResult.DescribeConfigsSynonym;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DescribeConfigsHandlerTest {
    private static final byte TOPIC = 2;
    private static final byte BROKER = 4;

    @TempDir
    Path dir;
    AdminFixture fx;

    @BeforeEach
    void open() {
        fx = new AdminFixture(dir, Map.of("log.segment.bytes", "2000000"));
        fx.topics.createTopic("orders", 1, Map.of("retention.ms", "1000"), false);
    }

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void topicConfigsShowEffectiveValuesAndWhereEachComesFrom() {
        Struct r = only(fx.call(fx.describeConfigs(), 4, request(TOPIC, "orders", null).set(Request.INCLUDE_SYNONYMS, true)));

        assertThat(r.get(DescribeConfigsResult.ERROR_CODE)).isZero();
        assertThat(r.get(DescribeConfigsResult.RESOURCE_NAME)).isEqualTo("orders");
        Map<String, Struct> configs = byName(r);
        assertThat(configs.keySet()).containsExactly("cleanup.policy", "compression.type", "delete.retention.ms",
                "file.delete.delay.ms", "flush.messages", "flush.ms", "index.interval.bytes",
                "max.decompressed.message.bytes", "max.message.bytes", "message.timestamp.after.max.ms",
                "message.timestamp.before.max.ms", "message.timestamp.type", "min.cleanable.dirty.ratio", "min.insync.replicas", "retention.bytes", "retention.ms", "segment.bytes", "segment.index.bytes",
                "segment.ms", "unclean.leader.election.enable");
        assertEntry(configs.get("retention.ms"), "1000", 1, 5);
        // Kafka's ConfigHelper drops broker synonyms listed before the topic key's own broker key
        // (log.retention.ms), so the default log.retention.hours is not one.
        assertThat(synonyms(configs.get("retention.ms"))).containsExactly("retention.ms=1000@1");
        assertEntry(configs.get("segment.bytes"), "2000000", 4, 3);
        assertThat(synonyms(configs.get("segment.bytes"))).containsExactly(
                "log.segment.bytes=2000000@4", "log.segment.bytes=1073741824@5");
        assertEntry(configs.get("cleanup.policy"), "delete", 5, 7);
        assertThat(configs.get("cleanup.policy").get(DescribeConfigsResourceResult.READ_ONLY)).isFalse();
        assertThat(configs.get("cleanup.policy").get(DescribeConfigsResourceResult.IS_SENSITIVE)).isFalse();
    }

    @Test
    void keyFilterAndNoSynonymsUnlessAsked() {
        Struct r = only(fx.call(fx.describeConfigs(), 1, request(TOPIC, "orders", List.of("retention.ms", "nope"))));

        assertThat(byName(r).keySet()).containsExactly("retention.ms");
        assertThat(byName(r).get("retention.ms").get(DescribeConfigsResourceResult.SYNONYMS)).isEmpty();
    }

    @Test
    void unknownTopicAndBadNamesFailOnlyTheirResource() {
        Struct req = request(TOPIC, "missing", null);
        req.add(Request.RESOURCES).set(DescribeConfigsResource.RESOURCE_TYPE, TOPIC)
                .set(DescribeConfigsResource.RESOURCE_NAME, "bad/name");
        req.add(Request.RESOURCES).set(DescribeConfigsResource.RESOURCE_TYPE, TOPIC)
                .set(DescribeConfigsResource.RESOURCE_NAME, "orders");

        List<Struct> results = fx.call(fx.describeConfigs(), 2, req).get(Response.RESULTS);

        assertThat(results).extracting(x -> x.get(DescribeConfigsResult.ERROR_CODE)).containsExactly(
                ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.code(), ErrorCode.INVALID_TOPIC_EXCEPTION.code(), ErrorCode.NONE.code());
        assertThat(results.get(0).get(DescribeConfigsResult.CONFIGS)).isEmpty();
        assertThat(results.get(2).get(DescribeConfigsResult.CONFIGS)).hasSize(20);
    }

    @Test
    void brokerConfigsByNodeIdWithTypesAndDocumentation() {
        Struct req = request(BROKER, "1", null).set(Request.INCLUDE_DOCUMENTATION, true);

        Map<String, Struct> configs = byName(only(fx.call(fx.describeConfigs(), 4, req)));

        assertEntry(configs.get("log.segment.bytes"), "2000000", 4, 3);
        assertEntry(configs.get("num.partitions"), "1", 5, 3);
        assertEntry(configs.get("auto.create.topics.enable"), "true", 5, 1);
        assertThat(configs.get("node.id").get(DescribeConfigsResourceResult.VALUE)).isEqualTo("1");
        assertThat(configs.get("num.partitions").get(DescribeConfigsResourceResult.READ_ONLY)).isTrue();
        assertThat(configs.get("num.partitions").get(DescribeConfigsResourceResult.DOCUMENTATION)).isNotBlank();
    }

    @Test
    void passwordsAndUnknownKeysAreDescribedWithoutTheirValues() {
        fx.close();
        fx = new AdminFixture(dir.resolve("secrets"), Map.of("ssl.truststore.certificates", "-----BEGIN CERT",
                "listener.name.internal.ssl.keystore.password", "hunter2",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config", "PlainLoginModule password=\"s3\";",
                "delegation.token.secret.key", "tokensecret", "my.plugin.token", "abc",
                "ssl.keystore.type", "PKCS12"));

        Map<String, Struct> configs = byName(only(fx.call(fx.describeConfigs(), 4,
                request(BROKER, "1", null).set(Request.INCLUDE_SYNONYMS, true))));

        for (String key : List.of("ssl.truststore.certificates", "listener.name.internal.ssl.keystore.password",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config", "delegation.token.secret.key",
                "my.plugin.token")) {
            assertThat(configs.get(key).get(DescribeConfigsResourceResult.VALUE)).as(key).isNull();
            assertThat(configs.get(key).get(DescribeConfigsResourceResult.IS_SENSITIVE)).as(key).isTrue();
            assertThat(synonyms(configs.get(key))).as(key).containsExactly(key + "=null@4");
        }
        assertThat(configs.get("ssl.keystore.type").get(DescribeConfigsResourceResult.VALUE)).isEqualTo("PKCS12");
        assertThat(configs.get("ssl.keystore.type").get(DescribeConfigsResourceResult.IS_SENSITIVE)).isFalse();
        assertThat(configs.get("log.segment.bytes").get(DescribeConfigsResourceResult.IS_SENSITIVE)).isFalse();
    }

    @Test
    void brokerResourceNamesOtherThanOurIdAreInvalid() {
        Struct req = request(BROKER, "2", null);
        req.add(Request.RESOURCES).set(DescribeConfigsResource.RESOURCE_TYPE, BROKER)
                .set(DescribeConfigsResource.RESOURCE_NAME, "x");
        req.add(Request.RESOURCES).set(DescribeConfigsResource.RESOURCE_TYPE, BROKER)
                .set(DescribeConfigsResource.RESOURCE_NAME, "");
        req.add(Request.RESOURCES).set(DescribeConfigsResource.RESOURCE_TYPE, (byte) 8)
                .set(DescribeConfigsResource.RESOURCE_NAME, "1");

        List<Struct> results = fx.call(fx.describeConfigs(), 3, req).get(Response.RESULTS);

        assertThat(results.get(0).get(DescribeConfigsResult.ERROR_MESSAGE))
                .isEqualTo("Unexpected broker id, expected 1 or empty string, but received 2");
        assertThat(results.get(1).get(DescribeConfigsResult.ERROR_MESSAGE))
                .isEqualTo("Broker id must be an integer, but it is: x");
        assertThat(results).extracting(x -> x.get(DescribeConfigsResult.ERROR_CODE)).containsExactly(
                ErrorCode.INVALID_REQUEST.code(), ErrorCode.INVALID_REQUEST.code(), ErrorCode.NONE.code(),
                ErrorCode.INVALID_REQUEST.code());
        assertThat(results.get(2).get(DescribeConfigsResult.CONFIGS)).isEmpty();
    }

    private static void assertEntry(Struct e, String value, int source, int type) {
        assertThat(e.get(DescribeConfigsResourceResult.VALUE)).isEqualTo(value);
        assertThat(e.get(DescribeConfigsResourceResult.CONFIG_SOURCE)).isEqualTo((byte) source);
        assertThat(e.get(DescribeConfigsResourceResult.CONFIG_TYPE)).isEqualTo((byte) type);
    }

    private static List<String> synonyms(Struct e) {
        return e.get(DescribeConfigsResourceResult.SYNONYMS).stream().map(s -> s.get(DescribeConfigsSynonym.NAME) + "="
                + s.get(DescribeConfigsSynonym.VALUE) + "@" + s.get(DescribeConfigsSynonym.SOURCE)).toList();
    }

    private static Struct request(byte type, String name, List<String> keys) {
        Struct r = Request.SCHEMA.newStruct();
        r.add(Request.RESOURCES).set(DescribeConfigsResource.RESOURCE_TYPE, type)
                .set(DescribeConfigsResource.RESOURCE_NAME, name)
                .set(DescribeConfigsResource.CONFIGURATION_KEYS, keys);
        return r;
    }

    private static Struct only(Struct response) {
        assertThat(response.get(Response.RESULTS)).hasSize(1);
        return response.get(Response.RESULTS).get(0);
    }

    private static Map<String, Struct> byName(Struct result) {
        Map<String, Struct> m = new LinkedHashMap<>();
        result.get(DescribeConfigsResult.CONFIGS).forEach(c -> m.put(c.get(DescribeConfigsResourceResult.NAME), c));
        return m;
    }
}
