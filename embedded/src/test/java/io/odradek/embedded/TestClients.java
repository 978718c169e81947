package io.odradek.embedded;

import org.apache.kafka.clients.producer.KafkaProducer;

/** {@link Clients} for the tests of other packages (the extension's). */
public final class TestClients {
    private TestClients() {
    }

    /** A string producer with acks=all. */
    public static KafkaProducer<String, String> producer(String bootstrap) {
        return Clients.producer(bootstrap, "all");
    }
}
