package io.odradek.compat.external;

import com.fasterxml.jackson.databind.JsonNode;
import io.odradek.compat.OdradekBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sarama 1.22 (Debian's golang-github-shopify-sarama-dev) against a test broker: runs
 * {@code compat-tests/target/sarama-client}, which setup.sh builds from {@code compat-tests/clients/go}, with its
 * options as one JSON argument, and reads back the JSON events it prints, one per line (Sarama's log on stderr).
 * Sarama never asks the broker for its versions: it speaks the versions of the Kafka release it is configured
 * for ({@code Config.Version}), V0_8_2_0 unless told.
 */
final class Sarama {
    /** Sarama's default {@code Config.Version}: V0_8_2_0, its oldest. */
    static final String DEFAULT_VERSION = "";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final OdradekBroker broker;
    private final String version;

    /** @param version a Kafka version as Sarama parses it ("2.1.0"), or {@link #DEFAULT_VERSION} */
    Sarama(OdradekBroker broker, String version) {
        this.broker = broker;
        this.version = version;
    }

    /** What the program printed, and how it ended. */
    record Run(Subprocess.Result process, List<JsonNode> events) {
        List<JsonNode> events(String type) {
            return ClientOutput.ofType(events, type);
        }
    }

    /**
     * A SyncProducer sends keyed messages ({@code key -> value}, in order) in one SendMessages, compressed with
     * this codec (none, gzip, snappy, lz4).
     */
    Run produce(String topic, String compression, Map<String, String> messages) throws Exception {
        List<Map<String, String>> list = new ArrayList<>();
        messages.forEach((k, v) -> list.add(Map.of("key", k, "value", v)));
        return run("produce", Map.of("topic", topic, "compression", compression, "messages", list));
    }

    /** Partition consumers read each partition from the oldest offset to the end ListOffsets gave. */
    Run consume(String topic, int partitions) throws Exception {
        return run("consume", Map.of("topic", topic, "partitions", partitions));
    }

    /** A ConsumerGroup member reads until it has {@code expect} messages, marking each, and closes (commits). */
    Run group(String topic, String group, int expect) throws Exception {
        return run("group", Map.of("topic", topic, "group", group, "expect", expect));
    }

    private Run run(String mode, Map<String, Object> options) throws Exception {
        Map<String, Object> all = new HashMap<>(options);
        all.put("mode", mode);
        all.put("brokers", List.of(broker.bootstrap()));
        all.put("version", version);
        Path program = ExternalClients.outputDir().getParent().resolve("sarama-client");
        String name = "sarama-" + RUNS.incrementAndGet() + "-" + mode + "-" + options.get("topic");
        Subprocess.Result r = Subprocess.run(List.of(program.toString(), ClientOutput.json(all)), null,
                Map.of(), TIMEOUT, ExternalClients.outputDir().resolve(name));
        Run run = new Run(r, ClientOutput.events(r));
        if (r.timedOut() || r.exitCode() != 0) {
            throw new AssertionError("sarama-client failed (Sarama version "
                    + (version.isEmpty() ? "default" : version) + ")\n" + r.describe());
        }
        return run;
    }

    /**
     * Sarama's default HashPartitioner: FNV-1a (32 bits) of the key, as a signed int modulo the partition
     * count, negated when negative (not Kafka's murmur2, and not Java's abs either).
     */
    static int partition(String key, int partitions) {
        int hash = 0x811c9dc5;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x01000193;
        }
        int p = hash % partitions;
        return p < 0 ? -p : p;
    }
}
