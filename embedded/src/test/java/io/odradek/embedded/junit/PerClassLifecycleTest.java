package io.odradek.embedded.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.embedded.Odradek;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The default lifecycle: one broker for the class, injected everywhere, shared by its tests. */
@EmbeddedOdradek(topics = {"shared:2", "plain"}, config = "num.partitions=4",
        bootstrapServersProperty = "odradek.test.per-class.bootstrap")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PerClassLifecycleTest {
    static Odradek staticOdradek;
    @BootstrapServers
    static String staticBootstrap;
    /** What the first test saw, for the second to compare with (not an Odradek field: that would be injected). */
    static final AtomicReference<Odradek> SEEN_BY_FIRST_TEST = new AtomicReference<>();

    Odradek instanceOdradek;
    @BootstrapServers
    String instanceBootstrap;
    private final String constructorBootstrap;

    PerClassLifecycleTest(@BootstrapServers String constructorBootstrap) {
        this.constructorBootstrap = constructorBootstrap;
    }

    @Test
    @Order(1)
    void theBrokerIsInjectedIntoParametersFieldsAndTheConstructorAndHasTheListedTopics(Odradek odradek,
            @BootstrapServers String bootstrap) {
        assertThat(staticOdradek).isSameAs(odradek);
        assertThat(instanceOdradek).isSameAs(odradek);
        assertThat(bootstrap).isEqualTo(odradek.bootstrapServers()).matches("127\\.0\\.0\\.1:\\d+");
        assertThat(staticBootstrap).isEqualTo(bootstrap);
        assertThat(instanceBootstrap).isEqualTo(bootstrap);
        assertThat(constructorBootstrap).isEqualTo(bootstrap);
        assertThat(System.getProperty("odradek.test.per-class.bootstrap")).isEqualTo(bootstrap);
        var topics = odradek.brokers().get(0).topics();
        assertThat(topics.topic("shared").orElseThrow().partitions()).isEqualTo(2);
        assertThat(topics.topic("plain").orElseThrow().partitions()).as("num.partitions from config").isEqualTo(4);

        odradek.createTopic("made-by-the-first-test", 1);
        SEEN_BY_FIRST_TEST.set(odradek);
    }

    @Test
    @Order(2)
    void theSecondTestGetsTheSameBrokerWithWhatTheFirstLeftThere(Odradek odradek) {
        assertThat(odradek).isNotNull().isSameAs(SEEN_BY_FIRST_TEST.get());
        assertThat(odradek.brokers().get(0).topics().topic("made-by-the-first-test")).isPresent();
    }

    @Nested
    class ANestedClass {
        @Test
        void sharesTheEnclosingClassBroker(Odradek odradek, @BootstrapServers String bootstrap) {
            assertThat(odradek).isSameAs(staticOdradek);
            assertThat(bootstrap).isEqualTo(staticBootstrap);
            assertThat(instanceOdradek).as("the enclosing instance's field").isSameAs(odradek);
        }
    }
}
