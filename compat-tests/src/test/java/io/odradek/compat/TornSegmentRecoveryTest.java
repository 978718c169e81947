package io.odradek.compat;

import static io.odradek.compat.OdradekBroker.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A damaged segment (cut mid-batch, followed by junk, or with a bad checksum after a crash) is repaired on
 * restart: every complete batch before the damage is still readable, the log ends right after it, and
 * producing carries on. As in Kafka, checksums are verified when the broker did not shut down cleanly;
 * after a clean shutdown the files are trusted except for their framing.
 */
class TornSegmentRecoveryTest {
    private static final String TOPIC = "torn";
    private static final int BATCHES = 20;
    private static final int RECORDS_PER_BATCH = 10;
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withDefaults();

    @ParameterizedTest(name = "cut {0} bytes into the last batch")
    @ValueSource(ints = {5, 12, 40, -1}) // in the base offset, just after the length, in the header, mid-records
    void logCutInsideTheLastBatchKeepsEveryBatchBeforeIt(int cut) throws Exception {
        List<String> written = produceBatches();
        Path log = stopAndFindSegment(false);
        cutLastBatch(log, cut);

        broker.start();

        List<String> kept = written.subList(0, (BATCHES - 1) * RECORDS_PER_BATCH);
        assertRecoveredTo(kept);
    }

    @Test
    void logTornByACrashMidBatchKeepsEveryBatchBeforeIt() throws Exception {
        List<String> written = produceBatches();
        Path log = stopAndFindSegment(true);
        cutLastBatch(log, -1);

        broker.start();

        List<String> kept = written.subList(0, (BATCHES - 1) * RECORDS_PER_BATCH);
        assertRecoveredTo(kept);
    }

    /** Cuts the file {@code cut} bytes into its last batch (half way when negative). */
    private static void cutLastBatch(Path log, int cut) throws IOException {
        List<SegmentFile.Batch> batches = SegmentFile.batches(log);
        assertThat(batches).hasSize(BATCHES);
        SegmentFile.Batch last = batches.get(BATCHES - 1);
        long cutAt = last.position() + (cut < 0 ? last.size() / 2 : cut);
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
            ch.truncate(cutAt);
        }
    }

    static Stream<Arguments> junk() {
        byte[] random = new byte[137];
        new Random(7).nextBytes(random);
        return Stream.of(
                Arguments.of("random bytes", random),
                Arguments.of("zeros", new byte[4096]),
                Arguments.of("a length prefix larger than the file", ByteBuffer.allocate(12).putLong(200)
                        .putInt(1_000_000).array()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("junk")
    void junkAppendedAfterTheLastBatchIsDiscarded(String what, byte[] junk) throws Exception {
        List<String> written = produceBatches();
        Path log = stopAndFindSegment(false);
        Files.write(log, junk, StandardOpenOption.APPEND);

        broker.start();

        assertThat(logEndOffset()).isEqualTo(written.size());
        assertThat(readValues()).containsExactlyElementsOf(written);
        assertProducingContinuesAt(written);
    }

    @ParameterizedTest(name = "byte {0} of the batch flipped")
    @ValueSource(ints = {30, -1}) // in the CRC-covered header, in the records
    void lastBatchWithABadChecksumIsDiscardedAfterACrash(int at) throws Exception {
        List<String> written = produceBatches();
        Path log = stopAndFindSegment(true);
        flipByte(log, BATCHES - 1, at);

        broker.start();

        List<String> kept = written.subList(0, (BATCHES - 1) * RECORDS_PER_BATCH);
        assertRecoveredTo(kept);
    }

    @Test
    void batchWithABadChecksumMidSegmentCutsTheLogThereAfterACrash() throws Exception {
        List<String> written = produceBatches();
        Path log = stopAndFindSegment(true);
        flipByte(log, 10, -1);

        broker.start();

        // As Kafka's recovery does: the log is truncated at the first corrupt batch.
        List<String> kept = written.subList(0, 10 * RECORDS_PER_BATCH);
        assertRecoveredTo(kept);
    }

    /** Inverts one byte of a batch: {@code at} bytes into it, or 3 bytes before its end when negative. */
    private static void flipByte(Path log, int batchIndex, int at) throws IOException {
        SegmentFile.Batch batch = SegmentFile.batches(log).get(batchIndex);
        long position = batch.position() + (at < 0 ? batch.size() - 3 : at);
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, position);
            b.put(0, (byte) ~b.get(0));
            ch.write(b.flip(), position);
        }
    }

    /** Writes {@value BATCHES} batches of {@value RECORDS_PER_BATCH} records, one flush each; returns the values. */
    private List<String> produceBatches() throws Exception {
        broker.createTopic(TOPIC, 1);
        List<String> values = new ArrayList<>();
        // A long linger: a batch is sent only when flushed, so each flush writes exactly one batch.
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ProducerConfig.LINGER_MS_CONFIG, 60_000),
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.StringSerializer())) {
            for (int b = 0; b < BATCHES; b++) {
                for (int r = 0; r < RECORDS_PER_BATCH; r++) {
                    String value = "batch-" + b + "-record-" + r;
                    values.add(value);
                    producer.send(new ProducerRecord<>(TOPIC, 0, "k" + r, value));
                }
                producer.flush();
            }
        }
        return values;
    }

    private Path stopAndFindSegment(boolean crash) throws IOException {
        if (crash) {
            broker.stopAsIfCrashed();
        } else {
            broker.stop();
        }
        return SegmentFile.onlyLogSegment(broker.partitionDir(TOPIC, 0));
    }

    private long logEndOffset() {
        return await(broker.admin().listOffsets(Map.of(PARTITION, OffsetSpec.latest())).partitionResult(PARTITION))
                .offset();
    }

    private List<String> readValues() {
        List<ConsumerRecord<String, String>> records = Clients.readAll(Clients.consumer(broker, Map.of()),
                List.of(PARTITION), Duration.ofSeconds(30));
        return records.stream().map(ConsumerRecord::value).toList();
    }

    /** The log holds exactly {@code kept}, in order, ends right after it, and takes new records. */
    private void assertRecoveredTo(List<String> kept) throws Exception {
        assertThat(logEndOffset()).isEqualTo(kept.size());
        assertThat(readValues()).containsExactlyElementsOf(kept);
        assertProducingContinuesAt(kept);
    }

    private void assertProducingContinuesAt(List<String> before) throws Exception {
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of());
        long offset = producer.send(new ProducerRecord<>(TOPIC, 0, "k", "after-restart")).get().offset();
        assertThat(offset).isEqualTo(before.size());
        List<String> expected = new ArrayList<>(before);
        expected.add("after-restart");
        assertThat(readValues()).containsExactlyElementsOf(expected);
    }
}
