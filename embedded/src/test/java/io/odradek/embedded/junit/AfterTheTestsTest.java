package io.odradek.embedded.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.odradek.embedded.Odradek;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * What the extension leaves once a test class has run (seen from outside it, by running the class with JUnit's
 * launcher): system properties back to what they were, the broker closed and its data deleted.
 */
class AfterTheTestsTest {
    static final String SET_BEFORE = "odradek.test.restored.was-set";
    static final String UNSET_BEFORE = "odradek.test.restored.was-unset";

    /** What the classes below saw while they ran. */
    static final List<String> SEEN = new ArrayList<>();
    static final AtomicReference<Odradek> BROKER = new AtomicReference<>();
    static final List<Path> DATA_DIRS = new ArrayList<>();

    @EmbeddedOdradek(bootstrapServersProperty = {SET_BEFORE, UNSET_BEFORE})
    static class PerClassWithProperties {
        @Test
        void seesThePropertiesSetToItsBroker(Odradek odradek) {
            BROKER.set(odradek);
            SEEN.add(System.getProperty(SET_BEFORE));
            SEEN.add(System.getProperty(UNSET_BEFORE));
            SEEN.add(odradek.bootstrapServers());
        }
    }

    @EmbeddedOdradek(lifecycle = Lifecycle.PER_TEST, bootstrapServersProperty = UNSET_BEFORE)
    static class PerTestWithProperties {
        @Test
        void one(Odradek odradek) {
            record(odradek);
        }

        @Test
        void two(Odradek odradek) {
            record(odradek);
        }

        private static void record(Odradek odradek) {
            SEEN.add(System.getProperty(UNSET_BEFORE) + " = " + odradek.bootstrapServers());
            DATA_DIRS.add(odradek.dataDir());
        }
    }

    @EmbeddedOdradek(lifecycle = Lifecycle.PER_TEST)
    static class PerTestWithAStaticField {
        @BootstrapServers
        static String shared;

        @Test
        void neverRuns() {
        }
    }

    @EmbeddedOdradek(topics = "bad:x")
    static class BadTopicSpec {
        @Test
        void neverRuns() {
        }
    }

    @Test
    void perClassPropertiesAreRestoredAndTheBrokerClosedWhenTheClassEnds() {
        System.setProperty(SET_BEFORE, "earlier value");
        System.clearProperty(UNSET_BEFORE);
        SEEN.clear();
        try {
            TestExecutionSummary summary = run(PerClassWithProperties.class);

            assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
            String bootstrap = SEEN.get(2);
            assertThat(SEEN).containsExactly(bootstrap, bootstrap, bootstrap);
            assertThat(System.getProperty(SET_BEFORE)).isEqualTo("earlier value");
            assertThat(System.getProperties()).doesNotContainKey(UNSET_BEFORE);
            assertThat(BROKER.get().dataDir()).doesNotExist();
        } finally {
            System.clearProperty(SET_BEFORE);
        }
    }

    @Test
    void perTestPropertiesFollowEachTestsBrokerAndAreRestoredAfterIt() {
        System.clearProperty(UNSET_BEFORE);
        SEEN.clear();
        DATA_DIRS.clear();

        TestExecutionSummary summary = run(PerTestWithProperties.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(2);
        assertThat(SEEN).hasSize(2).allSatisfy(line -> {
            String[] sides = line.split(" = ");
            assertThat(sides[0]).isEqualTo(sides[1]);
        });
        assertThat(SEEN.get(0)).isNotEqualTo(SEEN.get(1));
        assertThat(System.getProperties()).doesNotContainKey(UNSET_BEFORE);
        assertThat(DATA_DIRS).hasSize(2).allSatisfy(dir -> assertThat(dir).doesNotExist());
    }

    @Test
    void aMalformedTopicInTheAnnotationFailsTheClassWithTheExpectedForm() {
        TestExecutionSummary summary = run(BadTopicSpec.class);

        assertThat(summary.getTestsSucceededCount()).isZero();
        assertThat(summary.getFailures()).hasSize(1);
        assertThat(summary.getFailures().get(0).getException())
                .hasMessageContaining("\"name:partitions\"").hasMessageContaining("bad:x");
    }

    @Test
    void aStaticFieldForAPerTestBrokerIsRefusedNamingTheField() {
        TestExecutionSummary summary = run(PerTestWithAStaticField.class);

        assertThat(summary.getTestsSucceededCount()).isZero();
        assertThat(summary.getFailures()).hasSize(1);
        assertThat(summary.getFailures().get(0).getException())
                .hasMessageContaining("PER_TEST").hasMessageContaining("PerTestWithAStaticField.shared")
                .hasMessageContaining("instance field");
        assertThat(PerTestWithAStaticField.shared).isNull();
    }

    private static TestExecutionSummary run(Class<?> testClass) {
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(), listener);
        return listener.getSummary();
    }
}
