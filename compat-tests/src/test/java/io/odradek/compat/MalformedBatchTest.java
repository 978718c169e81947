package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.GZIPOutputStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.message.ProduceResponseData.BatchIndexAndErrorMessage;
import org.apache.kafka.common.message.ProduceResponseData.PartitionProduceResponse;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.tools.DumpLogSegments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Batches Kafka refuses although their CRC is right, sent on a raw socket: each is refused with Kafka's
 * error (record_errors where Kafka gives them), and afterwards the partition is as if they never came:
 * the next good batch lands at the next offset, a Kafka consumer reads everything, and Kafka's
 * {@code kafka-dump-log --deep-iteration} finds every stored batch valid.
 */
class MalformedBatchTest {
    private static final String TOPIC = "malformed";
    private static final long HOUR = 3_600_000L;

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withDefaults();

    @Test
    void everyMalformedBatchIsRefusedAndReadersStillReadThePartition() throws Exception {
        broker.createTopic(TOPIC, 1);
        long now = System.currentTimeMillis();
        try (RawConnection client = new RawConnection(broker.port())) {
            assertThat(client.produce(TOPIC, 0, batch(now, 0, 1, record(0, "k", "good-0"))).baseOffset()).isZero();

            refused(client, Errors.INVALID_RECORD, batch(now, 0, Integer.MAX_VALUE, record(0, "k", "one")));
            refused(client, Errors.INVALID_RECORD, batch(now, 0, 3, record(0, "k", "a"), record(1, "k", "b")));
            refused(client, Errors.INVALID_RECORD, batch(now, 0, 1, body(0, varint(-2), field("v"), varint(0))));
            refused(client, Errors.INVALID_RECORD, batch(now, 0, 1, body(0, field("k"), varint(99), bytes("v"), varint(0))));
            refused(client, Errors.INVALID_RECORD, batch(now, 0, 3, bytes("this is not a record at all, not even close")));
            refused(client, Errors.INVALID_RECORD, batch(now, 7, 1, record(0, "k", "codec 7")));
            refused(client, Errors.INVALID_RECORD, batch(now, 1, 1, record(0, "k", "gzip flag, plain payload")));
            refused(client, Errors.INVALID_RECORD, batch(now, 0x20, 1, record(0, "k", "control from a client")));
            refused(client, Errors.INVALID_RECORD, batch(now, 0, 2, record(0, "k", "a"), record(5, "k", "b")));
            refused(client, Errors.INVALID_RECORD, batch(now, 1, Integer.MAX_VALUE, gzip(record(0, "k", "zipped"))));
            refused(client, Errors.INVALID_RECORD, batch(now, 1, 1, gzip(body(0, varint(-3), field("v"), varint(0)))));

            PartitionProduceResponse late = refused(client, Errors.INVALID_TIMESTAMP,
                    batch(now + 2 * HOUR, 0, 1, record(0, "k", "from the future")));
            assertThat(late.recordErrors()).extracting(BatchIndexAndErrorMessage::batchIndex).containsExactly(0);
            assertThat(late.recordErrors().get(0).batchIndexErrorMessage())
                    .startsWith("Timestamp " + (now + 2 * HOUR) + " of message with offset 0 is out of range.");

            assertThat(client.produce(TOPIC, 0, batch(now, 0, 1, record(0, "k", "good-1"))).baseOffset()).isEqualTo(1L);
        }

        List<ConsumerRecord<String, String>> read = Clients.readAll(Clients.consumer(broker, Map.of()),
                Clients.partitions(TOPIC, 1), Duration.ofSeconds(30));
        assertThat(read).extracting(r -> r.offset() + ":" + r.value()).containsExactly("0:good-0", "1:good-1");

        broker.closeClients();
        broker.stop();
        KafkaTool.Output dump = KafkaTool.run(DumpLogSegments::main, "--files",
                SegmentFile.onlyLogSegment(broker.partitionDir(TOPIC, 0)).toString(), "--deep-iteration",
                "--print-data-log");
        List<String> batches = dump.stdout().lines().filter(l -> l.startsWith("baseOffset:")).toList();
        assertThat(batches).hasSize(2).allSatisfy(b -> assertThat(b).contains("isvalid: true"));
        assertThat(dump.stdout().lines().filter(l -> l.startsWith("|")).map(l -> l.replaceAll(".*payload: ", "")))
                .containsExactly("good-0", "good-1");
        assertThat(dump.stderr()).isEmpty();
    }

