package io.odradek.embedded.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.embedded.Odradek;
import io.odradek.embedded.junit.EmbeddedOdradek;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The case where the order of the two annotations decides: with {@code @TestInstance(PER_CLASS)} JUnit creates and
 * post-processes the test instance BEFORE any beforeAll, and SpringExtension loads the context while it
 * post-processes. Because {@code @EmbeddedOdradek} comes first, the Odradek extension post-processes first and
 * starts the broker (setting {@code spring.kafka.bootstrap-servers}) before Spring reads it. With the two annotations
 * swapped the context is built first and Boot falls back to its default localhost:9092 (tried: the send below then
 * times out waiting for metadata).
 */
@EmbeddedOdradek(
        topics = {"greetings", "questions", "answers", "audits"},
        bootstrapServersProperty = "spring.kafka.bootstrap-servers")
@SpringBootTest(classes = GreetingsApplication.class, properties = "spring.kafka.consumer.auto-offset-reset=earliest")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
// Boot reads a JVM-wide system property: under parallel execution no other class may set it meanwhile.
@ResourceLock(Resources.SYSTEM_PROPERTIES)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class SpringTestInstancePerClassTest {
    @Autowired
    private KafkaTemplate<String, String> template;

    @Autowired
    private GreetingsApplication.Received received;

    /** Injected by the Odradek extension (a field of type Odradek), beside Spring's @Autowired fields. */
    private Odradek odradek;

    @Test
    void theContextBuiltWithTheTestInstanceAlreadyHasTheEmbeddedBrokersAddress() throws Exception {
        assertThat(template.getProducerFactory().getConfigurationProperties()
                .get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)).isEqualTo(List.of(odradek.bootstrapServers()));

        template.send("greetings", "k", "v").get(10, TimeUnit.SECONDS);

        assertThat(received.take("greetings", 1, Duration.ofSeconds(30)))
                .containsExactly(new GreetingsApplication.Record("k", "v", 0, 0));
    }
}
