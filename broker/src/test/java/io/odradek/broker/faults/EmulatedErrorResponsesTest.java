package io.odradek.broker.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.api.ApiVersionCap;
import io.odradek.broker.api.KafkaReleases;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiVersionsApi;
import io.odradek.wire.schema.Struct;
import org.junit.jupiter.api.Test;

/** issue 11 (faults, emulation): an injected error answers as the emulated release would. */
class EmulatedErrorResponsesTest {
    @Test
    void injectedUnsupportedVersionOnApiVersionsListsTheEmulatedReleasesRange() {
        Struct request = ApiVersionsApi.SPEC.request().newStruct();
        Struct response = ErrorResponses.build(ApiVersionsApi.SPEC, (short) 3, request,
                ErrorCode.UNSUPPORTED_VERSION.code(), ApiVersionCap.of(KafkaReleases.named("2.8")));
        assertThat(response.get(ApiVersionsApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.UNSUPPORTED_VERSION.code());
        assertThat(response.get(ApiVersionsApi.Response.API_KEYS)).singleElement().satisfies(api -> {
            assertThat(api.get(ApiVersionsApi.Response.ApiVersion.API_KEY)).isEqualTo((short) 18);
            assertThat(api.get(ApiVersionsApi.Response.ApiVersion.MIN_VERSION)).isEqualTo((short) 0);
            assertThat(api.get(ApiVersionsApi.Response.ApiVersion.MAX_VERSION)).as("Kafka 2.8's ApiVersions max")
                    .isEqualTo((short) 3);
        });
    }
}
