package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.tools.DumpLogSegments;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka's own kafka-dump-log reads a partition written by two interleaved transactional producers: every
 * batch valid, the commit and abort markers as control batches, the aborted transactions in the segment's
 * .txnindex with Kafka's last stable offsets, and the coordinator's __transaction_state records decoded by
 * {@code --transaction-log-decoder}.
 */
class TransactionalDumpLogSegmentsTest {
    private static final String TOPIC = "dump-txn";
    private static final Pattern FIELD = Pattern.compile("(\\w+): (\\S+)");
    private static final Pattern RECORD = Pattern.compile("^\\| offset: (\\d+) .*?(?: endTxnMarker: (\\w+) "
            + "coordinatorEpoch: (-?\\d+))?(?: key: (\\S+) payload: (\\S+))?$");
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of("transaction.state.log.num.partitions", "1"));

    private Path segment;

    /**
     * A and B are two transactional producers on one partition:
     * A commits r0-r2 (0-2, marker 3); B opens a transaction with b0 (4); A aborts a0, a1 (5-6, marker 7)
     * while B's is open; B commits (marker 8); A commits c0 (9, marker 10); B aborts b1 (11, marker 12).
     */
    @BeforeEach
    void twoTransactionalProducersInterleaveThenTheBrokerStops() throws Exception {
        broker.createTopic(TOPIC, 1);
        KafkaProducer<String, String> a = Clients.transactionalProducer(broker, "dump-a",
                Map.of(ProducerConfig.LINGER_MS_CONFIG, 1000));
        KafkaProducer<String, String> b = Clients.transactionalProducer(broker, "dump-b",
                Map.of(ProducerConfig.LINGER_MS_CONFIG, 1000));
        a.beginTransaction();
        send(a, "r0", "r1", "r2");
        a.commitTransaction();
        awaitMarkers(3); // before another producer writes at an offset the test predicts
        b.beginTransaction();
        send(b, "b0");
        b.flush();
        a.beginTransaction();
        send(a, "a0", "a1");
        a.flush();
        a.abortTransaction();
        awaitMarkers(7);
        b.commitTransaction();
        awaitMarkers(8);
        a.beginTransaction();
        send(a, "c0");
        a.commitTransaction();
        awaitMarkers(10);
        b.beginTransaction();
        send(b, "b1");
        b.flush();
        b.abortTransaction();
        awaitMarkers(12);
        Clients.awaitTransactionState(broker, "dump-a", TransactionState.COMPLETE_COMMIT);
        Clients.awaitTransactionState(broker, "dump-b", TransactionState.COMPLETE_ABORT);
        broker.closeClients();
        broker.stop();
        segment = SegmentFile.onlyLogSegment(broker.partitionDir(TOPIC, 0));
    }

    @Test
    void markersAreValidControlBatchesAfterTheTransactionalBatchesTheyEnd() throws Exception {
        KafkaTool.Output dump = KafkaTool.run(DumpLogSegments::main,
                "--files", segment.toString(), "--deep-iteration", "--print-data-log");

        List<Map<String, String>> batches = dump.stdout().lines().filter(l -> l.startsWith("baseOffset:"))
                .map(TransactionalDumpLogSegmentsTest::fields).toList();
        assertThat(batches).extracting(b -> b.get("isvalid")).as(dump.stdout()).containsOnly("true");
        assertThat(batches).extracting(b -> b.get("baseOffset") + "-" + b.get("lastOffset") + " "
                + (b.get("isControl").equals("true") ? "control" : b.get("isTransactional").equals("true")
                ? "transactional" : "plain")).containsExactly(
                "0-2 transactional", "3-3 control", "4-4 transactional", "5-6 transactional", "7-7 control",
                "8-8 control", "9-9 transactional", "10-10 control", "11-11 transactional", "12-12 control");
        assertThat(batches).extracting(b -> b.get("isTransactional")).containsOnly("true");
        String a = batches.get(0).get("producerId");
        String b = batches.get(2).get("producerId");
        assertThat(a).isNotEqualTo(b);
        assertThat(batches).extracting(x -> x.get("producerId"))
                .containsExactly(a, a, b, a, a, b, a, a, b, b);
        // Transaction protocol v2: the coordinator bumps the epoch at each EndTxn and writes the markers
        // with the bumped epoch; the next transaction's batches carry it.
        assertThat(batches).extracting(x -> x.get("producerEpoch"))
                .containsExactly("0", "1", "0", "1", "2", "1", "2", "3", "1", "2");

        List<String> records = new ArrayList<>();
        for (String line : dump.stdout().lines().filter(l -> l.startsWith("|")).toList()) {
            Matcher m = RECORD.matcher(line);
            assertThat(m.matches()).as(line).isTrue();
            records.add(m.group(1) + " " + (m.group(2) != null ? m.group(2) + " epoch " + m.group(3)
                    : m.group(5)));
        }
        assertThat(records).containsExactly("0 r0", "1 r1", "2 r2", "3 COMMIT epoch 0", "4 b0", "5 a0", "6 a1",
                "7 ABORT epoch 0", "8 COMMIT epoch 0", "9 c0", "10 COMMIT epoch 0", "11 b1", "12 ABORT epoch 0");
        assertThat(dump.stdout()).doesNotContain("invalid bytes");
        assertThat(dump.stderr()).isEmpty();
    }

    @Test
    void txnIndexHoldsEachAbortedTransactionWithTheLastStableOffsetAtItsEnd() throws Exception {
        KafkaTool.Output log = KafkaTool.run(DumpLogSegments::main, "--files", segment.toString());
        List<Map<String, String>> batches = log.stdout().lines().filter(l -> l.startsWith("baseOffset:"))
                .map(TransactionalDumpLogSegmentsTest::fields).toList();
        String a = batches.get(0).get("producerId");
        String b = batches.get(2).get("producerId");
        Path txnIndex = sibling(".txnindex");
        assertThat(txnIndex).exists();

        KafkaTool.Output dump = KafkaTool.run(DumpLogSegments::main, "--files", txnIndex.toString());

        // A's abort (5-7) completed while B's transaction was open from 4: last stable offset 4.
        assertThat(dump.stdout().lines().filter(l -> l.startsWith("version:"))).containsExactly(
                "version: 0 producerId: " + a + " firstOffset: 5 lastOffset: 7 lastStableOffset: 4",
                "version: 0 producerId: " + b + " firstOffset: 11 lastOffset: 12 lastStableOffset: 13");
        assertThat(dump.stderr()).isEmpty();
    }

    @Test
    void transactionLogDecoderReadsEveryCoordinatorRecordInOrder() throws Exception {
        Path stateSegment = SegmentFile.onlyLogSegment(broker.partitionDir("__transaction_state", 0));
        KafkaTool.Output dump = KafkaTool.run(DumpLogSegments::main,
                "--files", stateSegment.toString(), "--transaction-log-decoder");

        assertThat(dump.stdout()).doesNotContain("Error at offset", "Unknown record type", "invalid bytes",
                "Failed to decode");
        assertThat(dump.stdout().lines().filter(l -> l.startsWith("baseOffset:")).map(TransactionalDumpLogSegmentsTest::fields))
                .extracting(f -> f.get("isvalid")).isNotEmpty().containsOnly("true");
        Map<String, List<String>> transitions = new HashMap<>();
        for (String line : dump.stdout().lines().filter(l -> l.startsWith("|")).toList()) {
            Matcher m = RECORD.matcher(line);
            assertThat(m.matches()).as(line).isTrue();
            JsonNode key = JSON.readTree(m.group(4));
            JsonNode value = JSON.readTree(m.group(5)).get("data");
            StringBuilder partitions = new StringBuilder();
            for (JsonNode tp : value.path("transactionPartitions")) {
                partitions.append(tp.get("topic").asText()).append(tp.get("partitionIds"));
            }
            transitions.computeIfAbsent(key.get("data").get("transactionalId").asText(), k -> new ArrayList<>())
                    .add(value.get("transactionStatus").asText() + " epoch " + value.get("producerEpoch").asInt()
                            + " " + partitions);
        }

        String p = TOPIC + "[0]";
        assertThat(transitions.get("dump-a")).containsExactly("Empty epoch 0 ", "Ongoing epoch 0 " + p,
                "PrepareCommit epoch 1 " + p, "CompleteCommit epoch 1 ", "Ongoing epoch 1 " + p,
                "PrepareAbort epoch 2 " + p, "CompleteAbort epoch 2 ", "Ongoing epoch 2 " + p,
                "PrepareCommit epoch 3 " + p, "CompleteCommit epoch 3 ");
        assertThat(transitions.get("dump-b")).containsExactly("Empty epoch 0 ", "Ongoing epoch 0 " + p,
                "PrepareCommit epoch 1 " + p, "CompleteCommit epoch 1 ", "Ongoing epoch 1 " + p,
                "PrepareAbort epoch 2 " + p, "CompleteAbort epoch 2 ");
        assertThat(transitions).containsOnlyKeys("dump-a", "dump-b");
    }

    /** Waits until the marker at this offset is written (the coordinator writes it after answering EndTxn). */
    private void awaitMarkers(long markerOffset) throws InterruptedException {
        Clients.awaitHighWatermarks(broker, TOPIC, List.of(markerOffset + 1));
    }

    private static void send(KafkaProducer<String, String> producer, String... values) {
        for (String v : values) {
            producer.send(new ProducerRecord<>(TOPIC, 0, "k", v));
        }
    }

    private static Map<String, String> fields(String line) {
        Map<String, String> fields = new HashMap<>();
        Matcher m = FIELD.matcher(line);
        while (m.find()) {
            fields.putIfAbsent(m.group(1), m.group(2));
        }
        return fields;
    }

    private Path sibling(String suffix) {
        String name = segment.getFileName().toString();
        return segment.resolveSibling(name.substring(0, name.length() - ".log".length()) + suffix);
    }
}
