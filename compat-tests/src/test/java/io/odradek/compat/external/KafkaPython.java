package io.odradek.compat.external;

import com.fasterxml.jackson.databind.JsonNode;
import io.odradek.compat.OdradekBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * kafka-python 2.0.2 (Debian's python3-kafka) against a test broker: runs
 * {@code compat-tests/clients/python/kafka_python_client.py} with Debian's /usr/bin/python3, its options as one
 * JSON argument, and reads back the JSON events it prints, one per line. kafka-python's DEBUG log goes to the
 * script's stderr, kept under target/, and names every request it sends with its version
 * ({@code Request 7: FetchRequest_v3(...)}).
 */
final class KafkaPython {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern REQUEST = Pattern.compile("Request \\d+: (\\w+)Request_v(\\d+)\\(");
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final OdradekBroker broker;
    private final List<Integer> apiVersion; // null: kafka-python detects the broker's version

    /** @param apiVersion kafka-python's {@code api_version}, e.g. {@code List.of(0, 10, 1)}; null to detect */
    KafkaPython(OdradekBroker broker, List<Integer> apiVersion) {
        this.broker = broker;
        this.apiVersion = apiVersion;
    }

    /** What the script printed, and how it ended. */
    record Run(Subprocess.Result process, List<JsonNode> events) {
        List<JsonNode> events(String type) {
            return ClientOutput.ofType(events, type);
        }

        /** The API versions kafka-python used, by its class names: e.g. [Fetch v3, GroupCoordinator v0]. */
        TreeSet<String> requestsSent() {
            return ClientOutput.requestsSent(REQUEST, process.stderr());
        }

        String describe() {
            return "requests kafka-python sent: " + requestsSent() + "\n" + process.describe();
        }
    }

    /** A KafkaProducer sends keyed messages ({@code key -> value}, in order) with this compression, then flushes. */
    Run produce(String topic, String compression, Map<String, String> messages) throws Exception {
        List<Map<String, String>> list = new ArrayList<>();
        messages.forEach((k, v) -> list.add(Map.of("key", k, "value", v)));
        return run("produce", Map.of("topic", topic, "compression", compression, "messages", list));
    }

    /** A KafkaConsumer in the group reads until it has {@code expect} messages, commits and closes. */
    Run consume(String topic, String group, int expect) throws Exception {
        return run("consume", Map.of("topic", topic, "group", group, "expect", expect));
    }

    private Run run(String mode, Map<String, Object> options) throws Exception {
        Map<String, Object> all = new HashMap<>(options);
        all.put("mode", mode);
        all.put("brokers", List.of(broker.bootstrap()));
        all.put("apiVersion", apiVersion);
        String name = "python-kafka-" + RUNS.incrementAndGet() + "-" + mode + "-" + options.get("topic");
        Subprocess.Result r = Subprocess.run(List.of("/usr/bin/python3",
                ExternalClients.clientsDir().resolve("python").resolve("kafka_python_client.py").toString(),
                ClientOutput.json(all)), null, Map.of(), TIMEOUT, ExternalClients.outputDir().resolve(name));
        Run run = new Run(r, ClientOutput.events(r));
        if (r.timedOut() || r.exitCode() != 0) {
            throw new AssertionError("kafka-python script failed; " + run.describe());
        }
        return run;
    }
}
