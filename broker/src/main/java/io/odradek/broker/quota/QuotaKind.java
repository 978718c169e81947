package io.odradek.broker.quota;

/** The client quotas that are enforced, each with its Kafka config key and what it counts. */
public enum QuotaKind {
    /** Bytes of produce requests per second. */
    PRODUCE("producer_byte_rate"),
    /** Bytes of fetch responses to consumers per second. */
    FETCH("consumer_byte_rate"),
    /** Request handling time as a percentage of one thread (100 = one thread's whole time). */
    REQUEST("request_percentage");

    private final String configKey;

    QuotaKind(String configKey) {
        this.configKey = configKey;
    }

    public String configKey() {
        return configKey;
    }
}
