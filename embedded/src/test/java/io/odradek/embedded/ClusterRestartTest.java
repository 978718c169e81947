package io.odradek.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A cluster closed on a kept data dir starts again on it, its quorum and records intact. */
class ClusterRestartTest {
    @Test
    void aThreeBrokerClusterStartedAgainOnItsDataDirServesTheRecordsWrittenBefore(@TempDir Path dir) throws Exception {
        List<Integer> firstPorts;
        try (Odradek cluster = Odradek.builder().brokers(3).dataDir(dir).start()) {
            cluster.createTopic("ledger", 1, 3);
            try (KafkaProducer<String, String> producer = Clients.producer(cluster.bootstrapServers(), "all")) {
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>("ledger", 0, "k" + i, "entry " + i)).get(30, TimeUnit.SECONDS);
                }
            }
            firstPorts = ControllerPorts.saved(dir, 3);
        }
        assertThat(Files.exists(dir.resolve(ControllerPorts.FILE))).isTrue();
        assertThat(firstPorts).hasSize(3).doesNotHaveDuplicates();

        try (Odradek again = Odradek.builder().brokers(3).dataDir(dir).start()) {
            assertThat(again.brokers()).allSatisfy(b -> assertThat(b.config().get("controller.quorum.voters"))
                    .isEqualTo("1@127.0.0.1:" + firstPorts.get(0) + ",2@127.0.0.1:" + firstPorts.get(1)
                            + ",3@127.0.0.1:" + firstPorts.get(2)));
            List<ConsumerRecord<String, String>> read = Clients.readPartition(again.bootstrapServers(), "ledger", 0, 3);
            assertThat(read).extracting(ConsumerRecord::offset, ConsumerRecord::key, ConsumerRecord::value)
                    .containsExactly(tuple(0L, "k0", "entry 0"), tuple(1L, "k1", "entry 1"), tuple(2L, "k2", "entry 2"));
        }
    }
}
