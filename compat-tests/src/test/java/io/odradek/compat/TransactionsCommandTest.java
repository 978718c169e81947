package io.odradek.compat;

import static io.odradek.compat.OdradekBroker.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.tools.TransactionsCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka's own kafka-transactions tool (TransactionsCommand of kafka-tools 4.4) against Odradek: list, describe,
 * describe-producers, find-hanging, and abort of a hanging transaction.
 */
class TransactionsCommandTest {
    /** One __transaction_state partition, so the hanging-transaction test knows which one to wipe. */
    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of("transaction.state.log.num.partitions", "1"));

    @Test
    void listDescribeAndDescribeProducersShowAnOngoingAndACompletedTransaction() throws Exception {
        String topic = "tc-data";
        broker.createTopic(topic, 2);
        KafkaProducer<String, String> done = Clients.transactionalProducer(broker, "tc-done", Map.of());
        done.beginTransaction();
        done.send(new ProducerRecord<>(topic, 0, "k", "done-0")).get(); // 0, marker 1
        done.commitTransaction();
        Clients.awaitTransactionState(broker, "tc-done", TransactionState.COMPLETE_COMMIT); // marker written
        KafkaProducer<String, String> open = Clients.transactionalProducer(broker, "tc-open", Map.of());
        long beforeBegin = System.currentTimeMillis();
        open.beginTransaction();
        open.send(new ProducerRecord<>(topic, 0, "k", "open-0")).get(); // 2
        open.send(new ProducerRecord<>(topic, 0, "k", "open-1")).get(); // 3
        open.send(new ProducerRecord<>(topic, 1, "k", "open-2")).get(); // 0
        Map<String, ProducerState> producers = await(broker.admin().describeProducers(
                List.of(new TopicPartition(topic, 0))).partitionResult(new TopicPartition(topic, 0)))
                .activeProducers().stream().collect(Collectors.toMap(
                        p -> p.currentTransactionStartOffset().isPresent() ? "open" : "done", p -> p));
        String donePid = String.valueOf(producers.get("done").producerId());
        String openPid = String.valueOf(producers.get("open").producerId());

        List<Map<String, String>> list = table(tool("list"));
        assertThat(list).containsExactlyInAnyOrder(
                row("TransactionalId", "tc-done", "Coordinator", "1", "ProducerId", donePid,
                        "TransactionState", "CompleteCommit"),
                row("TransactionalId", "tc-open", "Coordinator", "1", "ProducerId", openPid,
                        "TransactionState", "Ongoing"));

        List<Map<String, String>> describeOpen = table(tool("describe", "--transactional-id", "tc-open"));
        assertThat(describeOpen).hasSize(1);
        Map<String, String> o = describeOpen.get(0);
        assertThat(o).containsEntry("CoordinatorId", "1").containsEntry("TransactionalId", "tc-open")
                .containsEntry("ProducerId", openPid).containsEntry("ProducerEpoch", "0")
                .containsEntry("TransactionState", "Ongoing").containsEntry("TransactionTimeoutMs", "60000");
        assertThat(Long.parseLong(o.get("CurrentTransactionStartTimeMs"))).isBetween(beforeBegin,
                System.currentTimeMillis());
        assertThat(Set.of(o.get("TopicPartitions").split(","))).containsExactlyInAnyOrder(topic + "-0", topic + "-1");

        Map<String, String> d = table(tool("describe", "--transactional-id", "tc-done")).get(0);
        // Transaction protocol v2 (what a 4.4 Java client uses): every EndTxn bumps the epoch, 0 -> 1.
        assertThat(d).containsEntry("TransactionalId", "tc-done").containsEntry("ProducerId", donePid)
                .containsEntry("ProducerEpoch", "1").containsEntry("TransactionState", "CompleteCommit")
                .containsEntry("TopicPartitions", "");

        List<Map<String, String>> onPartition0 = table(tool("describe-producers", "--topic", topic,
                "--partition", "0"));
        assertThat(onPartition0).extracting(r -> r.get("ProducerId") + " epoch " + r.get("ProducerEpoch")
                + " coordinatorEpoch " + r.get("LatestCoordinatorEpoch") + " txnStart "
                + r.get("CurrentTransactionStartOffset")).containsExactlyInAnyOrder(
                donePid + " epoch 1 coordinatorEpoch 0 txnStart None",
                openPid + " epoch 0 coordinatorEpoch -1 txnStart 2");
        assertThat(onPartition0).filteredOn(r -> r.get("ProducerId").equals(openPid))
                .extracting(r -> r.get("LastSequence")).containsExactly("1");
        List<Map<String, String>> onPartition1 = table(tool("describe-producers", "--topic", topic,
                "--partition", "1"));
        assertThat(onPartition1).extracting(r -> r.get("ProducerId") + " txnStart "
                + r.get("CurrentTransactionStartOffset") + " lastSequence " + r.get("LastSequence"))
                .containsExactly(openPid + " txnStart 0 lastSequence 0");

        // Nothing hangs: the coordinator knows the open transaction and both its partitions.
        assertThat(table(tool("find-hanging", "--topic", topic, "--max-transaction-timeout", "0"))).isEmpty();
        open.abortTransaction();
    }

    /**
     * Makes a transaction hang the way a lost coordinator state does: a producer writes transactional records
     * and dies, the broker is stopped and the __transaction_state partition's files are deleted, so after the
     * restart no coordinator knows the transaction and nothing will ever write its marker; the partition's
     * last stable offset is stuck at the transaction's first offset. find-hanging reports it, abort writes
     * the abort marker (WriteTxnMarkers from the admin client) and read_committed moves on.
     */
    @Test
    void findHangingReportsATransactionItsCoordinatorForgotAndAbortEndsIt() throws Exception {
        String topic = "tc-hang";
        broker.createTopic(topic, 1);
        KafkaProducer<String, String> plain = Clients.producer(broker, Map.of());
        plain.send(new ProducerRecord<>(topic, 0, "p", "before")).get(); // 0
        KafkaProducer<String, String> producer = Clients.transactionalProducer(broker, "tc-hanging", Map.of());
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 0, "k", "hanging-0")).get(); // 1
        producer.send(new ProducerRecord<>(topic, 0, "k", "hanging-1")).get(); // 2
        producer.close(Duration.ZERO);
        plain.send(new ProducerRecord<>(topic, 0, "p", "after")).get(); // 3
        broker.closeClients();

        broker.stop();
        List<String> deleted = forgetTransactionState(broker.partitionDir("__transaction_state", 0));
        assertThat(deleted).as("the coordinator's segment").anyMatch(f -> f.endsWith(".log"));
        broker.start();

        assertThat(table(tool("list"))).as("the coordinator forgot tc-hanging").isEmpty();
        assertThat(Clients.endOffsets(broker, topic, 1, "read_committed")).as("stuck at the open transaction")
                .containsExactly(1L);
        List<Map<String, String>> hanging = table(tool("find-hanging", "--topic", topic,
                "--max-transaction-timeout", "0"));
        assertThat(hanging).hasSize(1);
        Map<String, String> h = hanging.get(0);
        assertThat(h).containsEntry("Topic", topic).containsEntry("Partition", "0").containsEntry("ProducerEpoch", "0")
                .containsEntry("CoordinatorEpoch", "-1").containsEntry("StartOffset", "1")
                .containsEntry("Duration(min)", "0");
        List<Map<String, String>> producers = table(tool("describe-producers", "--topic", topic, "--partition", "0"));
        assertThat(producers).filteredOn(r -> r.get("ProducerId").equals(h.get("ProducerId")))
                .extracting(r -> r.get("CurrentTransactionStartOffset")).containsExactly("1");

        KafkaTool.Exited abort = KafkaTool.runToExit(TransactionsCommand::main, "--bootstrap-server",
                broker.bootstrap(), "abort", "--topic", topic, "--partition", "0", "--start-offset", "1");
        assertThat(abort.status()).as(abort.stderr()).isZero();

        Clients.awaitLastStableOffsets(broker, topic, List.of(5L)); // the abort marker at 4
        assertThat(Clients.readAtIsolation(broker, topic, 1, "read_committed"))
                .extracting(r -> r.offset() + " " + r.value()).containsExactly("0 before", "3 after");
        assertThat(Clients.readAtIsolation(broker, topic, 1, "read_uncommitted"))
                .extracting(r -> r.offset() + " " + r.value())
                .containsExactly("0 before", "1 hanging-0", "2 hanging-1", "3 after");
        assertThat(table(tool("find-hanging", "--topic", topic, "--max-transaction-timeout", "0"))).isEmpty();
        assertThat(table(tool("describe-producers", "--topic", topic, "--partition", "0")))
                .filteredOn(r -> r.get("ProducerId").equals(h.get("ProducerId")))
                .extracting(r -> r.get("CurrentTransactionStartOffset")).containsExactly("None");
    }

    /** Deletes the partition's segments, indexes and producer snapshots; keeps its identity files. */
    private static List<String> forgetTransactionState(Path partitionDir) throws IOException {
        List<String> deleted = new ArrayList<>();
        try (Stream<Path> files = Files.list(partitionDir)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (name.endsWith(".log") || name.endsWith(".index") || name.endsWith(".timeindex")
                        || name.endsWith(".txnindex") || name.endsWith(".snapshot")) {
                    Files.delete(f);
                    deleted.add(name);
                }
            }
        }
        return deleted;
    }

    /** Runs kafka-transactions with these arguments; it must exit 0. */
    private String tool(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", broker.bootstrap()));
        all.addAll(Arrays.asList(args));
        KafkaTool.Exited run = KafkaTool.runToExit(TransactionsCommand::main, all.toArray(String[]::new));
        assertThat(run.status()).as("kafka-transactions %s exit status; stderr: %s", all, run.stderr()).isZero();
        return run.stdout();
    }

    /** The tool's tab-separated table (header line first), one map from column to value per row. */
    static List<Map<String, String>> table(String out) {
        List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
        assertThat(lines).as("a table with a header:\n%s", out).isNotEmpty();
        List<String> headers = cells(lines.get(0));
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> cells = cells(line);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < headers.size(); i++) {
                row.put(headers.get(i), i < cells.size() ? cells.get(i) : "");
            }
            rows.add(row);
        }
        return rows;
    }

    /** Each cell is padded to its column's width and followed by a tab. */
    private static List<String> cells(String line) {
        return Arrays.stream(line.split("\t")).map(String::trim).toList();
    }

    private static Map<String, String> row(String... keysAndValues) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            row.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return row;
    }
}
