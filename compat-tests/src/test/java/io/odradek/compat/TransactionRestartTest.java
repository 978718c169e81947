package io.odradek.compat;

import static io.odradek.compat.OdradekBroker.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A broker that goes down in the middle of a transaction: after the restart, an open transaction is aborted
 * (by its timeout, or by the next initTransactions of its transactional.id) and never becomes visible; a
 * transaction whose commit had been decided (PrepareCommit written) is completed and becomes visible.
 */
class TransactionRestartTest {
    /** One __transaction_state partition, so the test knows which file holds the coordinator's records. */
    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of(
            "transaction.state.log.num.partitions", "1",
            "transaction.abort.timed.out.transaction.cleanup.interval.ms", "200"));

    @Test
    void openTransactionIsAbortedByItsTimeoutAfterACrashAndNeverBecomesVisible() throws Exception {
        String topic = "restart-open-timeout";
        broker.createTopic(topic, 2);
        KafkaProducer<String, String> producer = Clients.transactionalProducer(broker, "open-timeout",
                Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 3000));
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 0, "k", "open-0")).get(); // 0
        producer.send(new ProducerRecord<>(topic, 0, "k", "open-1")).get(); // 1
        producer.send(new ProducerRecord<>(topic, 1, "k", "open-2")).get(); // 0
        producer.close(Duration.ZERO); // the producer dies with the broker, its transaction open

        broker.stopAsIfCrashed();
        broker.start();

        // The coordinator reloads the Ongoing transaction and aborts it once its 3 s have passed.
        awaitLastStableOffsets(topic, List.of(3L, 2L));
        assertThat(read(topic, 2, "read_committed")).isEmpty();
        assertThat(read(topic, 2, "read_uncommitted")).containsExactly("0@0 open-0", "0@1 open-1", "1@0 open-2");
        assertThat(describe("open-timeout").state()).isEqualTo(TransactionState.COMPLETE_ABORT);
    }

    @Test
    void openTransactionIsAbortedByTheNextInitTransactionsAfterARestart() throws Exception {
        String topic = "restart-open-init";
        broker.createTopic(topic, 1);
        KafkaProducer<String, String> producer = Clients.transactionalProducer(broker, "open-init", Map.of());
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 0, "k", "lost-0")).get(); // 0
        producer.send(new ProducerRecord<>(topic, 0, "k", "lost-1")).get(); // 1
        producer.close(Duration.ZERO);

        broker.restart();

        KafkaProducer<String, String> next = Clients.transactionalProducer(broker, "open-init", Map.of()); // marker 2
        next.beginTransaction();
        assertThat(next.send(new ProducerRecord<>(topic, 0, "k", "kept")).get().offset()).isEqualTo(3);
        next.commitTransaction(); // marker 4

        assertThat(read(topic, 1, "read_committed")).containsExactly("0@3 kept");
        assertThat(read(topic, 1, "read_uncommitted")).containsExactly("0@0 lost-0", "0@1 lost-1", "0@3 kept");
        assertThat(endOffsets(topic, 1, "read_committed")).containsExactly(5L);
        assertThat(describe("open-init").state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
    }

    /**
     * Approximates a crash between the coordinator's PrepareCommit record and the markers: the commit runs on
     * another thread while this one watches the __transaction_state segment and stops the broker (removing
     * the clean-shutdown marker) as soon as that segment grows, i.e. once the PrepareCommit record is written.
     * Twenty partitions make the window for their markers wide; how many markers were on disk at the stop is
     * printed (the outcome asserted is the same either way: every record committed, exactly once).
     */
    @Test
    void transactionWhoseCommitWasDecidedBeforeACrashIsCompletedAfterTheRestart() throws Exception {
        String topic = "restart-prepared";
        int partitions = 20;
        broker.createTopic(topic, partitions);
        KafkaProducer<String, String> producer = Clients.transactionalProducer(broker, "prepared", Map.of(
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 5000));
        producer.beginTransaction();
        for (int p = 0; p < partitions; p++) {
            producer.send(new ProducerRecord<>(topic, p, "k", "prepared-" + p)).get();
        }
        Path stateSegment = SegmentFile.onlyLogSegment(broker.partitionDir("__transaction_state", 0));
        long sizeBeforeCommit = Files.size(stateSegment);

        CompletableFuture<Void> commit = CompletableFuture.runAsync(producer::commitTransaction);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (Files.size(stateSegment) == sizeBeforeCommit && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(Files.size(stateSegment)).as("the coordinator wrote PrepareCommit").isGreaterThan(sizeBeforeCommit);
        broker.stopAsIfCrashed();
        int markersOnDisk = 0;
        for (int p = 0; p < partitions; p++) {
            markersOnDisk += SegmentFile.batches(SegmentFile.onlyLogSegment(broker.partitionDir(topic, p))).size() - 1;
        }
        System.out.printf("%s: %d of %d partitions had their commit marker when the broker stopped%n",
                getClass().getSimpleName(), markersOnDisk, partitions);
        producer.close(Duration.ZERO);
        commit.handle((ok, failure) -> null).join();

        broker.start();

        awaitLastStableOffsets(topic, IntStream.range(0, partitions).mapToObj(p -> 2L).toList());
        assertThat(read(topic, partitions, "read_committed"))
                .containsExactlyElementsOf(IntStream.range(0, partitions).mapToObj(p -> p + "@0 prepared-" + p).toList());
        assertThat(describe("prepared").state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        // A new instance of the producer starts cleanly on top of the completed transaction.
        KafkaProducer<String, String> next = Clients.transactionalProducer(broker, "prepared", Map.of());
        next.beginTransaction();
        assertThat(next.send(new ProducerRecord<>(topic, 0, "k", "next")).get().offset()).isEqualTo(2);
        next.commitTransaction();
        assertThat(read(topic, 1, "read_committed")).containsExactly("0@0 prepared-0", "0@2 next");
    }

    private TransactionDescription describe(String transactionalId) {
        return await(broker.admin().describeTransactions(List.of(transactionalId)).description(transactionalId));
    }

    private void awaitLastStableOffsets(String topic, List<Long> expected) throws InterruptedException {
        Clients.awaitLastStableOffsets(broker, topic, expected);
    }

    /** Every record as "partition@offset value", partition by partition. */
    private List<String> read(String topic, int partitions, String isolation) {
        return Clients.readAtIsolation(broker, topic, partitions, isolation).stream()
                .map(r -> r.partition() + "@" + r.offset() + " " + r.value()).toList();
    }

    private List<Long> endOffsets(String topic, int partitions, String isolation) {
        return Clients.endOffsets(broker, topic, partitions, isolation);
    }
}
