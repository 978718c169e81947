package io.odradek.broker.api;

import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * Handles one API, at every version of its {@link ApiSpec}. Called on the connection's event loop with
 * the decoded request; records fields in it are valid only until this call returns (retain to keep).
 * The future completes with the response body, or with null when no response is sent (produce acks=0).
 */
public interface ApiHandler {
    ApiSpec api();

    CompletableFuture<Struct> handle(RequestContext context, Struct request);
}
