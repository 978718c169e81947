package io.odradek.compat.external;

import com.fasterxml.jackson.databind.JsonNode;
import io.odradek.compat.OdradekBroker;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * confluent-kafka-python (Debian's python3-confluent-kafka 1.7 on librdkafka 2.0) against a test broker: runs
 * {@code compat-tests/clients/python/transactions.py} with Debian's /usr/bin/python3, its options as one JSON
 * argument, and reads back the JSON events it prints, one per line. librdkafka's debug log
 * ({@code protocol,broker,eos,msg}) goes to the script's stderr, kept under target/, and names every request
 * and version it sends.
 */
final class ConfluentKafkaPython {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final OdradekBroker broker;

    ConfluentKafkaPython(OdradekBroker broker) {
        this.broker = broker;
    }

    /** What the script printed, and how it ended. */
    record Run(Subprocess.Result process, List<JsonNode> events) {
        List<JsonNode> events(String type) {
            return ClientOutput.ofType(events, type);
        }

        String describe() {
            return "requests librdkafka sent: " + Kcat.requestsSent(process) + "\n" + process.describe();
        }
    }

    /** Runs the script in this mode; fails unless it exits 0. */
    Run run(String mode, Map<String, Object> options) throws Exception {
        Map<String, Object> all = new HashMap<>(options);
        all.put("mode", mode);
        all.put("brokers", List.of(broker.bootstrap()));
        Subprocess.Result r = Subprocess.run(List.of("/usr/bin/python3",
                ExternalClients.clientsDir().resolve("python").resolve("transactions.py").toString(),
                ClientOutput.json(all)), null, Map.of(), TIMEOUT,
                ExternalClients.outputDir().resolve("python-" + RUNS.incrementAndGet() + "-" + mode));
        Run run = new Run(r, ClientOutput.events(r));
        if (r.timedOut() || r.exitCode() != 0) {
            throw new AssertionError("confluent-kafka-python script failed; " + run.describe());
        }
        return run;
    }

    /** One transaction for produce mode: its messages, then commit or abort. */
    static Map<String, Object> transaction(boolean commit, List<Map<String, Object>> messages) {
        return Map.of("commit", commit, "messages", messages);
    }

    static Map<String, Object> message(String topic, int partition, String key, String value) {
        return Map.of("topic", topic, "partition", partition, "key", key, "value", value);
    }
}
