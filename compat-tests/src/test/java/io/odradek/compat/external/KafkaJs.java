package io.odradek.compat.external;

import com.fasterxml.jackson.databind.JsonNode;
import io.odradek.compat.OdradekBroker;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * KafkaJS 2.2.4 against a test broker: runs a script of {@code compat-tests/clients/js} with node, passing its
 * options as one JSON argument, and reads back the JSON events it prints, one per line. KafkaJS logs at
 * DEBUG to the script's stderr (kept under target/), which names every request and version it sends.
 */
final class KafkaJs {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern REQUEST = Pattern.compile("Request (\\w+)\\(key: \\d+, version: (\\d+)\\)");
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final OdradekBroker broker;
    private final Map<String, Object> connection;

    KafkaJs(OdradekBroker broker) {
        this(broker, Map.of());
    }

    /** With options every script passes to KafkaJS: {@code ssl} and {@code sasl} as lib.js describes them. */
    KafkaJs(OdradekBroker broker, Map<String, Object> connection) {
        this.broker = broker;
        this.connection = Map.copyOf(connection);
    }

    /** What a script printed, and how it ended. */
    record Run(Subprocess.Result process, List<JsonNode> events) {
        List<JsonNode> events(String type) {
            return ClientOutput.ofType(events, type);
        }

        /** The API versions KafkaJS used, from its DEBUG log: e.g. [Fetch v11, Produce v7]. */
        TreeSet<String> requestsSent() {
            return ClientOutput.requestsSent(REQUEST, process.stderr());
        }

        String describe() {
            return "requests KafkaJS sent: " + requestsSent() + "\n" + process.describe();
        }
    }

    /** {@code produce.js}: one {@code producer.send()} per list in {@code sends}; fails unless it exits 0. */
    Run produce(String topic, String compression, List<List<Map<String, Object>>> sends) throws Exception {
        return succeed(run("produce.js", Map.of("topic", topic, "compression", compression, "sends", sends)));
    }

    /** {@code consume.js}: a group of consumers reading until they have {@code expect} messages between them. */
    Run consume(Map<String, Object> options) throws Exception {
        return succeed(run("consume.js", options));
    }

    Run run(String script, Map<String, Object> options) throws Exception {
        Map<String, Object> all = new HashMap<>(connection);
        all.putAll(options);
        all.put("brokers", List.of(broker.bootstrap()));
        List<String> command = List.of("node", ExternalClients.clientsDir().resolve("js").resolve(script).toString(),
                ClientOutput.json(all));
        String name = "kafkajs-" + RUNS.incrementAndGet() + "-" + script.replace(".js", "") + "-" + options.get("topic");
        Subprocess.Result r = Subprocess.run(command, null,
                Map.of("KAFKAJS_LOG_LEVEL", "DEBUG", "KAFKAJS_NO_PARTITIONER_WARNING", "1"), TIMEOUT,
                ExternalClients.outputDir().resolve(name));
        return new Run(r, ClientOutput.events(r));
    }

    private static Run succeed(Run run) {
        if (run.process().timedOut() || run.process().exitCode() != 0) {
            throw new AssertionError("KafkaJS script failed; " + run.describe());
        }
        return run;
    }

    /** A message as produce.js takes it: key, value and headers (all strings). */
    static Map<String, Object> message(String key, String value, Map<String, String> headers) {
        return Map.of("key", key, "value", value, "headers", headers);
    }
}
