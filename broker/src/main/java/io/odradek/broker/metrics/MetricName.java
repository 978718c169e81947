package io.odradek.broker.metrics;

import java.util.Map;

/**
 * issue 11 (metrics): a meter's Kafka name, as Kafka registers it with JMX: {@code group} is the MBean domain
 * ({@code kafka.server}, {@code kafka.network}, {@code kafka.controller}, ...), then {@code type}, {@code name} and
 * the tags in order ({@code topic}, {@code request}, ...). The Prometheus name is derived from it by the JMX
 * exporter's usual Kafka rules (see the exporter), so one name serves both.
 */
public record MetricName(String group, String type, String name, Map<String, String> tags) {
    public MetricName {
        tags = Map.copyOf(new java.util.LinkedHashMap<>(tags)); // immutable; order kept by mbeanName's sort below
    }

    public static MetricName of(String group, String type, String name) {
        return new MetricName(group, type, name, Map.of());
    }

    /**
     * Kafka's MBean name, e.g. {@code kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=t}: tags
     * after type and name, sorted by key (Kafka's KafkaMetricsGroup sorts them too), values quoted when JMX needs it.
     */
    public String mbeanName() {
        StringBuilder b = new StringBuilder(group).append(":type=").append(type).append(",name=").append(name);
        tags.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> b.append(',').append(e.getKey()).append('=').append(quoteIfNeeded(e.getValue())));
        return b.toString();
    }

    private static String quoteIfNeeded(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == ',' || c == '=' || c == ':' || c == '"' || c == '*' || c == '?' || c == '\n') {
                return javax.management.ObjectName.quote(value);
            }
        }
        return value;
    }
}
