package io.odradek.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.Apis;
import io.odradek.wire.api.ConsumerGroupHeartbeatApi;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.InitProducerIdApi;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** What a registry advertises and takes, emulating or not, over a handler for every API we know. */
class ApiVersionCapTest {

    @Test
    void withoutEmulationEveryHandledApiIsAdvertisedAtItsFullRangeButInitProducerIdAtItsStableV5() {
        ApiRegistry registry = everyApi(ApiVersionCap.NONE);
        assertThat(registry.advertised()).hasSize(Apis.ALL.size());
        assertThat(registry.advertised()).filteredOn(r -> r.apiKey() == ProduceApi.SPEC.key())
                .containsExactly(new ApiVersionCap.Range((short) 0, (short) 0, (short) 13));
        assertThat(registry.advertised()).filteredOn(r -> r.apiKey() == InitProducerIdApi.SPEC.key())
                .containsExactly(new ApiVersionCap.Range((short) 22, (short) 0, (short) 5));
        assertThat(registry.accepts(InitProducerIdApi.SPEC, (short) 6)).isTrue();
        assertThat(registry.accepts(FetchApi.SPEC, (short) 18)).isTrue();
    }

    @Test
    void emulating28AdvertisesExactly28sApisAtItsMaximaWithOurMinimums() {
        ApiRegistry registry = everyApi(ApiVersionCap.of(KafkaReleases.named("2.8")));
        assertThat(registry.advertised()).extracting(r -> r.apiKey() + ":" + r.minVersion() + "-" + r.maxVersion())
                .containsExactly("0:0-9", "1:0-12", "2:0-6", "3:0-11", "8:0-8", "9:0-7", "10:0-3", "11:0-7", "12:0-4",
                        "13:0-4", "14:0-5", "15:0-5", "16:0-4", "17:0-1", "18:0-3", "19:0-7", "20:0-6", "21:0-2",
                        "22:0-4", "23:0-4", "24:0-3", "25:0-3", "26:0-3", "27:0-1", "28:0-3", "29:0-2", "30:0-2",
                        "31:0-2", "32:0-4", "33:0-2", "34:0-2", "35:0-2", "36:0-2", "37:0-3", "42:0-2", "43:0-2",
                        "44:0-1", "45:0-0", "46:0-0", "47:0-0", "48:0-1", "49:0-1", "50:0-0", "51:0-0", "60:0-0",
                        "61:0-0");
    }

    @Test
    void emulatingEveryReleaseAdvertisesOnlyWhatThatReleaseHadAndNeverAboveOurs() {
        for (KafkaRelease release : KafkaReleases.all()) {
            ApiRegistry registry = everyApi(ApiVersionCap.of(release));
            for (ApiVersionCap.Range r : registry.advertised()) {
                ApiSpec spec = Apis.forKey(r.apiKey());
                assertThat(r.maxVersion()).as("%s %s", release, spec.name())
                        .isEqualTo((short) Math.min(release.maxVersion(r.apiKey()), spec.maxVersion()));
                assertThat(r.minVersion()).as("%s %s", release, spec.name()).isEqualTo(
                        release.version().startsWith("4.") && r.apiKey() != ProduceApi.SPEC.key()
                                ? (short) Math.max(spec.minVersion(), ApiVersionCap.KIP_896_MINIMUMS
                                        .getOrDefault(r.apiKey(), (short) 0))
                                : spec.minVersion());
            }
            assertThat(registry.advertised()).extracting(ApiVersionCap.Range::apiKey)
                    .containsExactlyElementsOf(release.maxVersions().keySet().stream()
                            .filter(k -> Apis.forKey(k) != null).toList());
        }
    }

