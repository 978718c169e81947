package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.compat.OdradekBroker;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kcat (librdkafka 2.0) told the broker is too old to ask: {@code api.version.request=false} with a
 * {@code broker.version.fallback}. For 0.9.0.1 librdkafka never sends ApiVersions and speaks Kafka 0.9's
 * protocol: Metadata v0, Produce v1 and Fetch v1 with magic 0 messages, ListOffsets v0; for 0.8.2.2 Produce v0
 * and Fetch v0. Compressed, each produce carries one wrapper message holding the compressed inner messages (LZ4
 * with Kafka 0.9's broken frame checksum). A fallback of 0.10.0.0 or later names a broker that has ApiVersions,
 * so librdkafka asks it anyway (by design: see rd_kafka_broker_connect_done) and negotiates as usual: it never
 * gets librdkafka to send magic 1; kafka-python and Sarama cover magic 1.
 */
@ExtendWith(ExternalClients.class)
class KcatOldProtocolTest {
    private static final String FORMAT = "%p@%o %k=%s\\n";

    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withConfig(Map.of("group.initial.rebalance.delay.ms", "0"));

    private final Kcat kcat = new Kcat(broker);

    @ParameterizedTest(name = "broker.version.fallback {0}, compression {1}")
    @CsvSource({"0.9.0.1, none", "0.9.0.1, gzip", "0.9.0.1, snappy", "0.9.0.1, lz4",
        "0.8.2.2, none", "0.8.2.2, gzip"})
    void magicZeroMessagesProducedAndConsumedWithoutApiVersionsComeBackExactly(String fallback, String codec)
            throws Exception {
        String topic = "kcat-old-" + fallback.replace(".", "") + "-" + codec;
        broker.createTopic(topic, 1);
        String[] old = {"-X", "api.version.request=false", "-X", "broker.version.fallback=" + fallback};

        Subprocess.Result produced = kcat.produce(topic, input(), concat(old, "-K:", "-z", codec));
        Subprocess.Result consumed = Kcat.succeed(kcat.run(List.of(concat(old, "-C", "-t", topic, "-e", "-o",
                "beginning", "-f", FORMAT)), null));

        assertThat(consumed.stdoutLines()).as("requests sent: %s", Kcat.requestsSent(consumed))
                .containsExactlyElementsOf(expected());
        String version = fallback.equals("0.9.0.1") ? " v1" : " v0";
        assertThat(Kcat.requestsSent(produced)).as("the fallback's versions, no ApiVersions")
                .containsExactly("Metadata v0", "Produce" + version);
        assertThat(Kcat.requestsSent(consumed)).containsExactly("Fetch" + version, "ListOffsets v0", "Metadata v0");
        assertThat(StoredBatches.codecs(broker.partitionDir(topic, 0))).isNotEmpty()
                .as("stored in v2 batches compressed as produced").containsOnly(codec);
    }

    @Test
    void aFallbackOfKafka0100StillAsksApiVersionsAndNegotiatesTheCurrentProtocol() throws Exception {
        String topic = "kcat-old-01000";
        broker.createTopic(topic, 1);
        String[] old = {"-X", "api.version.request=false", "-X", "broker.version.fallback=0.10.0.0"};

        Subprocess.Result produced = kcat.produce(topic, input(), concat(old, "-K:", "-z", "gzip"));
        Subprocess.Result consumed = Kcat.succeed(kcat.run(List.of(concat(old, "-C", "-t", topic, "-e", "-o",
                "beginning", "-f", FORMAT)), null));

        assertThat(consumed.stdoutLines()).containsExactlyElementsOf(expected());
        assertThat(Kcat.requestsSent(produced)).contains("ApiVersion v3", "Produce v7");
        assertThat(Kcat.requestsSent(consumed)).contains("ApiVersion v3", "Fetch v11");
    }

    @Test
    void aGroupOfKafka09ResumesFromTheOffsetsItCommitted() throws Exception {
        String topic = "kcat-old-group";
        broker.createTopic(topic, 2);
        String[] old = {"-X", "api.version.request=false", "-X", "broker.version.fallback=0.9.0.1"};
        Map<String, String> first = OldClientRecords.messages("", 0, 6);
        kcat.produce(topic, lines(first), concat(old, "-K:", "-X", "partitioner=murmur2_random"));
        List<String> firstLines = OldClientRecords.expected(first, k -> KcatTest.murmur2(k, 2), Map.of());

        // JoinGroup v0 (no rebalance timeout: the session timeout serves), SyncGroup v0, OffsetFetch v1,
        // OffsetCommit v2 as librdkafka speaks to Kafka 0.9.
        assertThat(OldClientRecords.sorted(kcat.groupConsume("kcat-old-g", topic, FORMAT, old)))
                .containsExactlyElementsOf(OldClientRecords.sorted(firstLines));
        Map<Integer, Long> firstEnds = OldClientRecords.ends(firstLines);
        assertThat(OldClientRecords.committed(broker, "kcat-old-g")).isEqualTo(firstEnds);

        Map<String, String> second = OldClientRecords.messages("", 6, 10);
        kcat.produce(topic, lines(second), concat(old, "-K:", "-X", "partitioner=murmur2_random"));
        List<String> secondLines = OldClientRecords.expected(second, k -> KcatTest.murmur2(k, 2), firstEnds);
        assertThat(OldClientRecords.sorted(kcat.groupConsume("kcat-old-g", topic, FORMAT, old)))
                .containsExactlyElementsOf(OldClientRecords.sorted(secondLines));
        assertThat(OldClientRecords.committed(broker, "kcat-old-g")).isEqualTo(OldClientRecords.ends(secondLines));
    }

    private static List<String> lines(Map<String, String> messages) {
        return messages.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).toList();
    }

    /** key-i:value-i lines, compressible (librdkafka sends a batch uncompressed when that would not shrink it). */
    private static List<String> input() {
        return IntStream.range(0, 10).mapToObj(i -> "key-" + i + ":value-" + i + "-" + "compressible ".repeat(10))
                .toList();
    }

    private static List<String> expected() {
        return IntStream.range(0, 10).mapToObj(i -> "0@" + i + " key-" + i + "=value-" + i + "-"
                + "compressible ".repeat(10)).toList();
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
