package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A topic of 2,000 partitions, produced to: the broker's index mappings (lines of /proc/self/maps naming a
 * .index or .timeindex file; the broker runs in this JVM) are released once the partitions go idle, and a
 * consumer reading a few partitions maps only theirs. The log dir is a tmpfs mounted by the test (creating
 * 2,000 partitions on a disk costs ~4 fsyncs each); skipped where mounting is not allowed.
 */
class IndexMappingTest {
    private static final int PARTITIONS = 2_000;

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of("odradek.index.idle.unmap.ms", "1000",
            "log.index.interval.bytes", "0"));

    @Test
    void twoThousandPartitionsHoldNoIndexMappingsOnceIdle() throws Exception {
        Path dir = broker.logDir();
        broker.stop();
        assumeTrue(Tmpfs.mount(dir, "512m"),
                "mounting a tmpfs needs root (mount -t tmpfs): the 2,000-partition mapping test is skipped here");
        try {
            broker.start();
            broker.createTopic("wide", PARTITIONS);
            KafkaProducer<String, String> producer = Clients.producer(broker, Map.of(ProducerConfig.LINGER_MS_CONFIG, 20));
            for (int round = 0; round < 2; round++) {
                List<Future<RecordMetadata>> sends = new ArrayList<>();
                for (int p = 0; p < PARTITIONS; p++) {
                    sends.add(producer.send(new ProducerRecord<>("wide", p, null, "p" + p + "-" + round)));
                }
                for (Future<RecordMetadata> f : sends) {
                    assertThat(f.get().offset()).isEqualTo(round);
                }
            }
            long busy = mappedIndexFiles(dir);
            assertThat(busy).isBetween(1L, 2L * PARTITIONS);

            long idle = busy;
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (idle > 0 && System.nanoTime() < deadline) {
                Thread.sleep(200);
                idle = mappedIndexFiles(dir);
            }
            assertThat(idle).as("index mappings left after the partitions went idle").isZero();

            KafkaConsumer<String, String> consumer = Clients.consumer(broker, Map.of());
            List<TopicPartition> five = List.of(0, 1, 2, 3, 4).stream().map(p -> new TopicPartition("wide", p)).toList();
            consumer.assign(five);
            five.forEach(tp -> consumer.seek(tp, 1));
            List<String> values = new ArrayList<>();
            while (values.size() < 5) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(r.value());
                }
            }
            assertThat(values).containsExactlyInAnyOrder("p0-1", "p1-1", "p2-1", "p3-1", "p4-1");
            assertThat(mappedIndexFiles(dir)).isBetween(1L, 10L);
        } finally {
            broker.closeClients();
            broker.stop();
            Tmpfs.unmount(dir);
        }
    }

    private static long mappedIndexFiles(Path dir) throws IOException {
        String prefix = dir.toRealPath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream()
                .filter(l -> l.contains(prefix) && (l.endsWith(".index") || l.endsWith(".timeindex")))
                .count();
    }
}
