package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.tools.DumpLogSegments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A compacted topic written in transactions, half of them aborted: the cleaner (a pass every 15 s, Kafka's
 * log.cleaner.backoff.ms) removes the aborted records from the segments it cleans, keeps the latest committed
 * value of each key, and leaves every batch valid for Kafka's DumpLogSegments; read_committed never sees an
 * aborted value, before or after cleaning.
 */
class CompactedTransactionsTest {
    private static final String TOPIC = "txn-compacted";

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of("transaction.state.log.num.partitions", "1"));

    @Test
    void cleanerDropsAbortedRecordsAndKeepsTheLatestCommittedValueOfEachKey() throws Exception {
        broker.createTopic(TOPIC, 1, Map.of("cleanup.policy", "compact", "segment.bytes", "1024",
                "min.cleanable.dirty.ratio", "0.01"));
        KafkaProducer<String, String> producer = Clients.transactionalProducer(broker, "compacting", Map.of());
        Map<String, String> latestCommitted = new TreeMap<>();
        Set<String> abortedValues = new java.util.HashSet<>();
        for (int t = 0; t < 30; t++) {
            boolean commit = t % 2 == 0;
            producer.beginTransaction();
            Map<String, String> values = new HashMap<>();
            for (String key : List.of("a", "b", "c")) {
                String value = key + "-" + t + "-" + (commit ? "committed" : "aborted") + "-" + "x".repeat(40);
                producer.send(new ProducerRecord<>(TOPIC, 0, key, value));
                values.put(key, value);
            }
            if (commit) {
                producer.commitTransaction();
                latestCommitted.putAll(values);
            } else {
                producer.flush(); // written, then aborted
                producer.abortTransaction();
                abortedValues.addAll(values.values());
            }
        }
        Clients.awaitNoOpenTransactions(broker, TOPIC, 1);
        assertThat(values("read_uncommitted")).as("before cleaning").containsAll(abortedValues);

        // Wait for a cleaner pass to rewrite the inactive segments: aborted records are left only in the
        // active segment, which the cleaner never touches.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<ConsumerRecord<String, String>> uncommitted = read("read_uncommitted");
        while (abortedBefore(uncommitted, activeSegmentBase(), abortedValues) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(1000);
            uncommitted = read("read_uncommitted");
        }
        assertThat(abortedBefore(uncommitted, activeSegmentBase(), abortedValues))
                .as("aborted records left in cleaned segments (active segment from %d)", activeSegmentBase())
                .isZero();

        List<ConsumerRecord<String, String>> committed = read("read_committed");
        assertThat(committed).extracting(ConsumerRecord::value).doesNotContainAnyElementsOf(abortedValues);
        Map<String, String> latest = new TreeMap<>();
        committed.forEach(r -> latest.put(r.key(), r.value()));
        assertThat(latest).isEqualTo(latestCommitted);
        assertThat(committed.size()).as("older values of each key compacted away").isLessThan(45);

        broker.closeClients();
        broker.stop();
        for (Path segment : segments()) {
            KafkaTool.Output dump = KafkaTool.run(DumpLogSegments::main, "--files", segment.toString(),
                    "--deep-iteration");
            List<String> validity = dump.stdout().lines().filter(l -> l.startsWith("baseOffset:"))
                    .map(l -> l.replaceAll(".* isvalid: (\\w+).*", "$1")).distinct().toList();
            assertThat(validity).as("%s:\n%s", segment.getFileName(), dump.stdout()).containsOnly("true");
        }
    }

    private static long abortedBefore(List<ConsumerRecord<String, String>> records, long activeBase,
            Set<String> aborted) {
        return records.stream().filter(r -> r.offset() < activeBase && aborted.contains(r.value())).count();
    }

    private long activeSegmentBase() throws Exception {
        List<Path> segments = segments();
        String last = segments.get(segments.size() - 1).getFileName().toString();
        return Long.parseLong(last.substring(0, last.length() - ".log".length()));
    }

    private List<Path> segments() throws Exception {
        try (Stream<Path> files = Files.list(broker.partitionDir(TOPIC, 0))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList();
        }
    }

    private List<ConsumerRecord<String, String>> read(String isolation) {
        return Clients.readAtIsolation(broker, TOPIC, 1, isolation);
    }

    private List<String> values(String isolation) {
        return read(isolation).stream().map(ConsumerRecord::value).collect(Collectors.toCollection(ArrayList::new));
    }
}
