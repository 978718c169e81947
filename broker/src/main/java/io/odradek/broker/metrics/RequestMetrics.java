package io.odradek.broker.metrics;

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
}
