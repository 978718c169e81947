/**
 * issue 11 (metrics-http): the broker's Prometheus endpoint and health probes, and the gauges read from its services.
 *
 * <p>Started from Broker.start by {@link io.odradek.broker.metrics.http.BrokerOperations}: the gauges always
 * (with {@code BrokerMetrics}, so JMX has them too); the HTTP server only when {@code odradek.metrics.port} is set
 * (bound on {@code odradek.metrics.host}, default 0.0.0.0; port 0 = a free one, read with
 * {@code broker.operations().httpPort()}). Paths:
 * <ul>
 * <li>{@code GET /metrics}: Kafka's meters named as the Prometheus JMX exporter's Kafka rules name them
 *     ({@link io.odradek.broker.metrics.http.PrometheusNames}), consumer lag as kafka_exporter names it
 *     ({@link io.odradek.broker.metrics.http.ConsumerLagCollector}); Prometheus text 0.0.4 by default, OpenMetrics
 *     or protobuf when the scraper's Accept header asks, gzip when accepted, {@code ?name[]=} to select families;</li>
 * <li>{@code GET /health/live} (alias {@code /livez}): 200 "OK", also while a graceful shutdown runs (so the
 *     orchestrator does not kill the broker during it), or 503 and the reason when a network event loop or partition writer is stuck: a background heartbeat hands each a no-op now and then,
 *     and the probe answers at once from it, 503 when a no-op has waited longer than
 *     {@code odradek.metrics.liveness.timeout.ms} (a busy thread a few seconds behind stays live);</li>
 * <li>{@code GET /health/ready} (alias {@code /readyz}): 200 "OK", or 503 and the reason when shutting down, when
 *     the listeners do not accept connections yet (a cluster broker before it caught up with the metadata) or when
 *     a log dir is offline.</li>
 * </ul>
 * A Kubernetes pod would probe {@code livenessProbe: httpGet /health/live} and {@code readinessProbe: httpGet
 * /health/ready} on the metrics port.
 */
package io.odradek.broker.metrics.http;
