package io.odradek.embedded.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.embedded.Odradek;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Tests running at the same time (this class alone is CONCURRENT; junit-platform.properties enables parallel
 * execution with SAME_THREAD as the default), each with its own broker: own port, own data directory.
 */
@Execution(ExecutionMode.CONCURRENT)
@EmbeddedOdradek(lifecycle = Lifecycle.PER_TEST, topics = "events:1")
class ConcurrentTestsTest {
    private static final int TESTS = 3;
    /** Each test waits here for the others: all three must be running at once to get past it. */
    private static final CountDownLatch ALL_RUNNING = new CountDownLatch(TESTS);
    private static final Set<String> BOOTSTRAPS = ConcurrentHashMap.newKeySet();
    private static final Set<String> DATA_DIRS = ConcurrentHashMap.newKeySet();

    @Test
    void first(Odradek odradek) throws Exception {
        producesOnItsOwnBroker(odradek, "first");
    }

    @Test
    void second(Odradek odradek) throws Exception {
        producesOnItsOwnBroker(odradek, "second");
    }

    @Test
    void third(Odradek odradek) throws Exception {
        producesOnItsOwnBroker(odradek, "third");
    }

    private static void producesOnItsOwnBroker(Odradek odradek, String test) throws Exception {
        BOOTSTRAPS.add(odradek.bootstrapServers());
        DATA_DIRS.add(odradek.dataDir().toString());
        ALL_RUNNING.countDown();
        assertThat(ALL_RUNNING.await(120, TimeUnit.SECONDS)).as("all three tests running at once").isTrue();
        try (KafkaProducer<String, String> producer = io.odradek.embedded.TestClients.producer(
                odradek.bootstrapServers())) {
            // Each broker is this test's alone: its first record is at offset 0, whatever the others wrote.
            assertThat(producer.send(new ProducerRecord<>("events", test, "from " + test)).get(30, TimeUnit.SECONDS)
                    .offset()).isZero();
        }
    }

    @AfterAll
    static void everyTestHadItsOwnPortAndDirectory() {
        assertThat(BOOTSTRAPS).hasSize(TESTS);
        assertThat(DATA_DIRS).hasSize(TESTS);
    }
}
