package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.compat.OdradekBroker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.zip.CRC32;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kcat 1.7 / librdkafka 2.0 producing and consuming without a group. librdkafka negotiates older versions
 * than the Java client (Produce v7, Fetch v11, Metadata v4, ListOffsets v2), so this covers the low ends of
 * our version ranges.
 */
@ExtendWith(ExternalClients.class)
class KcatTest {
    private static final String FORMAT = "%k=%s %p %o\\n";

    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withDefaults();

    private final Kcat kcat = new Kcat(broker);

    @Test
    void keyedMessagesComeBackOnKafkasMurmur2PartitionsInOrder() throws Exception {
        broker.createTopic("kcat-keyed", 3);
        List<String> keys = IntStream.range(0, 12).mapToObj(i -> "key-" + (i % 5)).toList();
        List<String> input = IntStream.range(0, keys.size()).mapToObj(i -> keys.get(i) + ":value-" + i).toList();

        kcat.produce("kcat-keyed", input, "-K:", "-X", "partitioner=murmur2_random");

        assertThat(kcat.consumeAll("kcat-keyed", FORMAT))
                .containsExactlyInAnyOrderElementsOf(expectedLines(keys, k -> murmur2(k, 3)));
    }

    @Test
    void defaultPartitionerSpreadsKeysByCrc32() throws Exception {
        broker.createTopic("kcat-crc32", 4);
        List<String> keys = IntStream.range(0, 16).mapToObj(i -> "k" + (i % 7)).toList();
        List<String> input = IntStream.range(0, keys.size()).mapToObj(i -> keys.get(i) + ":value-" + i).toList();

        kcat.produce("kcat-crc32", input, "-K:"); // consistent_random: CRC32(key) % partitions

        assertThat(kcat.consumeAll("kcat-crc32", FORMAT))
                .containsExactlyInAnyOrderElementsOf(expectedLines(keys, k -> crc32(k, 4)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void compressedBatchesAreStoredAsSentAndReadBack(String codec) throws Exception {
        String topic = "kcat-" + codec;
        broker.createTopic(topic, 1);
        // Repetitive values: librdkafka sends a batch uncompressed when compressing would not shrink it.
        List<String> input = IntStream.range(0, 20)
                .mapToObj(i -> "k" + i + ":v" + i + "-" + "compressible ".repeat(20)).toList();

        Subprocess.Result produced = kcat.produce(topic, input, "-K:", "-z", codec, "-H", "trace=t-" + codec,
                "-H", "source=kcat");

        List<String> expected = IntStream.range(0, 20)
                .mapToObj(i -> "k" + i + "=v" + i + "-" + "compressible ".repeat(20)
                        + " [trace=t-" + codec + ",source=kcat] 0 " + i)
                .toList();
        assertThat(kcat.consumeAll(topic, "%k=%s [%h] %p %o\\n")).containsExactlyElementsOf(expected);
        assertThat(StoredBatches.codecs(broker.partitionDir(topic, 0)))
                .as("codecs of the stored batches; librdkafka's notes: %s; requests: %s",
                        Kcat.compressionNotes(produced), Kcat.requestsSent(produced))
                .isNotEmpty().containsOnly(codec);
    }

    @Test
    void metadataListsTheBrokerTopicAndPartitions() throws Exception {
        broker.createTopic("kcat-meta", 4);

        List<String> lines = kcat.metadata("kcat-meta");

        assertThat(lines).contains(
                "  broker 1 at " + broker.bootstrap() + " (controller)",
                "  topic \"kcat-meta\" with 4 partitions:",
                "    partition 0, leader 1, replicas: 1, isrs: 1",
                "    partition 1, leader 1, replicas: 1, isrs: 1",
                "    partition 2, leader 1, replicas: 1, isrs: 1",
                "    partition 3, leader 1, replicas: 1, isrs: 1");
    }

    /** "key=value-i partition offset" for each message i, offsets counted per partition in send order. */
    private static List<String> expectedLines(List<String> keys, Function<String, Integer> partitionOf) {
        Map<Integer, Integer> next = new HashMap<>();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            int p = partitionOf.apply(keys.get(i));
            int offset = next.merge(p, 1, Integer::sum) - 1;
            lines.add(keys.get(i) + "=value-" + i + " " + p + " " + offset);
        }
        return lines;
    }

    /** Kafka's (and librdkafka's murmur2_random) partition for a key. */
    static int murmur2(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /** librdkafka's consistent_random partition for a key: CRC32 of its bytes, modulo the partition count. */
    private static int crc32(String key, int partitions) {
        CRC32 crc = new CRC32();
        crc.update(key.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % partitions);
    }
}
