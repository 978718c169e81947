package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.tools.DumpLogSegments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A broker that goes down in the middle of a transaction: after the restart, an open transaction is aborted
 * (by its timeout, or by the next initTransactions of its transactional.id) and never becomes visible; a
 * transaction whose outcome had been decided (PrepareCommit or PrepareAbort written) is completed as decided.
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
        Clients.awaitTransactionState(broker, "open-timeout", TransactionState.COMPLETE_ABORT);
    }

    /**
     * The producer lives through the broker's restart (clean, then as after a crash): the coordinator reloads
     * the Ongoing transaction, the partition its producer state, and the same producer instance carries on
     * writing into its transaction and commits it: every record visible once, at consecutive offsets.
     */
    @ParameterizedTest(name = "{0} shutdown")
    @ValueSource(strings = {"clean", "crash"})
    void producerCarriesOnWithItsOpenTransactionAcrossARestartAndCommits(String shutdown) throws Exception {
        String topic = "restart-carry-on";
        broker.createTopic(topic, 2);
        KafkaProducer<String, String> producer = Clients.transactionalProducer(broker, "carry-on", Map.of());
        producer.beginTransaction();
        for (int i = 0; i < 3; i++) {
            producer.send(new ProducerRecord<>(topic, i % 2, "k", "before-" + i)).get();
        }
        if (shutdown.equals("crash")) {
            broker.stopAsIfCrashed();
        } else {
            broker.stop();
        }
        broker.start();
        for (int i = 3; i < 6; i++) {
            producer.send(new ProducerRecord<>(topic, i % 2, "k", "after-" + i)).get();
        }
        producer.commitTransaction();
        awaitLastStableOffsets(topic, List.of(4L, 4L));

        assertThat(read(topic, 2, "read_committed")).containsExactly("0@0 before-0", "0@1 before-2", "0@2 after-4",
                "1@0 before-1", "1@1 after-3", "1@2 after-5");
        Clients.awaitTransactionState(broker, "carry-on", TransactionState.COMPLETE_COMMIT);
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
        awaitLastStableOffsets(topic, List.of(5L));

        assertThat(read(topic, 1, "read_committed")).containsExactly("0@3 kept");
        assertThat(read(topic, 1, "read_uncommitted")).containsExactly("0@0 lost-0", "0@1 lost-1", "0@3 kept");
        Clients.awaitTransactionState(broker, "open-init", TransactionState.COMPLETE_COMMIT);
    }

    /**
     * A crash after the coordinator wrote PrepareCommit (or PrepareAbort) and before the markers: the
     * transaction runs to completion, then the broker stops uncleanly and the writes that came after the
     * Prepare record are torn as an unsynced crash leaves them: the coordinator's last batch (the Complete
     * record) and each partition's last batch (the marker) are cut in half, and the producer-state snapshots
     * (written at shutdown, which a crash would not have reached) are removed. Recovery drops the torn
     * batches, so the restarted coordinator finds the transaction prepared and must finish it: write the
     * markers and the Complete record. Kafka's own decoder confirms the Prepare record is the last one kept.
     */
    @ParameterizedTest(name = "commit {0}")
    @ValueSource(booleans = {true, false})
    void transactionPreparedBeforeACrashIsCompletedAfterTheRestart(boolean commit) throws Exception {
        String topic = "restart-prepared";
        int partitions = 3;
        broker.createTopic(topic, partitions);
        KafkaProducer<String, String> producer = Clients.transactionalProducer(broker, "prepared", Map.of());
        producer.beginTransaction();
        for (int p = 0; p < partitions; p++) {
            producer.send(new ProducerRecord<>(topic, p, "k", "prepared-" + p)).get(); // 0, marker 1
        }
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.abortTransaction();
        }
        producer.close(Duration.ZERO);
        broker.closeClients();
        broker.stopAsIfCrashed();

        Path stateDir = broker.partitionDir("__transaction_state", 0);
        Path stateSegment = SegmentFile.onlyLogSegment(stateDir);
        String prepare = commit ? "PrepareCommit" : "PrepareAbort";
        String complete = commit ? "CompleteCommit" : "CompleteAbort";
        assertThat(transactionStates(stateSegment)).as("the coordinator's records").endsWith(prepare, complete);
        tearLastBatch(stateSegment);
        assertThat(transactionStates(stateSegment)).as("what the crash kept").last().isEqualTo(prepare);
        for (int p = 0; p < partitions; p++) {
            Path segment = SegmentFile.onlyLogSegment(broker.partitionDir(topic, p));
            assertThat(SegmentFile.batches(segment)).as("the records and the marker").hasSize(2);
            tearLastBatch(segment);
            deleteSnapshots(broker.partitionDir(topic, p));
        }
        deleteSnapshots(stateDir);

        broker.start();

        awaitLastStableOffsets(topic, IntStream.range(0, partitions).mapToObj(p -> 2L).toList());
        List<String> written = IntStream.range(0, partitions).mapToObj(p -> p + "@0 prepared-" + p).toList();
        assertThat(read(topic, partitions, "read_committed")).isEqualTo(commit ? written : List.of());
        assertThat(read(topic, partitions, "read_uncommitted")).isEqualTo(written);
        Clients.awaitTransactionState(broker, "prepared",
                commit ? TransactionState.COMPLETE_COMMIT : TransactionState.COMPLETE_ABORT);
        for (int p = 0; p < partitions; p++) {
            assertThat(SegmentFile.batches(SegmentFile.onlyLogSegment(broker.partitionDir(topic, p))))
                    .as("partition %d: the records and the marker written after the restart", p)
                    .extracting(b -> b.baseOffset() + "-" + b.lastOffset()).containsExactly("0-0", "1-1");
        }
        // A new instance of the producer starts cleanly on top of the completed transaction.
        KafkaProducer<String, String> next = Clients.transactionalProducer(broker, "prepared", Map.of());
        next.beginTransaction();
        assertThat(next.send(new ProducerRecord<>(topic, 0, "k", "next")).get().offset()).isEqualTo(2);
        next.commitTransaction();
        awaitLastStableOffsets(topic, List.of(4L, 2L, 2L));
        assertThat(read(topic, 1, "read_committed"))
                .isEqualTo(commit ? List.of("0@0 prepared-0", "0@2 next") : List.of("0@2 next"));
    }

    /**
     * Twenty transactions of five records, every third one aborted, on a partition that rolls a segment every
     * kilobyte: read_committed skips exactly the aborted ones, before and after a crash, and the .txnindex
     * files (Kafka's DumpLogSegments reads them) hold each aborted transaction once, in the segment of its marker.
     * Transaction k takes offsets 6k to 6k+4 and its marker 6k+5.
     */
    @Test
    void abortedTransactionsAcrossManySegmentsStayInvisibleAfterACrash() throws Exception {
        String topic = "restart-aborted-segments";
        broker.createTopic(topic, 1, Map.of("segment.bytes", "1024"));
        KafkaProducer<String, String> producer = Clients.transactionalProducer(broker, "many", Map.of());
        List<String> committed = new ArrayList<>();
        List<String> all = new ArrayList<>();
        List<String> aborted = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            boolean commit = k % 3 != 1;
            producer.beginTransaction();
            for (int j = 0; j < 5; j++) {
                String value = "txn" + k + "-" + j + "-" + "x".repeat(60);
                producer.send(new ProducerRecord<>(topic, 0, "k", value));
                all.add("0@" + (6 * k + j) + " " + value);
                if (commit) {
                    committed.add("0@" + (6 * k + j) + " " + value);
                }
            }
            if (commit) {
                producer.commitTransaction();
            } else {
                producer.flush(); // an abort drops the batches the producer has not sent yet
                producer.abortTransaction();
                aborted.add("firstOffset: " + 6 * k + " lastOffset: " + (6 * k + 5) + " lastStableOffset: "
                        + (6 * k + 6));
            }
        }
        awaitLastStableOffsets(topic, List.of(120L));
        assertThat(read(topic, 1, "read_committed")).isEqualTo(committed);
        assertThat(read(topic, 1, "read_uncommitted")).isEqualTo(all);
        producer.close();
        broker.closeClients();

        broker.stopAsIfCrashed();
        List<Path> segments;
        try (Stream<Path> files = Files.list(broker.partitionDir(topic, 0))) {
            segments = files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList();
        }
        assertThat(segments).as("segments of at most 1 KB").hasSizeGreaterThan(5);
        List<String> indexed = new ArrayList<>();
        for (Path segment : segments) {
            String name = segment.getFileName().toString();
            Path txnIndex = segment.resolveSibling(name.replace(".log", ".txnindex"));
            if (!Files.exists(txnIndex)) {
                continue;
            }
            long segmentBase = Long.parseLong(name.replace(".log", ""));
            KafkaTool.Output dump = KafkaTool.run(DumpLogSegments::main, "--files", txnIndex.toString());
            for (String line : dump.stdout().lines().filter(l -> l.startsWith("version:")).toList()) {
                String entry = line.replaceFirst("^version: 0 producerId: \\d+ ", "");
                long marker = Long.parseLong(entry.replaceAll(".*lastOffset: (\\d+).*", "$1"));
                assertThat(marker).as("%s holds %s", txnIndex.getFileName(), entry).isGreaterThanOrEqualTo(segmentBase);
                indexed.add(entry);
            }
        }
        assertThat(indexed).as("the aborted transactions in the .txnindex files").isEqualTo(aborted);

        broker.start();

        assertThat(read(topic, 1, "read_committed")).isEqualTo(committed);
        assertThat(read(topic, 1, "read_uncommitted")).isEqualTo(all);
        // One batch per fetch: each response's aborted_transactions must cover just its range.
        assertThat(Clients.readAtIsolation(broker, topic, 1, "read_committed",
                Map.of(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 100)).stream()
                .map(r -> r.partition() + "@" + r.offset() + " " + r.value()).toList()).isEqualTo(committed);
        // A read_committed consumer starting inside an aborted transaction (txn 4: offsets 24-28, marker 29)
        // skips the rest of it and starts at the next committed record.
        try (KafkaConsumer<String, String> consumer = Clients.consumer(broker,
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seek(tp, 26);
            List<String> first = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (first.isEmpty() && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> first.add(r.offset() + " " + r.value()));
            }
            assertThat(first).first().isEqualTo("30 txn5-0-" + "x".repeat(60));
        }
    }

    /** The transactionStatus of each __transaction_state record in the segment, in order, as Kafka decodes it. */
    private static List<String> transactionStates(Path segment) throws Exception {
        KafkaTool.Output dump = KafkaTool.run(DumpLogSegments::main, "--files", segment.toString(),
                "--transaction-log-decoder");
        List<String> states = new ArrayList<>();
        Matcher m = Pattern.compile("\"transactionStatus\":\"(\\w+)\"").matcher(dump.stdout());
        while (m.find()) {
            states.add(m.group(1));
        }
        return states;
    }

    /** Cuts the segment half way into its last batch, as a crash can leave an unsynced write. */
    private static void tearLastBatch(Path segment) throws IOException {
        List<SegmentFile.Batch> batches = SegmentFile.batches(segment);
        SegmentFile.Batch last = batches.get(batches.size() - 1);
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            ch.truncate(last.position() + last.size() / 2);
        }
    }

    private static void deleteSnapshots(Path partitionDir) throws IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".snapshot")).toList()) {
                Files.delete(f);
            }
        }
    }

    private void awaitLastStableOffsets(String topic, List<Long> expected) throws InterruptedException {
        Clients.awaitLastStableOffsets(broker, topic, expected);
    }

    /** Every record as "partition@offset value", partition by partition. */
    private List<String> read(String topic, int partitions, String isolation) {
        return Clients.readAtIsolation(broker, topic, partitions, isolation).stream()
                .map(r -> r.partition() + "@" + r.offset() + " " + r.value()).toList();
    }
}
