package io.odradek.embedded.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.embedded.Odradek;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** PER_TEST: each test gets a broker of its own, with only the listed topics; the previous one is gone. */
@EmbeddedOdradek(lifecycle = Lifecycle.PER_TEST, topics = "fresh:3")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PerTestLifecycleTest {
    /** Not a field of type Odradek: the extension would inject the current broker into it. */
    static final AtomicReference<Odradek> FIRST_TESTS_BROKER = new AtomicReference<>();
    static String firstTestsBootstrap;
    static Path firstTestsDataDir;

    @BootstrapServers
    String bootstrap;

    @Test
    @Order(1)
    void aTestLeavesATopicBehind(Odradek odradek) {
        assertThat(bootstrap).isEqualTo(odradek.bootstrapServers());
        assertThat(odradek.brokers().get(0).topics().topic("fresh").orElseThrow().partitions()).isEqualTo(3);
        odradek.createTopic("left-behind", 1);
        FIRST_TESTS_BROKER.set(odradek);
        firstTestsBootstrap = odradek.bootstrapServers();
        firstTestsDataDir = odradek.dataDir();
    }

    @Test
    @Order(2)
    void theNextTestStartsOnAFreshBrokerWithoutIt(Odradek odradek) {
        assertThat(odradek).isNotSameAs(FIRST_TESTS_BROKER.get()).isNotNull();
        assertThat(odradek.dataDir()).isNotEqualTo(firstTestsDataDir);
        assertThat(firstTestsDataDir).as("the first test's broker was closed and its data deleted").doesNotExist();
        assertThat(bootstrap).isEqualTo(odradek.bootstrapServers()).isNotEqualTo(firstTestsBootstrap);
        var topics = odradek.brokers().get(0).topics();
        assertThat(topics.topic("left-behind")).isEmpty();
        assertThat(topics.topic("fresh").orElseThrow().partitions()).isEqualTo(3);
    }
}
