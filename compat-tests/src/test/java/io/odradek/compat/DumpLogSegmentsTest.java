package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.tools.DumpLogSegments;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Kafka's own kafka-dump-log reads the segments Odradek writes and finds them valid. */
class DumpLogSegmentsTest {
    private static final String TOPIC = "dumped";
    private static final int RECORDS_PER_BATCH = 50;
    private static final Pattern FIELD = Pattern.compile("(\\w+): (\\S+)");
    private static final Pattern RECORD = Pattern.compile("^\\| offset: (\\d+) .* key: (\\S+) payload: (\\S+)$");

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withDefaults();

    /** The batches written, as "baseOffset-lastOffset count sequences codec". */
    private final List<String> expectedBatches = new ArrayList<>();
    /** Every record written, as "offset key value". */
    private final List<String> expectedRecords = new ArrayList<>();
    private Path segment;

    @BeforeEach
    void produceBatchesWithEachCompressionAndStop() throws Exception {
        broker.createTopic(TOPIC, 1);
        produce("none", 6, 120); // enough bytes for several offset-index entries
        produce("gzip", 2, 40);
        produce("snappy", 2, 40);
        produce("lz4", 2, 40);
        produce("zstd", 2, 40);
        broker.closeClients();
        broker.stop();
        segment = SegmentFile.onlyLogSegment(broker.partitionDir(TOPIC, 0));
    }

    @Test
    void everyBatchIsPrintedValidWithTheOffsetsCountsAndCodecsProduced() throws Exception {
        KafkaTool.Output dump = KafkaTool.run(DumpLogSegments::main,
                "--files", segment.toString(), "--deep-iteration", "--print-data-log");

        List<Map<String, String>> batches = dump.stdout().lines().filter(l -> l.startsWith("baseOffset:"))
                .map(DumpLogSegmentsTest::fields).toList();
        assertThat(batches).extracting(DumpLogSegmentsTest::describeBatch).containsExactlyElementsOf(expectedBatches);
        assertThat(batches).extracting(b -> b.get("isvalid")).containsOnly("true");
        assertThat(batches).extracting(b -> b.get("magic")).containsOnly("2");
        assertThat(batches).extracting(b -> b.get("isTransactional") + "/" + b.get("isControl"))
                .containsOnly("false/false");
        assertThat(batches).extracting(b -> b.get("partitionLeaderEpoch")).containsOnly("0");

        List<String> records = dump.stdout().lines().filter(l -> l.startsWith("|")).map(l -> {
            Matcher m = RECORD.matcher(l);
            return m.matches() ? m.group(1) + " " + m.group(2) + " " + m.group(3) : "unparsed: " + l;
        }).toList();
        assertThat(records).containsExactlyElementsOf(expectedRecords);
        assertThat(dump.stdout()).doesNotContain("invalid bytes");
        assertThat(dump.stderr()).isEmpty(); // no non-consecutive offsets
    }

    @Test
    void offsetIndexPassesItsSanityCheckAndPointsAtBatchStarts() throws Exception {
        Path index = sibling(".index");
        KafkaTool.Output sanity = KafkaTool.run(DumpLogSegments::main,
                "--files", index.toString(), "--index-sanity-check");
        assertThat(sanity.stdout()).contains(index + " passed sanity check.");

        KafkaTool.Output entries = KafkaTool.run(DumpLogSegments::main, "--files", index.toString());
        KafkaTool.Output log = KafkaTool.run(DumpLogSegments::main, "--files", segment.toString());
        List<String> batchEnds = log.stdout().lines().filter(l -> l.startsWith("baseOffset:")).map(DumpLogSegmentsTest::fields)
                .map(b -> "offset: " + b.get("lastOffset") + " position: " + b.get("position")).toList();
        List<String> indexed = entries.stdout().lines().filter(l -> l.startsWith("offset:")).toList();
        assertThat(indexed).isNotEmpty();
        assertThat(batchEnds).containsAll(indexed);
        assertThat(entries.stderr()).isEmpty(); // no "Mismatches in"
    }

    @Test
    void timeIndexAgreesWithTheLog() throws Exception {
        Path timeIndex = sibling(".timeindex");
        KafkaTool.Output sanity = KafkaTool.run(DumpLogSegments::main,
                "--files", timeIndex.toString(), "--index-sanity-check");
        assertThat(sanity.stdout()).contains(timeIndex + " passed sanity check.");

        KafkaTool.Output entries = KafkaTool.run(DumpLogSegments::main, "--files", timeIndex.toString());
        assertThat(entries.stdout().lines().filter(l -> l.startsWith("timestamp:"))).isNotEmpty();
        assertThat(entries.stderr()).isEmpty(); // no mismatched, out-of-order or unknown offsets
    }

    /** One producer per codec, each flush one batch (a long linger keeps the producer from splitting it). */
    private void produce(String codec, int batches, int valueSize) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ProducerConfig.COMPRESSION_TYPE_CONFIG, codec,
                ProducerConfig.LINGER_MS_CONFIG, 60_000),
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.StringSerializer())) {
            for (int b = 0; b < batches; b++) {
                List<java.util.concurrent.Future<RecordMetadata>> acks = new ArrayList<>();
                List<String> keysAndValues = new ArrayList<>();
                for (int r = 0; r < RECORDS_PER_BATCH; r++) {
                    String key = codec + "-" + b + "-" + r;
                    String value = (key + "-").repeat(valueSize / (key.length() + 1) + 1).substring(0, valueSize);
                    keysAndValues.add(key + " " + value);
                    acks.add(producer.send(new ProducerRecord<>(TOPIC, 0, key, value)));
                }
                producer.flush();
                long base = acks.get(0).get().offset();
                for (int r = 0; r < RECORDS_PER_BATCH; r++) {
                    assertThat(acks.get(r).get().offset()).isEqualTo(base + r);
                    expectedRecords.add((base + r) + " " + keysAndValues.get(r));
                }
                int firstSequence = b * RECORDS_PER_BATCH;
                expectedBatches.add(base + "-" + (base + RECORDS_PER_BATCH - 1) + " count " + RECORDS_PER_BATCH
                        + " sequences " + firstSequence + "-" + (firstSequence + RECORDS_PER_BATCH - 1) + " " + codec);
            }
        }
    }

    private static String describeBatch(Map<String, String> b) {
        return b.get("baseOffset") + "-" + b.get("lastOffset") + " count " + b.get("count") + " sequences "
                + b.get("baseSequence") + "-" + b.get("lastSequence") + " " + b.get("compresscodec");
    }

    private static Map<String, String> fields(String line) {
        Map<String, String> fields = new HashMap<>();
        Matcher m = FIELD.matcher(line);
        while (m.find()) {
            fields.put(m.group(1), m.group(2));
        }
        return fields;
    }

    private Path sibling(String suffix) {
        String name = segment.getFileName().toString();
        return segment.resolveSibling(name.substring(0, name.length() - ".log".length()) + suffix);
    }
}
