package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka Streams 4.4 word count with processing.guarantee=exactly_once_v2: a RocksDB count store with its
 * changelog, a repartition topic (groupBy word), transactions spanning the output, the changelog, the
 * repartition topic and the input offsets. With the record cache off, every input word produces one output
 * record, so a word seen n times must appear in the output (read_committed) with the counts 1, 2, ..., n,
 * exactly, in order: a duplicate or lost update shows as a repeated or missing count.
 */
class StreamsExactlyOnceTest {
    private static final String APP = "wordcount-eos";
    private static final String INPUT = "wc-lines";
    private static final String OUTPUT = "wc-counts";
    private static final List<String> WORDS = List.of("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta");
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final String INJECTED = "injected crash";

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of(
            "group.initial.rebalance.delay.ms", "0",
            "offsets.topic.num.partitions", "3",
            "transaction.state.log.num.partitions", "3"));

    private final List<Path> stateDirs = new ArrayList<>();
    /** The first exception that stopped a stream thread: the reason for a failure. */
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicInteger crashKeyProcessed = new AtomicInteger();
    private KafkaStreams streams;

    @AfterEach
    void closeStreams() throws IOException {
        if (streams != null) {
            streams.close(Duration.ofSeconds(30));
        }
        for (Path dir : stateDirs) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    @Test
    void wordCountsAreExactAndStayExactAfterTheApplicationIsRestartedWithMoreInput() throws Exception {
        broker.createTopic(INPUT, 2);
        broker.createTopic(OUTPUT, 2);
        List<String> lines = lines(0, 300);
        produce(lines.subList(0, 200));

        streams = start();
        Map<String, List<Long>> firstRun = awaitCounts(expectedCounts(lines.subList(0, 200)));
        assertThat(firstRun).isEqualTo(expectedSequences(lines.subList(0, 200)));
        // Leaving the group, so the restarted instance does not wait out the old member's session.
        streams.close(CloseOptions.groupMembershipOperation(GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
        streams = null;

        // The same application.id on a fresh state directory: its store is restored from the changelog
        // (read_committed), its input resumes at the committed offsets.
        produce(lines.subList(200, 300));
        streams = start();
        Map<String, List<Long>> bothRuns = awaitCounts(expectedCounts(lines));
        assertThat(bothRuns).isEqualTo(expectedSequences(lines));

        assertThat(OdradekBroker.await(broker.admin().listTopics(new ListTopicsOptions().listInternal(true)).names())).contains(
                APP + "-counts-repartition", APP + "-counts-changelog");
        Map<TopicPartition, Long> committed = OdradekBroker.await(broker.admin().listConsumerGroupOffsets(APP)
                .partitionsToOffsetAndMetadata()).entrySet().stream()
                .filter(e -> e.getKey().topic().equals(INPUT))
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        assertThat(committed).as("the input offsets committed in the application's transactions")
                .isEqualTo(Map.of(new TopicPartition(INPUT, 0), 150L, new TopicPartition(INPUT, 1), 150L));
    }

    /**
     * The stream thread throws while processing input line 150, in the middle of a transaction that already
     * holds output, changelog and repartition records; Streams replaces the thread, the transaction is
     * aborted and the input reprocessed from the committed offsets: read_committed sees every count once.
     */
    @Test
    void wordCountsStayExactWhenAStreamThreadDiesMidTransactionAndIsReplaced() throws Exception {
        broker.createTopic(INPUT, 2);
        broker.createTopic(OUTPUT, 2);
        List<String> lines = lines(0, 300);
        produce(lines);

        streams = start("150");
        Map<String, List<Long>> counts = awaitCounts(expectedCounts(lines));

        assertThat(crashKeyProcessed.get()).as("line 150 processed: in the aborted transaction, then after it")
                .isEqualTo(2);
        assertThat(counts).isEqualTo(expectedSequences(lines));
    }

    /**
     * The broker restarts (as after a crash) under the running application, just after a second batch of
     * input arrives (so the application is likely mid-transaction): its transaction coordinator, group
     * coordinator and logs reload, the application reconnects and carries on, and the counts are exact.
     */
    @Test
    void wordCountsStayExactAcrossABrokerRestartUnderTheRunningApplication() throws Exception {
        broker.createTopic(INPUT, 2);
        broker.createTopic(OUTPUT, 2);
        List<String> lines = lines(0, 300);
        produce(lines.subList(0, 150));
        streams = start();
        awaitCounts(expectedCounts(lines.subList(0, 150)));

        produce(lines.subList(150, 300));
        broker.closeClients();
        broker.stopAsIfCrashed();
        broker.start();

        assertThat(awaitCounts(expectedCounts(lines))).isEqualTo(expectedSequences(lines));
    }

    private KafkaStreams start() throws IOException {
        return start(null);
    }

    /** @param crashAtKey the input key whose processing throws, once (null: never) */
    private KafkaStreams start(String crashAtKey) throws IOException {
        Path stateDir = Files.createTempDirectory("odradek-streams-");
        stateDirs.add(stateDir);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        // A replaced thread's consumer does not leave the group: its session (Kafka's minimum) must run out.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6000);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1000);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues((key, line) -> {
                    if (key.equals(crashAtKey) && crashKeyProcessed.getAndIncrement() == 0) {
                        throw new IllegalStateException(INJECTED);
                    }
                    return Arrays.asList(line.split(" "));
                })
                .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("counts")
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                .toStream()
                .to(OUTPUT, Produced.with(Serdes.String(), Serdes.Long()));
        KafkaStreams app = new KafkaStreams(builder.build(), props);
        app.setUncaughtExceptionHandler(e -> {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (INJECTED.equals(t.getMessage())) {
                    return StreamThreadExceptionResponse.REPLACE_THREAD;
                }
            }
            failure.compareAndSet(null, e);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        app.start();
        return app;
    }

    /** Reads the output (read_committed) until each word's latest count is as expected; returns every count seen. */
    private Map<String, List<Long>> awaitCounts(Map<String, Long> expected) throws InterruptedException {
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new LongDeserializer())) {
            List<TopicPartition> partitions = Clients.partitions(OUTPUT, 2);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<String, List<Long>> seen = new TreeMap<>();
            Map<String, Long> latest = new TreeMap<>();
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
                    seen.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
                    latest.put(r.key(), r.value());
                }
            }
            Thread.sleep(500); // anything after the expected end would be a duplicate
            for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(500))) {
                seen.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
            }
            return seen;
        }
    }

    private void produce(List<String> lines) {
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of());
        for (int i = 0; i < lines.size(); i++) {
            producer.send(new ProducerRecord<>(INPUT, i % 2, String.valueOf(i), lines.get(i)));
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

    private static Map<String, List<Long>> expectedSequences(List<String> lines) {
        Map<String, List<Long>> sequences = new LinkedHashMap<>();
        expectedCounts(lines).forEach((word, n) -> sequences.put(word, LongStream.rangeClosed(1, n).boxed().toList()));
        return new TreeMap<>(sequences);
    }
}
