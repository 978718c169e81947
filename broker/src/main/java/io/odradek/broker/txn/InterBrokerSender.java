package io.odradek.broker.txn;

import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * Sends one request to another broker of the cluster (its inter-broker listener, found in the metadata image)
 * and hands back the response body: what the transaction coordinator's markers and the partition leaders'
 * verification need. Implemented over replication's blocking {@code BrokerClient}, the calls running on the
 * sender's own threads, never on an event loop.
 */
@FunctionalInterface
public interface InterBrokerSender {
    /**
     * Completes with the response body; fails when the broker cannot be reached or the connection breaks
     * (the callers answer a retriable error then).
     */
    CompletableFuture<Struct> send(int brokerId, ApiSpec api, short version, Struct request);
}
