package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.StreamsGroupMemberDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.tools.streams.StreamsGroupCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka Streams 4.4 word count on the streams rebalance protocol (KIP-1071, group.protocol=streams): the broker
 * creates the repartition and changelog topics and assigns the tasks (two subtopologies, three partitions each)
 * to two instances; the counts are exact; one instance leaves and the other takes over all its tasks and keeps
 * counting exactly; kafka-streams-groups describes the group.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StreamsGroupTest {
    private static final String APP = "wordcount-streams";
    private static final String INPUT = "wcs-lines";
    private static final String OUTPUT = "wcs-counts";
    private static final List<String> WORDS = List.of("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta");
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Every task: subtopology 0 (input to repartition) and 1 (count), three partitions each. */
    private static final List<String> ALL_TASKS = List.of("0_0", "0_1", "0_2", "1_0", "1_1", "1_2");

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of(
            "offsets.topic.num.partitions", "3",
            "group.streams.initial.rebalance.delay.ms", "0"));

    private final List<Path> stateDirs = new ArrayList<>();
    private final List<KafkaStreams> running = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    @AfterEach
    void closeStreams() throws IOException {
        for (KafkaStreams app : running) {
            app.close(Duration.ofSeconds(30));
        }
        for (Path dir : stateDirs) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    @Test
    void twoInstancesCountExactlyAndTheSurvivorTakesOverTheTasksOfOneThatLeaves() throws Exception {
        broker.createTopic(INPUT, 3);
        broker.createTopic(OUTPUT, 3);
        List<String> lines = lines(0, 450);
        produce(lines.subList(0, 300), 0);

        KafkaStreams first = start("first");
        KafkaStreams second = start("second");
        assertThat(awaitLatestCounts(expectedCounts(lines.subList(0, 300)))).isEqualTo(expectedCounts(lines.subList(0, 300)));
        StreamsGroupDescription both = awaitGroup(2);
        Map<String, List<String>> tasksByClient = activeTasksByClient(both);
        assertThat(tasksByClient.values()).as("each instance runs tasks: " + tasksByClient).allMatch(t -> !t.isEmpty());
        assertThat(tasksByClient.values().stream().flatMap(List::stream).sorted().toList())
                .as("every task assigned once").isEqualTo(ALL_TASKS);

        KafkaTool.Exited describe = streamsGroups("--describe", "--group", APP, "--members");
        assertThat(describe.status()).as(describe.stdout() + describe.stderr()).isZero();
        List<String> memberLines = describe.stdout().lines().map(String::trim)
                .filter(l -> l.startsWith(APP + " ")).toList();
        assertThat(memberLines).hasSize(2);
        assertThat(memberLines).anyMatch(l -> l.contains("first")).anyMatch(l -> l.contains("second"));
        KafkaTool.Exited state = streamsGroups("--describe", "--group", APP, "--state");
        assertThat(state.stdout().lines().map(String::trim).filter(l -> l.startsWith(APP + " ")).toList())
                .singleElement().satisfies(l -> assertThat(l.split("\\s+")).endsWith("Stable", "2"));

        second.close(CloseOptions.groupMembershipOperation(GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
        running.remove(second);
        produce(lines.subList(300, 450), 300);

        assertThat(awaitLatestCounts(expectedCounts(lines))).isEqualTo(expectedCounts(lines));
        StreamsGroupDescription one = awaitGroup(1);
        assertThat(activeTasksByClient(one)).containsOnlyKeys(clientIdOf(one, "first"))
                .containsValue(ALL_TASKS);
        assertThat(first.state()).isEqualTo(KafkaStreams.State.RUNNING);
    }

    private KafkaStreams start(String name) throws IOException {
        Path stateDir = Files.createTempDirectory("odradek-streams-" + name + "-");
        stateDirs.add(stateDir);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        props.put(StreamsConfig.CLIENT_ID_CONFIG, name);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(line -> Arrays.asList(line.split(" ")))
                .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("counts")
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                .toStream()
                .to(OUTPUT, Produced.with(Serdes.String(), Serdes.Long()));
        KafkaStreams app = new KafkaStreams(builder.build(), props);
        app.setUncaughtExceptionHandler(e -> {
            failure.compareAndSet(null, e);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        app.start();
        running.add(app);
        return app;
    }

    /** Reads the output from the beginning until each word's latest count (the compacted view) is as expected. */
    private Map<String, Long> awaitLatestCounts(Map<String, Long> expected) throws InterruptedException {
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new LongDeserializer())) {
            List<TopicPartition> partitions = Clients.partitions(OUTPUT, 3);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<String, Long> latest = new TreeMap<>();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!latest.equals(expected)) {
                if (failure.get() != null) {
                    throw new AssertionError("the application failed; counts so far " + latest, failure.get());
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("word counts did not reach " + expected + " within " + TIMEOUT
                            + "; latest " + latest + "; instances " + running.stream().map(KafkaStreams::state).toList());
                }
                for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(200))) {
                    latest.put(r.key(), r.value());
                }
            }
            Thread.sleep(1000); // a count beyond the expected one would show up here
            for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(500))) {
                latest.put(r.key(), r.value());
            }
            return latest;
        }
    }

    /** Waits until the group is stable with this many members, each holding its target assignment. */
    private StreamsGroupDescription awaitGroup(int members) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        StreamsGroupDescription group = describe();
        while (!(group.groupState() == GroupState.STABLE && group.members().size() == members
                && group.members().stream().allMatch(m -> m.assignment().equals(m.targetAssignment())))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the streams group did not settle with " + members + " members: " + group);
            }
            Thread.sleep(200);
            group = describe();
        }
        return group;
    }

    private StreamsGroupDescription describe() {
        return OdradekBroker.await(broker.admin().describeStreamsGroups(List.of(APP)).describedGroups().get(APP));
    }

    /** Active tasks per member client id, as "subtopology_partition", sorted. */
    private static Map<String, List<String>> activeTasksByClient(StreamsGroupDescription group) {
        Map<String, List<String>> tasks = new TreeMap<>();
        for (StreamsGroupMemberDescription member : group.members()) {
            TreeSet<String> ids = new TreeSet<>();
            member.assignment().activeTasks().forEach(t -> t.partitions().forEach(p -> ids.add(t.subtopologyId() + "_" + p)));
            tasks.put(member.clientId(), new ArrayList<>(ids));
        }
        return tasks;
    }

    /** The member client id Streams derives from the instance's client.id (name-StreamThread-1-consumer). */
    private static String clientIdOf(StreamsGroupDescription group, String name) {
        return group.members().stream().map(StreamsGroupMemberDescription::clientId)
                .filter(id -> id.startsWith(name + "-")).findFirst()
                .orElseThrow(() -> new AssertionError("no member of " + name + " in " + group));
    }

    private KafkaTool.Exited streamsGroups(String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "--bootstrap-server";
        all[1] = broker.bootstrap();
        System.arraycopy(args, 0, all, 2, args.length);
        return KafkaTool.runToExit(StreamsGroupCommand::main, all);
    }

    private void produce(List<String> lines, int firstKey) {
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of());
        for (int i = 0; i < lines.size(); i++) {
            int key = firstKey + i;
            producer.send(new ProducerRecord<>(INPUT, key % 3, String.valueOf(key), lines.get(i)));
        }
        producer.flush();
        producer.close();
    }

    /** Line i holds 1 + i % 4 words picked deterministically, so the counts differ from word to word. */
    private static List<String> lines(int from, int to) {
        List<String> lines = new ArrayList<>();
        for (int i = from; i < to; i++) {
            List<String> words = new ArrayList<>();
            for (int w = 0; w <= i % 4; w++) {
                words.add(WORDS.get((i * 3 + w * 5 + i / 7) % WORDS.size()));
            }
            lines.add(String.join(" ", words));
        }
        return lines;
    }

    private static Map<String, Long> expectedCounts(List<String> lines) {
        return lines.stream().flatMap(l -> Arrays.stream(l.split(" ")))
                .collect(Collectors.groupingBy(w -> w, TreeMap::new, Collectors.counting()));
    }
}
