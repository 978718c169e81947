package io.odradek.compat.external;

import io.odradek.compat.OdradekBroker;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * kcat (librdkafka 2.0) against a test broker, one subprocess per call, each bounded in time and logging
 * librdkafka's debug output ({@code -d protocol,broker,msg}) so a failure shows the request and
 * version it used.
 */
final class Kcat {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern SENT = Pattern.compile("Sent (\\w+)Request \\(v(\\d+)");
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final OdradekBroker broker;

    Kcat(OdradekBroker broker) {
        this.broker = broker;
    }

    /** Produces one message per line of stdin ({@code key:value} with {@code -K:}); fails unless kcat exits 0. */
    Subprocess.Result produce(String topic, List<String> lines, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("-P", "-t", topic));
        args.addAll(Arrays.asList(options));
        return succeed(run(args, String.join("\n", lines) + "\n"));
    }

    /** Reads a topic from the beginning to its current end, one formatted line per message. */
    List<String> consumeAll(String topic, String format, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("-C", "-t", topic, "-e", "-o", "beginning", "-f", format));
        args.addAll(Arrays.asList(options));
        return succeed(run(args, null)).stdoutLines();
    }

    /**
     * Consumes as a member of a consumer group (balanced, committing offsets) until the end of every assigned
     * partition, then leaves the group, committing what it read.
     */
    List<String> groupConsume(String group, String topic, String format, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("-G", group, "-e", "-f", format, "-X", "auto.offset.reset=earliest",
                "-X", "enable.auto.commit=true"));
        args.addAll(Arrays.asList(options));
        args.add(topic);
        return succeed(run(args, null)).stdoutLines();
    }

    /** {@code -L}: the broker's metadata for one topic as kcat prints it. */
    List<String> metadata(String topic) throws Exception {
        return succeed(run(List.of("-L", "-t", topic), null)).stdoutLines();
    }

    Subprocess.Result run(List<String> args, String stdin) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kcat", "-b", broker.bootstrap(), "-d", "protocol,broker,msg"));
        command.addAll(args);
        // e.g. kcat-3-P-kcat-gzip.err: the run's number, mode and topic (kcat's last argument or -t's)
        int t = args.indexOf("-t");
        String topic = t >= 0 ? args.get(t + 1) : args.get(args.size() - 1);
        String name = "kcat-" + RUNS.incrementAndGet() + "-" + args.get(0).replace("-", "") + "-" + topic;
        return Subprocess.run(command, stdin, Map.of(), TIMEOUT, ExternalClients.outputDir().resolve(name));
    }

    static Subprocess.Result succeed(Subprocess.Result r) {
        if (r.timedOut() || r.exitCode() != 0) {
            throw new AssertionError("kcat failed; requests it sent: " + requestsSent(r) + "\n" + r.describe());
        }
        return r;
    }

    /** librdkafka's notes on how it compressed (or why it did not), from its msg debug log. */
    static List<String> compressionNotes(Subprocess.Result r) {
        return r.stderr().lines().filter(l -> l.contains("compression")).map(l -> l.replaceFirst("^.*?\\]: ", ""))
                .distinct().limit(5).toList();
    }

    /** The API versions librdkafka used, from its protocol debug log: e.g. [Fetch v11, Produce v7]. */
    static TreeSet<String> requestsSent(Subprocess.Result r) {
        return ClientOutput.requestsSent(SENT, r.stderr());
    }
}