    @Test
    void compactedTopicRefusesKeylessRecordsListingEachInRecordErrors() throws Exception {
        broker.createTopic("table", 1, Map.of("cleanup.policy", "compact"));
        long now = System.currentTimeMillis();
        try (RawConnection client = new RawConnection(broker.port())) {
            PartitionProduceResponse r = refused(client, Errors.INVALID_RECORD, batch(now, 0, 3,
                    record(0, "k", "keyed"), record(1, null, "keyless"), record(2, null, "keyless too")), "table");
            String noKey = "Compacted topic cannot accept message without key in topic partition table-0.";
            assertThat(r.recordErrors()).extracting(e -> e.batchIndex() + ":" + e.batchIndexErrorMessage())
                    .containsExactly("1:" + noKey, "2:" + noKey);
            assertThat(r.errorMessage()).startsWith("One or more records have been rejected due to 2 record errors");

            PartitionProduceResponse ok = client.produce("table", 0, batch(now, 0, 1, record(0, "k", "keyed")));
            assertThat(Errors.forCode(ok.errorCode())).isEqualTo(Errors.NONE);
            assertThat(ok.baseOffset()).isZero();
        }
    }

    private static PartitionProduceResponse refused(RawConnection client, Errors expected, ByteBuffer batch)
            throws IOException {
        PartitionProduceResponse r = refused(client, expected, batch, TOPIC);
        if (expected != Errors.INVALID_TIMESTAMP) {
            assertThat(r.recordErrors()).as("framing errors name no record, as in Kafka").isEmpty();
        }
        return r;
    }

    private static PartitionProduceResponse refused(RawConnection client, Errors expected, ByteBuffer batch, String topic)
            throws IOException {
        PartitionProduceResponse r = client.produce(topic, 0, batch);
        assertThat(Errors.forCode(r.errorCode())).as(String.valueOf(r.errorMessage())).isEqualTo(expected);
        assertThat(r.baseOffset()).isEqualTo(-1L);
        assertThat(r.errorMessage()).isNotBlank();
        return r;
    }

    // ------------------------------------------------------------------ hand-built batches with a valid CRC

    /** A v2 batch whose header claims {@code count} records, with {@code attributes}, around {@code records}. */
    private static ByteBuffer batch(long timestamp, int attributes, int count, byte[]... records) {
        ByteArrayOutputStream section = new ByteArrayOutputStream();
        for (byte[] r : records) {
            section.writeBytes(r);
        }
        byte[] payload = section.toByteArray();
        ByteBuffer b = ByteBuffer.allocate(61 + payload.length);
        b.putLong(0L).putInt(49 + payload.length).putInt(-1).put((byte) 2).putInt(0).putShort((short) attributes)
                .putInt(count - 1).putLong(timestamp).putLong(timestamp).putLong(-1L).putShort((short) -1).putInt(-1)
                .putInt(count).put(payload).flip();
        CRC32C crc = new CRC32C();
        crc.update(b.duplicate().position(21));
        return b.putInt(17, (int) crc.getValue());
    }

    /** A well-formed record: length, attributes 0, timestamp delta 0, offset delta, key, value, no headers. */
    private static byte[] record(int offsetDelta, String key, String value) {
        return body(offsetDelta, field(key), field(value), varint(0));
    }

    /** A record made of the given fields after attributes, timestamp delta and offset delta; length prefixed. */
    private static byte[] body(int offsetDelta, byte[]... fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(0);
        out.writeBytes(varint(offsetDelta));
        for (byte[] f : fields) {
            out.writeBytes(f);
        }
        ByteArrayOutputStream framed = new ByteArrayOutputStream();
        framed.writeBytes(varint(out.size()));
        framed.writeBytes(out.toByteArray());
        return framed.toByteArray();
    }

    private static byte[] field(String s) {
        if (s == null) {
            return varint(-1);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(varint(s.length()));
        out.writeBytes(bytes(s));
        return out.toByteArray();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] varint(int value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int v = (value << 1) ^ (value >> 31);
        while ((v & 0xffffff80) != 0) {
            out.write((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write(v);
        return out.toByteArray();
    }

    private static byte[] gzip(byte[]... records) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            for (byte[] r : records) {
                z.write(r);
            }
        }
        return out.toByteArray();
    }
}
