package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.api.BrokerFeatures;
import io.odradek.broker.api.KafkaReleases;
import io.odradek.wire.api.ApiVersionsApi;
import io.odradek.wire.api.ApiVersionsApi.Response;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.WireWriter;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ApiVersions' feature flags as Kafka 4.4 reports them, read back by Kafka's own message class. */
class ApiVersionsHandlerTest {
    static final long EPOCH = 1_700_000_000_000L;

    @TempDir
    Path dir;
    AdminFixture f;
    ApiVersionsHandler handler;

    @BeforeEach
    void setUp() {
        f = new AdminFixture(dir);
        ApiRegistry registry = new ApiRegistry();
        handler = new ApiVersionsHandler(registry, BrokerFeatures.kafka44(EPOCH));
        registry.register(handler);
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    @Test
    void v4AndLaterClientsSeeEverySupportedFeatureAndTransactionVersionTwoFinalized() {
        for (int version = 4; version <= 5; version++) {
            ApiVersionsResponseData kafka = kafkaRead(version);
            assertThat(kafka.supportedFeatures()).extracting(k -> k.name() + " " + k.minVersion() + "-" + k.maxVersion())
                    .as("v%d", version)
                    .containsExactly("metadata.version 7-33", "transaction.version 0-2", "group.version 0-1",
                            "share.version 0-2", "streams.version 0-1");
            assertThat(kafka.finalizedFeaturesEpoch()).isEqualTo(EPOCH);
            assertThat(kafka.finalizedFeatures()).extracting(k -> k.name() + " " + k.minVersionLevel() + "-" + k.maxVersionLevel())
                    .containsExactly("metadata.version 33-33", "transaction.version 2-2", "group.version 1-1",
                            "share.version 2-2", "streams.version 1-1");
            assertThat(kafka.apiKeys()).extracting(k -> k.apiKey() + ":" + k.minVersion() + "-" + k.maxVersion())
                    .containsExactly("18:0-5");
        }
    }

    @Test
    void v3ClientsDoNotSeeSupportedFeaturesStartingAtZeroButStillSeeTheFinalizedLevels() {
        ApiVersionsResponseData kafka = kafkaRead(3);
        assertThat(kafka.supportedFeatures()).extracting(k -> k.name() + " " + k.minVersion() + "-" + k.maxVersion())
                .containsExactly("metadata.version 7-33");
        assertThat(kafka.finalizedFeatures()).extracting(k -> k.name() + " " + k.maxVersionLevel())
                .containsExactly("metadata.version 33", "transaction.version 2", "group.version 1", "share.version 2",
                        "streams.version 1");
        assertThat(kafka.finalizedFeaturesEpoch()).isEqualTo(EPOCH);
    }

    @Test
    void clientsBeforeV3GetNoFeaturesAtAll() {
        for (int version = 0; version <= 2; version++) {
            ApiVersionsResponseData kafka = kafkaRead(version);
            assertThat(kafka.supportedFeatures()).as("v%d", version).isEmpty();
            assertThat(kafka.finalizedFeatures()).isEmpty();
            assertThat(kafka.finalizedFeaturesEpoch()).isEqualTo(-1L);
            assertThat(kafka.apiKeys()).extracting(k -> (int) k.apiKey()).containsExactly(18);
        }
    }

    @Test
    void theUnsupportedVersionAnswerListsApisOnly() {
        Struct response = ApiVersionsHandler.unsupportedVersionResponse(new ApiRegistry().register(handler));
        assertThat(response.get(Response.ERROR_CODE)).isEqualTo(io.odradek.wire.ErrorCode.UNSUPPORTED_VERSION.code());
        assertThat(response.get(Response.API_KEYS)).hasSize(1);
        assertThat(response.get(Response.SUPPORTED_FEATURES)).isEmpty();
    }

    @Test
    void initProducerIdIsAdvertisedUpToV5AsKafkaDoesWithoutUnstableVersions() throws Exception {
        ApiRegistry registry = new ApiRegistry();
        ApiVersionsHandler apiVersions = new ApiVersionsHandler(registry, BrokerFeatures.kafka44(EPOCH));
        registry.register(apiVersions).register(new InitProducerIdHandler(null, null));
        Struct response = f.call(apiVersions, 4, javaClientRequest());
        assertThat(response.get(Response.API_KEYS)).extracting(k -> k.get(Response.ApiVersion.API_KEY) + ":"
                        + k.get(Response.ApiVersion.MIN_VERSION) + "-" + k.get(Response.ApiVersion.MAX_VERSION))
                .containsExactly("18:0-5", "22:0-5");
    }

    @Test
    void emulatingAReleaseBeforeKraftReportsNoFeaturesAndAnUnknownEpoch() {
        handler = new ApiVersionsHandler(new ApiRegistry(), BrokerFeatures.of(KafkaReleases.named("2.8"), EPOCH));
        ApiVersionsResponseData kafka = kafkaRead(3);
        assertThat(kafka.supportedFeatures()).isEmpty();
        assertThat(kafka.finalizedFeatures()).isEmpty();
        assertThat(kafka.finalizedFeaturesEpoch()).isEqualTo(-1L);
    }

    @Test
    void emulatingReleasesReportsTheirFeatureLevelsAndTransactionVersionTwoOnlyFromFourZero() {
        handler = new ApiVersionsHandler(new ApiRegistry(), BrokerFeatures.of(KafkaReleases.named("3.8"), EPOCH));
        ApiVersionsResponseData kafka38 = kafkaRead(3);
        assertThat(kafka38.supportedFeatures()).extracting(k -> k.name() + " " + k.minVersion() + "-" + k.maxVersion())
                .containsExactly("metadata.version 7-20");
        assertThat(kafka38.finalizedFeatures()).extracting(k -> k.name() + " " + k.maxVersionLevel())
                .containsExactly("metadata.version 20");
        assertThat(kafka38.finalizedFeaturesEpoch()).isEqualTo(EPOCH);
        assertThat(BrokerFeatures.of(KafkaReleases.named("3.9"), EPOCH).transactionVersion()).isZero();

        handler = new ApiVersionsHandler(new ApiRegistry(), BrokerFeatures.of(KafkaReleases.named("4.0"), EPOCH));
        ApiVersionsResponseData kafka40 = kafkaRead(4);
        assertThat(kafka40.supportedFeatures()).extracting(k -> k.name() + " " + k.minVersion() + "-" + k.maxVersion())
                .containsExactly("metadata.version 7-25", "transaction.version 0-2", "group.version 0-1");
        assertThat(kafka40.finalizedFeatures()).extracting(k -> k.name() + " " + k.maxVersionLevel())
                .containsExactly("metadata.version 25", "transaction.version 2", "group.version 1");
        assertThat(BrokerFeatures.of(KafkaReleases.named("4.4"), EPOCH).features())
                .isEqualTo(BrokerFeatures.kafka44(EPOCH).features());
    }

    @Test
    void theFinalizedTransactionVersionIsTwo() {
        BrokerFeatures features = BrokerFeatures.kafka44(0);
        assertThat(features.transactionVersion()).isEqualTo((short) 2);
        assertThat(features.finalizedLevel("share.version")).isEqualTo((short) 2); // share groups (issue 12)
        assertThat(features.finalizedLevel("streams.version")).isZero();
        assertThat(features.features()).extracting(BrokerFeatures.Feature::name)
                .isEqualTo(List.of("metadata.version", "transaction.version", "group.version", "share.version",
                        "streams.version"));
    }

    @Test
    void v3AndLaterRefuseAClientSoftwareNameOrVersionOutsideKafkasPatternWithInvalidRequest() {
        for (String[] bad : new String[][] {{"", "1.0"}, {"my client", "1.0"}, {"-kafka", "1.0"}, {"librdkafka", "2.0."},
                {"kafka_python", "2.0.2"}}) {
            Struct request = ApiVersionsApi.Request.SCHEMA.newStruct()
                    .set(ApiVersionsApi.Request.CLIENT_SOFTWARE_NAME, bad[0])
                    .set(ApiVersionsApi.Request.CLIENT_SOFTWARE_VERSION, bad[1]);
            Struct response = f.call(handler, 3, request);
            assertThat(response.get(Response.ERROR_CODE)).as("%s %s", bad[0], bad[1])
                    .isEqualTo(io.odradek.wire.ErrorCode.INVALID_REQUEST.code());
            assertThat(response.get(Response.API_KEYS)).isEmpty();
        }
        for (String[] good : new String[][] {{"librdkafka", "2.3.0"}, {"sarama", "dev"}, {"confluent-kafka-python", "2.3.0-rdkafka-2.3.0"},
                {"a", "1"}}) {
            Struct request = ApiVersionsApi.Request.SCHEMA.newStruct()
                    .set(ApiVersionsApi.Request.CLIENT_SOFTWARE_NAME, good[0])
                    .set(ApiVersionsApi.Request.CLIENT_SOFTWARE_VERSION, good[1]);
            Struct response = f.call(handler, 4, request);
            assertThat(response.get(Response.ERROR_CODE)).as("%s %s", good[0], good[1]).isZero();
            assertThat(response.get(Response.API_KEYS)).extracting(k -> k.get(Response.ApiVersion.API_KEY)).containsExactly((short) 18);
        }
        // Before v3 there are no such fields to check.
        assertThat(f.call(handler, 2, ApiVersionsApi.Request.SCHEMA.newStruct()).get(Response.ERROR_CODE)).isZero();
    }

    /** What Kafka's Java client sends at v3+. */
    private static Struct javaClientRequest() {
        return ApiVersionsApi.Request.SCHEMA.newStruct()
                .set(ApiVersionsApi.Request.CLIENT_SOFTWARE_NAME, "apache-kafka-java")
                .set(ApiVersionsApi.Request.CLIENT_SOFTWARE_VERSION, "4.4.0");
    }

    /** Our response at {@code version}, encoded by our codec and decoded by Kafka's generated class. */
    private ApiVersionsResponseData kafkaRead(int version) {
        short v = (short) version;
        Struct response = f.call(handler, version, javaClientRequest());
        WireWriter out = new WireWriter(UnpooledByteBufAllocator.DEFAULT);
        ApiVersionsApi.SPEC.response().write(out, response, v, ApiVersionsApi.SPEC.isFlexible(v));
        ByteBuf buf = (ByteBuf) out.finish().get(0);
        try {
            return new ApiVersionsResponseData(new ByteBufferAccessor(buf.nioBuffer()), v);
        } finally {
            buf.release();
        }
    }
}
