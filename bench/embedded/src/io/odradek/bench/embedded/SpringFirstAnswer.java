package io.odradek.bench.embedded;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Spring Kafka's embedded KRaft broker (what @EmbeddedKafka starts; one combined broker+controller through
 * Kafka's KafkaClusterTestKit), started as its JUnit/Spring support does (afterPropertiesSet), then the probe.
 */
public final class SpringFirstAnswer {
    private SpringFirstAnswer() {}

    public static void main(String[] args) throws Exception {
        long mainStart = System.currentTimeMillis();
        long jvmStart = FirstAnswer.jvmStart();
        EmbeddedKafkaKraftBroker kafka = new EmbeddedKafkaKraftBroker(1, 1);
        kafka.afterPropertiesSet();
        long started = System.currentTimeMillis();
        FirstAnswer.describeClusterAndReport("spring", jvmStart, mainStart, started, kafka.getBrokersAsString());
        kafka.destroy();
        System.exit(0);
    }
}
