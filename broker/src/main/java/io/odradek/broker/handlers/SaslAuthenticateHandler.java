package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.SaslAuthenticateApi;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * SaslAuthenticate (key 36), versions 0-2, registered so ApiVersions advertises it. During authentication the
 * connection's authenticator answers it; what reaches this handler comes outside an exchange (a PLAINTEXT or SSL
 * listener, or after authentication completed), which Kafka's KafkaApis answers with ILLEGAL_SASL_STATE.
 */
public final class SaslAuthenticateHandler implements ApiHandler {
    @Override
    public ApiSpec api() {
        return SaslAuthenticateApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        return CompletableFuture.completedFuture(SaslAuthenticateApi.Response.SCHEMA.newStruct()
                .set(SaslAuthenticateApi.Response.ERROR_CODE, ErrorCode.ILLEGAL_SASL_STATE.code())
                .set(SaslAuthenticateApi.Response.ERROR_MESSAGE,
                        "SaslAuthenticate request received after successful authentication")
                .set(SaslAuthenticateApi.Response.AUTH_BYTES, new byte[0])
                .set(SaslAuthenticateApi.Response.SESSION_LIFETIME_MS, 0L));
    }
}
