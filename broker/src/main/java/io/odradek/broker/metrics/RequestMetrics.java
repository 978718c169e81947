package io.odradek.broker.metrics;

import io.odradek.wire.codec.Request;
import io.odradek.wire.schema.Struct;

/**
 * issue 11 (metrics): the dispatcher's report of each request, for Kafka's
 * {@code kafka.network:type=RequestMetrics,name=RequestsPerSec|TotalTimeMs|...,request=<Api>} meters. Called on the
 * connection's event loop: an implementation must be cheap (counters, no locks held long, no allocation per call
 * beyond what a histogram update needs) and never block.
 */
public interface RequestMetrics {
    /** Counts nothing. */
    RequestMetrics NONE = new RequestMetrics() {
        @Override
        public void completed(short apiKey, short version, long totalNanos, long handlerNanos, int requestBytes) {
        }
    };

    /**
     * A request answered (its response handed to the socket) or, for produce with acks=0, completed without answer.
     *
     * @param totalNanos from its frame being decoded to its response being written (Kafka's TotalTimeMs)
     * @param handlerNanos the time its handler's call took on the event loop (part of Kafka's LocalTimeMs)
     */
    void completed(short apiKey, short version, long totalNanos, long handlerNanos, int requestBytes);

    /**
     * As above, with the request and its response ({@code response} null: produce with acks=0), so an
     * implementation can count what Kafka counts from them (ErrorsPerSec by the response's error codes, a fetch as
     * FetchConsumer or FetchFollower). The dispatcher calls this one.
     */
    default void completed(Request request, Struct response, long totalNanos, long handlerNanos, int requestBytes) {
        completed(request.api().key(), request.version(), totalNanos, handlerNanos, requestBytes);
    }
}
