package io.odradek.broker;

import java.util.Map;

/** The broker's configuration, read with Kafka's keys and Kafka's defaults. */
public final class BrokerConfig {
    private final Map<String, String> values;

    private BrokerConfig(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    public static BrokerConfig of(Map<String, String> values) {
        return new BrokerConfig(values);
    }

    private String get(String key, String def) {
        return values.getOrDefault(key, def);
    }

    public String listenerHost() {
        return "127.0.0.1";
    }

    public int listenerPort() {
        return Integer.parseInt(get("port", "9092"));
    }

    public int nodeId() {
        return Integer.parseInt(get("node.id", "1"));
    }

    public int socketRequestMaxBytes() {
        return Integer.parseInt(get("socket.request.max.bytes", "104857600"));
    }
}
