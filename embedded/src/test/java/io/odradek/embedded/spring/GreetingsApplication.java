package io.odradek.embedded.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.messaging.handler.annotation.SendTo;

/**
 * A small Spring Boot Kafka application, written as a Spring user writes one: Boot's auto-configuration makes the
 * KafkaTemplate, the listener container factory (with the template as its reply template) and turns on
 * {@code @KafkaListener}; nothing here names a broker address. Its listeners record what they receive in
 * {@link Received}, which the test reads.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class GreetingsApplication {
    static final String AUDITOR_ID = "auditor";
    static final String AUDITOR_GROUP = "auditors";

    /** What a listener got: the record's key, value, partition and offset. */
    public record Record(String key, String value, int partition, long offset) {
        static Record of(ConsumerRecord<String, String> record) {
            return new Record(record.key(), record.value(), record.partition(), record.offset());
        }
    }

    /** The records each topic's listener received, in the order it received them. */
    public static final class Received {
        private final Map<String, BlockingQueue<Record>> byTopic = new ConcurrentHashMap<>();

        void add(ConsumerRecord<String, String> record) {
            queue(record.topic()).add(Record.of(record));
        }

        /** The next {@code count} records received from the topic; fewer if they do not come within the wait. */
        public List<Record> take(String topic, int count, Duration wait) throws InterruptedException {
            List<Record> records = new ArrayList<>();
            long deadline = System.nanoTime() + wait.toNanos();
            while (records.size() < count) {
                Record next = queue(topic).poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (next == null) {
                    break;
                }
                records.add(next);
            }
            return records;
        }

        /** True when the topic's listener receives nothing more within the wait. */
        public boolean nothingMoreWithin(String topic, Duration wait) throws InterruptedException {
            return queue(topic).poll(wait.toNanos(), TimeUnit.NANOSECONDS) == null;
        }

        private BlockingQueue<Record> queue(String topic) {
            return byTopic.computeIfAbsent(topic, t -> new LinkedBlockingQueue<>());
        }
    }

    @Bean
    Received received() {
        return new Received();
    }

    @Bean
    Listeners listeners(Received received) {
        return new Listeners(received);
    }

    /** The application's listeners. Topics are created by the test's broker (@EmbeddedOdradek's topics). */
    public static final class Listeners {
        private final Received received;

        Listeners(Received received) {
            this.received = received;
        }

        @KafkaListener(id = "greeter", groupId = "greeters", topics = "greetings")
        void greeting(ConsumerRecord<String, String> record) {
            received.add(record);
        }

        /** Answers each question on the answers topic; Spring keeps the question's key on the answer. */
        @KafkaListener(id = "answerer", groupId = "answerers", topics = "questions")
        @SendTo("answers")
        String answer(ConsumerRecord<String, String> question) {
            received.add(question);
            return question.value().toUpperCase(Locale.ROOT);
        }

        @KafkaListener(id = "answer-reader", groupId = "answer-readers", topics = "answers")
        void answerRead(ConsumerRecord<String, String> record) {
            received.add(record);
        }

        @KafkaListener(id = AUDITOR_ID, groupId = AUDITOR_GROUP, topics = "audits")
        void audit(ConsumerRecord<String, String> record) {
            received.add(record);
        }
    }
}
