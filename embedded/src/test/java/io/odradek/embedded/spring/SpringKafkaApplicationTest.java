package io.odradek.embedded.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.embedded.Odradek;
import io.odradek.embedded.junit.EmbeddedOdradek;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.support.SendResult;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A Spring Boot application (GreetingsApplication: Boot's Kafka auto-configuration, a KafkaTemplate,
 * {@code @KafkaListener}s) against the embedded broker, configured the way a Spring user configures Kafka: the
 * extension sets {@code spring.kafka.bootstrap-servers} and Boot reads it.
 *
 * <p>Extension order: {@code @EmbeddedOdradek} is declared ABOVE {@code @SpringBootTest}, so JUnit registers the
 * Odradek extension before SpringExtension and calls it first. Here (JUnit's default per-method test instances)
 * its beforeAll starts the broker, creates the topics and sets the system property before Spring loads the context,
 * which it does when it prepares the first test instance, after every beforeAll. Where Spring loads the context
 * earlier, with {@code @TestInstance(PER_CLASS)}, the order is what makes it work: see
 * {@link SpringTestInstancePerClassTest}. The broker is closed when the class's extension context closes, after
 * every afterAll, so after Spring closed this class's context (listener containers, producers).
 *
 * <p>{@code @DirtiesContext}: Spring caches contexts across test classes, and a cached context would keep the
 * bootstrap servers of a broker that an earlier class closed (and its listeners would run on against it). Each
 * class with its own broker needs its own context. For the same reason a Spring context and
 * {@code lifecycle = PER_TEST} do not mix: the context outlives each test's broker.
 */
@EmbeddedOdradek(
        topics = {"greetings:2", "questions", "answers", "audits"},
        bootstrapServersProperty = "spring.kafka.bootstrap-servers")
@SpringBootTest(
        classes = GreetingsApplication.class,
        properties = {
            // A listener that joins after the first records were sent must still read them.
            "spring.kafka.consumer.auto-offset-reset=earliest",
        })
// Boot reads a JVM-wide system property: under parallel execution no other class may set it meanwhile.
@ResourceLock(Resources.SYSTEM_PROPERTIES)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class SpringKafkaApplicationTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Autowired
    private KafkaTemplate<String, String> template;

    @Autowired
    private GreetingsApplication.Received received;

    @Autowired
    private KafkaListenerEndpointRegistry listeners;

    @Test
    void springBootConnectsToTheEmbeddedBrokerThroughTheSystemProperty(Odradek odradek) {
        Object configured = template.getProducerFactory().getConfigurationProperties()
                .get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);

        // Boot binds the property to a list of host:port (one broker here).
        assertThat(configured).isEqualTo(List.of(odradek.bootstrapServers()));
        assertThat(System.getProperty("spring.kafka.bootstrap-servers")).isEqualTo(odradek.bootstrapServers());
    }

    @Test
    void keyedRecordsSentWithKafkaTemplateReachTheListenerInOffsetOrderPerPartition() throws Exception {
        List<String> keys = List.of("alice", "bob", "carol", "alice", "bob", "carol", "alice");
        List<GreetingsApplication.Record> sent = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            SendResult<String, String> result =
                    template.send("greetings", keys.get(i), "hello " + i).get(10, TimeUnit.SECONDS);
            sent.add(new GreetingsApplication.Record(keys.get(i), "hello " + i,
                    result.getRecordMetadata().partition(), result.getRecordMetadata().offset()));
        }

        // The producer's default partitioner puts a key on murmur2(key) mod partitions; the broker gives each
        // partition's records offsets 0, 1, 2, ... in the order they were sent.
        Map<Integer, Long> nextOffset = new HashMap<>();
        List<GreetingsApplication.Record> expected = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            int partition = Utils.toPositive(Utils.murmur2(keys.get(i).getBytes(StandardCharsets.UTF_8))) % 2;
            long offset = nextOffset.merge(partition, 1L, Long::sum) - 1;
            expected.add(new GreetingsApplication.Record(keys.get(i), "hello " + i, partition, offset));
        }
        assertThat(sent).containsExactlyElementsOf(expected);
        assertThat(expected).extracting(GreetingsApplication.Record::partition).contains(0, 1);

        List<GreetingsApplication.Record> got = received.take("greetings", keys.size(), WAIT);
        for (int partition = 0; partition < 2; partition++) {
            int p = partition;
            assertThat(got).filteredOn(r -> r.partition() == p)
                    .containsExactlyElementsOf(expected.stream().filter(r -> r.partition() == p).toList());
        }
        assertThat(got).hasSize(keys.size());
    }

    @Test
    void aListenerAnswersThroughSendToAndTheAnswerKeepsTheQuestionsKey() throws Exception {
        template.send("questions", "q-1", "what is odradek").get(10, TimeUnit.SECONDS);
        template.send("questions", "q-2", "where does it live").get(10, TimeUnit.SECONDS);

        assertThat(received.take("answers", 2, WAIT)).containsExactly(
                new GreetingsApplication.Record("q-1", "WHAT IS ODRADEK", 0, 0),
                new GreetingsApplication.Record("q-2", "WHERE DOES IT LIVE", 0, 1));
        assertThat(received.take("questions", 2, WAIT)).containsExactly(
                new GreetingsApplication.Record("q-1", "what is odradek", 0, 0),
                new GreetingsApplication.Record("q-2", "where does it live", 0, 1));
    }

    @Test
    void aRestartedListenerResumesFromItsCommittedOffset(Odradek odradek) throws Exception {
        template.send("audits", "a", "first").get(10, TimeUnit.SECONDS);
        template.send("audits", "a", "second").get(10, TimeUnit.SECONDS);
        assertThat(received.take("audits", 2, WAIT)).containsExactly(
                new GreetingsApplication.Record("a", "first", 0, 0),
                new GreetingsApplication.Record("a", "second", 0, 1));
        TopicPartition audits = new TopicPartition("audits", 0);
        assertThat(committedOffsetWhenItReaches(odradek, GreetingsApplication.AUDITOR_GROUP, audits, 2)).isEqualTo(2);

        MessageListenerContainer auditor = listeners.getListenerContainer(GreetingsApplication.AUDITOR_ID);
        auditor.stop();
        assertThat(auditor.isRunning()).isFalse();
        template.send("audits", "a", "third").get(10, TimeUnit.SECONDS);
        auditor.start();

        // Only the record sent while it was stopped: the two it had committed are not delivered again.
        assertThat(received.take("audits", 1, WAIT)).containsExactly(
                new GreetingsApplication.Record("a", "third", 0, 2));
        assertThat(received.nothingMoreWithin("audits", Duration.ofMillis(500))).isTrue();
        assertThat(committedOffsetWhenItReaches(odradek, GreetingsApplication.AUDITOR_GROUP, audits, 3)).isEqualTo(3);
    }

    /** The group's committed offset once it reaches the wanted one (commits follow processing), or the last seen. */
    private static long committedOffsetWhenItReaches(Odradek odradek, String group, TopicPartition partition,
            long wanted) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, odradek.bootstrapServers()))) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            long committed = -1;
            while (System.nanoTime() < deadline) {
                OffsetAndMetadata offset = admin.listConsumerGroupOffsets(group)
                        .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS).get(partition);
                committed = offset == null ? -1 : offset.offset();
                if (committed >= wanted) {
                    break;
                }
                Thread.sleep(50);
            }
            return committed;
        }
    }
}
