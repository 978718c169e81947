package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka Streams 4.4 word count with {@code group.protocol=streams} (KIP-1071): the broker's streams group
 * coordinator takes the application's topology, creates its repartition and changelog topics, assigns it the
 * tasks and takes its offset commits (with its member id and epoch). One instance; the two-instance scenarios
 * are the compat tests'.
 */
class StreamsGroupWordCountTest {
    private static final String APP = "wordcount-streams-protocol";
    private static final String INPUT = "sg-lines";
    private static final String OUTPUT = "sg-counts";
    private static final List<String> WORDS = List.of("alpha", "beta", "gamma", "delta", "epsilon");
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of("offsets.topic.num.partitions", "3",
            "group.streams.heartbeat.interval.ms", "500"));

    private final List<Path> stateDirs = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** Every count read from the output by the last {@link #awaitCounts}, by word, in order. */
    private final Map<String, List<Long>> sequences = new TreeMap<>();
    private KafkaStreams streams;
    private final List<KafkaStreams> others = new ArrayList<>();

    @AfterEach
    void closeStreams() throws IOException {
        if (streams != null) {
            streams.close(Duration.ofSeconds(30));
        }
        for (KafkaStreams other : others) {
            other.close(Duration.ofSeconds(30));
        }
        for (Path dir : stateDirs) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    @Test
    void wordCountRunsAsAStreamsGroupWithItsInternalTopicsCreatedByTheBroker() throws Exception {
        broker.createTopic(INPUT, 2);
        broker.createTopic(OUTPUT, 2);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            lines.add(WORDS.get(i % WORDS.size()) + " " + WORDS.get((i * 3) % WORDS.size()));
        }
        produce(lines);

        streams = start();
        Map<String, Long> expected = new TreeMap<>();
        lines.forEach(l -> Arrays.stream(l.split(" ")).forEach(w -> expected.merge(w, 1L, Long::sum)));
        assertThat(awaitCounts(expected)).isEqualTo(expected);

        assertThat(OdradekBroker.await(broker.admin().listTopics(new ListTopicsOptions().listInternal(true)).names())).contains(
                APP + "-counts-repartition", APP + "-counts-changelog");
        assertThat(OdradekBroker.await(broker.admin().describeTopics(List.of(APP + "-counts-repartition", APP + "-counts-changelog"))
                .allTopicNames()).values()).allSatisfy(t -> assertThat(t.partitions()).hasSize(2));

        Collection<StreamsGroupDescription> described = OdradekBroker.await(broker.admin()
                .describeStreamsGroups(List.of(APP)).all()).values();
        StreamsGroupDescription group = described.iterator().next();
        assertThat(group.groupState()).isEqualTo(org.apache.kafka.common.GroupState.STABLE);
        assertThat(group.members()).hasSize(1);
        assertThat(group.subtopologies()).hasSize(2);
        // Every task of both subtopologies (2 partitions each) is the one member's.
        assertThat(group.members().iterator().next().assignment().activeTasks())
                .allSatisfy(t -> assertThat(t.partitions()).containsExactly(0, 1));

        // kafka-streams-groups (Kafka 4.4's tool) lists and describes it.
        KafkaTool.Exited list = KafkaTool.runToExit(org.apache.kafka.tools.streams.StreamsGroupCommand::main,
                "--bootstrap-server", broker.bootstrap(), "--list");
        assertThat(list.status()).isZero();
        assertThat(list.stdout().lines()).containsExactly(APP);
        KafkaTool.Exited describe = KafkaTool.runToExit(org.apache.kafka.tools.streams.StreamsGroupCommand::main,
                "--bootstrap-server", broker.bootstrap(), "--describe", "--group", APP);
        assertThat(describe.status()).as(describe.stderr()).isZero();
        // Its input and repartition partitions, each with no lag.
        assertThat(describe.stdout().lines().skip(1).map(l -> String.join(" ", l.trim().split("\\s+"))))
                .containsExactlyInAnyOrder(APP + " " + INPUT + " 0 0", APP + " " + INPUT + " 1 0",
                        APP + " " + APP + "-counts-repartition 0 0", APP + " " + APP + "-counts-repartition 1 0");
    }

    /**
     * Exactly-once (transactional offset commits with the member's epoch): a second instance joins and takes half
     * the tasks, then leaves and its tasks move back; every word's counts are 1, 2, ..., n in order, exactly.
     */
    @Test
    void aSecondInstanceTakesHalfTheTasksAndGivesThemBackWhenItLeavesWithExactCounts() throws Exception {
        broker.createTopic(INPUT, 2);
        broker.createTopic(OUTPUT, 2);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            lines.add(WORDS.get(i % WORDS.size()) + " " + WORDS.get((i * 3) % WORDS.size()));
        }
        produce(lines.subList(0, 100));
        streams = start(StreamsConfig.EXACTLY_ONCE_V2);
        awaitCounts(counts(lines.subList(0, 100)));

        KafkaStreams second = start(StreamsConfig.EXACTLY_ONCE_V2);
        others.add(second);
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            StreamsGroupDescription g = OdradekBroker.await(broker.admin().describeStreamsGroups(List.of(APP)).all()).get(APP);
            if (g.members().size() == 2 && g.groupState() == org.apache.kafka.common.GroupState.STABLE
                    && g.members().stream().allMatch(m -> m.assignment().activeTasks().stream().mapToInt(t -> t.partitions().size()).sum() == 2)) {
                break;
            }
            assertThat(System.nanoTime()).as("two members with two tasks each; last seen " + g).isLessThan(deadline);
            Thread.sleep(200);
        }
        produce(lines.subList(100, 200));
        awaitCounts(counts(lines.subList(0, 200)));

        second.close(org.apache.kafka.streams.CloseOptions.groupMembershipOperation(
                org.apache.kafka.streams.CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(Duration.ofSeconds(30)));
        others.clear();
        produce(lines.subList(200, 300));
        awaitCounts(counts(lines));
        StreamsGroupDescription g = OdradekBroker.await(broker.admin().describeStreamsGroups(List.of(APP)).all()).get(APP);
        assertThat(g.members()).hasSize(1);
        assertThat(g.members().iterator().next().assignment().activeTasks())
                .allSatisfy(t -> assertThat(t.partitions()).containsExactly(0, 1));
        assertThat(sequences).allSatisfy((word, seen) -> assertThat(seen).as(word)
                .isEqualTo(java.util.stream.LongStream.rangeClosed(1, seen.size()).boxed().toList()));
    }

    private static Map<String, Long> counts(List<String> lines) {
        Map<String, Long> expected = new TreeMap<>();
        lines.forEach(l -> Arrays.stream(l.split(" ")).forEach(w -> expected.merge(w, 1L, Long::sum)));
        return expected;
    }

    private KafkaStreams start() throws IOException {
        return start(StreamsConfig.AT_LEAST_ONCE);
    }

    private KafkaStreams start(String guarantee) throws IOException {
        Path stateDir = Files.createTempDirectory("odradek-streams-");
        stateDirs.add(stateDir);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        props.put("group.protocol", "streams");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
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
        return app;
    }

    private void produce(List<String> lines) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap()), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < lines.size(); i++) {
                producer.send(new ProducerRecord<>(INPUT, Integer.toString(i), lines.get(i)));
            }
        }
    }

    /** Reads the output until each word's latest count is as expected; returns the latest counts. */
    private Map<String, Long> awaitCounts(Map<String, Long> expected) {
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new LongDeserializer())) {
            List<TopicPartition> partitions = Clients.partitions(OUTPUT, 2);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<String, Long> latest = new TreeMap<>();
            sequences.clear();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!latest.equals(expected)) {
                if (failure.get() != null) {
                    throw new AssertionError("the application failed; counts so far " + latest, failure.get());
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("word counts did not reach " + expected + " within " + TIMEOUT
                            + "; latest " + latest + "; streams state " + (streams == null ? "-" : streams.state()));
                }
                for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(200))) {
                    latest.put(r.key(), r.value());
                    sequences.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
                }
            }
            return latest;
        }
    }
}
