package io.odradek.compat;

import static io.odradek.compat.OdradekBroker.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The broker's log dir on a tmpfs of 8 MiB, mounted by the test (needs root; skipped otherwise): producing
 * until the disk is full gets KAFKA_STORAGE_ERROR, the broker says so once, DeleteTopics frees the space,
 * producing works again and no acknowledged record is lost across a crash restart (log recovery).
 */
class FullDiskTest {
    private static final String FULL_LINE = "is full (No space left on device)";

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withDefaults();

    @Test
    void aFullDiskAnswersStorageErrorsLogsOnceAndDeleteTopicsFreesTheSpace() throws Exception {
        Path dir = broker.logDir();
        broker.stop();
        assumeTrue(Tmpfs.mount(dir, "8m"),
                "mounting a tmpfs needs root (mount -t tmpfs): the full-disk test is skipped here");
        List<String> fullLines = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (String.valueOf(record.getMessage()).contains(FULL_LINE)) {
                    fullLines.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logManagerLog = Logger.getLogger("io.odradek.log.LogManager");
        try {
            broker.start();
            logManagerLog.addHandler(capture);
            broker.createTopic("keep", 1);
            broker.createTopic("filler", 1);
            KafkaProducer<String, String> producer = Clients.producer(broker, Map.of(
                    ProducerConfig.RETRIES_CONFIG, 0, ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1,
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false));
            List<String> keptBefore = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                producer.send(new ProducerRecord<>("keep", "before-" + i)).get();
                keptBefore.add("before-" + i);
            }

            String chunk = "x".repeat(64 * 1024);
            int acked = 0;
            ExecutionException full = null;
            while (full == null && acked < 1_000) {
                try {
                    producer.send(new ProducerRecord<>("filler", chunk)).get();
                    acked++;
                } catch (ExecutionException e) {
                    full = e;
                }
            }
            assertThat(full).as("8 MiB must fill up").isNotNull();
            assertThat(full.getCause()).isInstanceOf(KafkaStorageException.class);
            assertThat(acked).isBetween(50, 130);
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("keep", chunk)).get())
                    .cause().isInstanceOf(KafkaStorageException.class);
            assertThat(fullLines).hasSize(1);
            assertThat(fullLines.get(0)).startsWith("Log directory " + dir + " is full");

            // Closed first: a producer still tracking "filler" would auto-create it again on its next refresh.
            producer.close();
            await(broker.admin().deleteTopics(List.of("filler")).all());
            assertThat(dir.resolve("filler-0")).doesNotExist();

            Clients.producer(broker, Map.of()).send(new ProducerRecord<>("keep", "after")).get();
            assertThat(fullLines).hasSize(1);
            assertThat(tmpFiles(dir)).isEmpty();

            broker.stopAsIfCrashed(); // no clean-shutdown marker: the next start recovers the log
            broker.start();

            List<String> values = readAll("keep");
            List<String> expected = new ArrayList<>(keptBefore);
            expected.add("after");
            assertThat(values).containsExactlyElementsOf(expected);
            assertThat(await(broker.admin().listTopics().names())).containsExactly("keep");
            assertThat(tmpFiles(dir)).isEmpty();
        } finally {
            logManagerLog.removeHandler(capture);
            broker.closeClients();
            broker.stop();
            Tmpfs.unmount(dir);
        }
    }

    private List<String> readAll(String topic) {
        KafkaConsumer<String, String> consumer = Clients.consumer(broker, Map.of());
        return Clients.readAll(consumer, List.of(new TopicPartition(topic, 0)), Duration.ofSeconds(30)).stream()
                .map(ConsumerRecord::value).toList();
    }

    private static List<Path> tmpFiles(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
        }
    }
}