    @Test
    void emulatingARequestAboveTheReleasesMaximumOrOfAnApiItLacksIsRefused() {
        ApiRegistry registry = everyApi(ApiVersionCap.of(KafkaReleases.named("2.8")));
        assertThat(registry.accepts(FetchApi.SPEC, (short) 12)).isTrue();
        assertThat(registry.accepts(FetchApi.SPEC, (short) 13)).isFalse();
        assertThat(registry.accepts(FetchApi.SPEC, (short) 0)).isTrue();
        assertThat(registry.accepts(ConsumerGroupHeartbeatApi.SPEC, (short) 0)).isFalse();
        assertThat(registry.cap().refusal(FetchApi.SPEC, (short) 13))
                .isEqualTo("version 13 of Fetch refused: emulating Kafka 2.8, which offers v0-12");
        assertThat(registry.cap().refusal(ConsumerGroupHeartbeatApi.SPEC, (short) 0))
                .isEqualTo("version 0 of ConsumerGroupHeartbeat refused: emulating Kafka 2.8, which lacks it");
    }

    @Test
    void emulating44InitProducerIdStopsAtV5AsKafka44sBrokerDoes() {
        ApiRegistry registry = everyApi(ApiVersionCap.of(KafkaReleases.named("4.4")));
        assertThat(registry.advertised()).filteredOn(r -> r.apiKey() == InitProducerIdApi.SPEC.key())
                .containsExactly(new ApiVersionCap.Range((short) 22, (short) 0, (short) 5));
        assertThat(registry.accepts(InitProducerIdApi.SPEC, (short) 6)).isFalse();
    }

    @Test
    void emulating4xRefusesTheVersionsKafka40Removed() {
        for (String version : new String[] {"4.0", "4.4"}) {
            ApiRegistry registry = everyApi(ApiVersionCap.of(KafkaReleases.named(version)));
            assertThat(registry.advertised()).as(version)
                    .filteredOn(r -> r.apiKey() <= 41 && r.minVersion() > 0)
                    .extracting(r -> r.apiKey() + ":" + r.minVersion())
                    .containsExactly("1:4", "2:1", "8:2", "9:1", "19:2", "20:1", "23:2", "27:1", "29:1", "30:1",
                            "31:1", "32:1", "34:1", "35:1"); // 38-41 (delegation tokens): not handled here
            // Produce: advertised from v0 (KAFKA-18659, for librdkafka before 2.10), but v0-2 refused.
            assertThat(registry.advertised()).filteredOn(r -> r.apiKey() == ProduceApi.SPEC.key())
                    .extracting(ApiVersionCap.Range::minVersion).containsExactly((short) 0);
            assertThat(registry.accepts(ProduceApi.SPEC, (short) 2)).isFalse();
            assertThat(registry.accepts(ProduceApi.SPEC, (short) 3)).isTrue();
            assertThat(registry.accepts(FetchApi.SPEC, (short) 3)).isFalse();
            assertThat(registry.accepts(FetchApi.SPEC, (short) 4)).isTrue();
            assertThat(registry.cap().refusal(FetchApi.SPEC, (short) 3))
                    .isEqualTo("version 3 of Fetch refused: emulating Kafka " + version + ", which offers v4-"
                            + (version.equals("4.0") ? 17 : 18));
            assertThat(registry.cap().refusal(ProduceApi.SPEC, (short) 2))
                    .isEqualTo("version 2 of Produce refused: emulating Kafka " + version + ", which offers v3-"
                            + (version.equals("4.0") ? 12 : 13));
        }
        ApiRegistry kafka39 = everyApi(ApiVersionCap.of(KafkaReleases.named("3.9")));
        assertThat(kafka39.accepts(ProduceApi.SPEC, (short) 0)).isTrue();
        assertThat(kafka39.accepts(FetchApi.SPEC, (short) 0)).isTrue();
    }

    /** A registry with a stand-in handler for every API our codec knows, as the broker registers them all. */
    static ApiRegistry everyApi(ApiVersionCap cap) {
        ApiRegistry registry = new ApiRegistry(cap);
        for (ApiSpec spec : Apis.ALL) {
            registry.register(new ApiHandler() {
                @Override
                public ApiSpec api() {
                    return spec;
                }

                @Override
                public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
                    throw new UnsupportedOperationException("not called");
                }
            });
        }
        return registry;
    }
}
