package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.faults.FaultRule;
import io.odradek.broker.faults.Faults;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * issue 11 (faults): real Kafka 4.4 clients against injected errors, delays and dropped connections: the producer's
 * and consumer's retry logic must carry them through with nothing lost, duplicated or reordered. Each test's faults
 * name its own client id, so the harness's Admin client is never hit.
 */
class FaultInjectionTest {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withConfig(Map.of("odradek.admin.port", "0"));

    /** One record as the consumer sees it. */
    record Seen(int partition, long offset, String key, String value) {
        static Seen of(ConsumerRecord<String, String> r) {
            return new Seen(r.partition(), r.offset(), r.key(), r.value());
        }
    }

    private static Faults faults() {
        return BROKER.broker().faults();
    }

    @AfterEach
    void clearFaults() {
        faults().clear();
    }

    /** An idempotent producer (Kafka's defaults: acks=all, 5 in flight) sending small batches, retrying quickly. */
    private static KafkaProducer<String, String> producer(String clientId) {
        return Clients.producer(BROKER, Map.of(ProducerConfig.CLIENT_ID_CONFIG, clientId,
                ProducerConfig.BATCH_SIZE_CONFIG, 2048, ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 20));
    }

    /** Sends {@code count} keyed records ("k-i" = "v-i") to partition 0 and waits for every acknowledgement. */
    private static List<RecordMetadata> send(KafkaProducer<String, String> producer, String topic, int count)
            throws Exception {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            acks.add(producer.send(new ProducerRecord<>(topic, 0, "k-" + i, "v-" + i)));
        }
        producer.flush();
        List<RecordMetadata> done = new ArrayList<>();
        for (Future<RecordMetadata> ack : acks) {
            done.add(ack.get());
        }
        return done;
    }

    private static List<Seen> expected(int count) {
        return IntStream.range(0, count).mapToObj(i -> new Seen(0, i, "k-" + i, "v-" + i)).toList();
    }

    private static List<Seen> readAll(String topic, int partitions, String clientId) {
        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER,
                Map.of(ConsumerConfig.CLIENT_ID_CONFIG, clientId));
        return Clients.readAll(consumer, Clients.partitions(topic, partitions), READ_TIMEOUT).stream()
                .map(Seen::of).toList();
    }

    @Test
    void idempotentProducerRetriesThroughNotLeaderAndTimeoutsWithNoLossOrDuplicate() throws Exception {
        String topic = "faults-produce-errors";
        BROKER.createTopic(topic, 1);
        faults().failNext("Produce", "flaky-producer", 3, "NOT_LEADER_OR_FOLLOWER")
                .failNext("Produce", "flaky-producer", 3, "REQUEST_TIMED_OUT");
        int count = 3000;

        List<RecordMetadata> acks = send(producer("flaky-producer"), topic, count);

        assertThat(faults().rules()).as("every injected error was met").isEmpty();
        assertThat(acks).extracting(RecordMetadata::offset)
                .containsExactlyElementsOf(IntStream.range(0, count).mapToObj(i -> (long) i).toList());
        assertThat(readAll(topic, 1, "faults-reader")).containsExactlyElementsOf(expected(count));
    }

    @Test
    void groupConsumerSurvivesCoordinatorNotAvailableAndCommitsEverything() throws Exception {
        String topic = "faults-group";
        BROKER.createTopic(topic, 3);
        KafkaProducer<String, String> producer = producer("faults-group-producer");
        for (int i = 0; i < 300; i++) {
            producer.send(new ProducerRecord<>(topic, i % 3, "k-" + i, "v-" + i));
        }
        producer.flush();
        String client = "flaky-consumer";
        faults().failNext("FindCoordinator", client, 2, "COORDINATOR_NOT_AVAILABLE")
                .failNext("Heartbeat", client, 2, "COORDINATOR_NOT_AVAILABLE")
                .failNext("OffsetCommit", client, 2, "COORDINATOR_NOT_AVAILABLE");

        Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, client);
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, "faults-group");
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 100);
        settings.put(ConsumerConfig.RETRY_BACKOFF_MS_CONFIG, 20);
        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, settings);
        consumer.subscribe(List.of(topic));
        List<String> keys = new ArrayList<>();
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        // Until every record is read and every injected error met (the heartbeats come every 100 ms).
        while (keys.size() < 300 || !faults().rules().stream().allMatch(r -> r.api().equals("OffsetCommit"))) {
            assertThat(System.nanoTime()).as("read %s records; faults left %s", keys.size(), faults().rules())
                    .isLessThan(deadline);
            consumer.poll(Duration.ofMillis(100)).forEach(r -> keys.add(r.key()));
        }
        consumer.commitSync(Duration.ofSeconds(30));

        assertThat(faults().rules()).as("every injected error was met").isEmpty();
        assertThat(keys).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 300).mapToObj(i -> "k-" + i).toList());
        Map<TopicPartition, OffsetAndMetadata> committed = OdradekBroker.await(
                BROKER.admin().listConsumerGroupOffsets("faults-group").partitionsToOffsetAndMetadata());
        assertThat(committed).containsOnlyKeys(Clients.partitions(topic, 3));
        assertThat(committed.values()).extracting(OffsetAndMetadata::offset).containsOnly(100L);
    }

    @Test
    void consumerWaitsOutDelayedFetchesAndReadsEverything() throws Exception {
        String topic = "faults-fetch-delay";
        BROKER.createTopic(topic, 1);
        send(producer("faults-delay-producer"), topic, 500);
        // One: the first fetch must reach the broker before any record comes back; a second one (the consumer's
        // prefetch) might still be on its way when the read ends.
        faults().delayNext("Fetch", "slow-fetcher", 1, Duration.ofMillis(500));

        List<Seen> seen = readAll(topic, 1, "slow-fetcher");

        assertThat(faults().rules()).isEmpty();
        assertThat(seen).containsExactlyElementsOf(expected(500));
    }

    @Test
    void clientsReconnectAfterDroppedConnectionsWithNoLossOrDuplicate() throws Exception {
        String topic = "faults-drop";
        BROKER.createTopic(topic, 1);
        faults().dropNext("Produce", "dropped-producer", 2).dropNext("Fetch", "dropped-consumer", 2);

        List<RecordMetadata> acks = send(producer("dropped-producer"), topic, 1000);
        List<Seen> seen = readAll(topic, 1, "dropped-consumer");

        assertThat(faults().rules()).isEmpty();
        assertThat(acks).hasSize(1000);
        assertThat(seen).containsExactlyElementsOf(expected(1000));
    }

    @Test
    void adminEndpointAddsListsAndClearsFaultsOverHttp() throws Exception {
        String topic = "faults-http";
        BROKER.createTopic(topic, 1);
        String base = "http://127.0.0.1:" + BROKER.broker().adminAddress().getPort() + "/faults";
        HttpClient http = HttpClient.newHttpClient();

        HttpResponse<String> added = http.send(HttpRequest.newBuilder(URI.create(
                base + "?api=Produce&error=NOT_LEADER_OR_FOLLOWER&times=2&clientId=http-producer"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(added.statusCode()).isEqualTo(200);
        assertThat(added.body().trim()).isEqualTo("{\"rules\":[{\"api\":\"Produce\",\"apiKey\":0,"
                + "\"clientId\":\"http-producer\",\"fault\":\"error\",\"error\":\"NOT_LEADER_OR_FOLLOWER\","
                + "\"remaining\":2}]}");
        assertThat(faults().rules()).extracting(FaultRule::describe)
                .containsExactly("next 2 Produce requests (client id http-producer): error NOT_LEADER_OR_FOLLOWER");

        HttpResponse<String> bad = http.send(HttpRequest.newBuilder(URI.create(base + "?api=Produec&error=NONE"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).startsWith("unknown API Produec").endsWith("\n").hasLineCount(1);

        List<RecordMetadata> acks = send(producer("http-producer"), topic, 200);
        assertThat(acks).hasSize(200);
        HttpResponse<String> listed = http.send(HttpRequest.newBuilder(URI.create(base)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(listed.body().trim()).isEqualTo("{\"rules\":[]}");
        assertThat(readAll(topic, 1, "http-reader")).containsExactlyElementsOf(expected(200));

        http.send(HttpRequest.newBuilder(URI.create(base + "?api=Metadata&drop=true&times=5"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        http.send(HttpRequest.newBuilder(URI.create(base + "?api=Fetch&delayMs=500"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(faults().rules()).extracting(FaultRule::action).containsExactly("drop", "delay 500 ms");
        HttpResponse<String> cleared = http.send(HttpRequest.newBuilder(URI.create(base)).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(cleared.statusCode()).isEqualTo(200);
        assertThat(cleared.body().trim()).isEqualTo("{\"rules\":[]}");
        assertThat(faults().rules()).isEmpty();
    }
}
