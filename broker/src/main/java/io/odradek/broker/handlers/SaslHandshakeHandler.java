package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.SaslHandshakeApi;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * SaslHandshake (key 17), versions 0-1, registered so ApiVersions advertises it. On a SASL listener the
 * connection's authenticator answers it before authentication (and for a KIP-368 re-authentication); what reaches
 * this handler is a handshake Kafka's KafkaApis would see: on a PLAINTEXT or SSL listener, or after authentication
 * from a client that cannot re-authenticate. As Kafka, it answers ILLEGAL_SASL_STATE with no mechanisms.
 */
public final class SaslHandshakeHandler implements ApiHandler {
    @Override
    public ApiSpec api() {
        return SaslHandshakeApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        return CompletableFuture.completedFuture(SaslHandshakeApi.Response.SCHEMA.newStruct()
                .set(SaslHandshakeApi.Response.ERROR_CODE, ErrorCode.ILLEGAL_SASL_STATE.code())
                .set(SaslHandshakeApi.Response.MECHANISMS, List.of()));
    }
}
