package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.compat.OdradekBroker;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kcat (librdkafka 2.0) as a client of a broker too old to answer ApiVersions: with
 * {@code api.version.request=false} librdkafka never asks, and speaks the versions of
 * {@code broker.version.fallback}. 0.10.0.0: Produce v2 with magic 1 messages (timestamps), Fetch v2
 * answered in magic 1, Metadata v0, ListOffsets v0. 0.9.0.1: Produce v1 and Fetch v1 with magic 0 messages.
 * Compressed, each produce carries a wrapper message holding the compressed inner message set (for LZ4 at
 * magic 0 with Kafka 0.9's broken frame checksum).
 */
@ExtendWith(ExternalClients.class)
class KcatOldProtocolTest {
    private static final String FORMAT = "%p@%o %k=%s\\n";

    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withDefaults();

    private final Kcat kcat = new Kcat(broker);

    @ParameterizedTest(name = "broker.version.fallback {0}, compression {1}")
    @CsvSource({"0.10.0.0, none", "0.10.0.0, gzip", "0.10.0.0, snappy", "0.10.0.0, lz4",
        "0.9.0.1, none", "0.9.0.1, gzip", "0.9.0.1, snappy", "0.9.0.1, lz4"})
    void messagesProducedAndConsumedWithoutApiVersionsComeBackExactly(String fallback, String codec)
            throws Exception {
        String topic = "kcat-old-" + fallback.replace(".", "") + "-" + codec;
        broker.createTopic(topic, 1);
        String[] old = {"-X", "api.version.request=false", "-X", "broker.version.fallback=" + fallback};
        List<String> input = IntStream.range(0, 10)
                .mapToObj(i -> "key-" + i + ":value-" + i + "-" + "compressible ".repeat(10)).toList();

        Subprocess.Result produced = kcat.produce(topic, input, concat(old, "-K:", "-z", codec));
        List<String> consumed = kcat.consumeAll(topic, FORMAT, old);

        assertThat(consumed).as("requests sent: produce %s", Kcat.requestsSent(produced)).containsExactlyElementsOf(
                IntStream.range(0, 10).mapToObj(i -> "0@" + i + " key-" + i + "=value-" + i + "-"
                        + "compressible ".repeat(10)).toList());
        assertThat(Kcat.requestsSent(produced)).as("the fallback's versions, no ApiVersions")
                .doesNotContain("ApiVersion v0", "ApiVersion v3")
                .contains(fallback.equals("0.9.0.1") ? "Produce v1" : "Produce v2");
        assertThat(StoredBatches.codecs(broker.partitionDir(topic, 0))).isNotEmpty()
                .as("stored in v2 batches compressed as produced").containsOnly(codec);
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
