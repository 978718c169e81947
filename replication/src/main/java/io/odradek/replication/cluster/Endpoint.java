package io.odradek.replication.cluster;

/** One listener of a broker as clients reach it (Kafka's BrokerEndpoint): listener name, host and port. */
public record Endpoint(String listener, String host, int port) {
}
