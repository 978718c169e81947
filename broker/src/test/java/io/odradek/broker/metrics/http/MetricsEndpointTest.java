package io.odradek.broker.metrics.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import io.odradek.broker.metrics.MetricName;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broker with {@code odradek.metrics.port} set, scraped over HTTP after real clients produced and consumed. */
class MetricsEndpointTest {
    @TempDir
    Path logDir;
    Broker broker;
    Admin admin;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeEach
    void start() throws Exception {
        broker = Broker.start(BrokerConfig.of(Map.of(
                "node.id", "1",
                "listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", logDir.toString(),
                "offsets.topic.num.partitions", "2",
                "group.initial.rebalance.delay.ms", "0",
                "odradek.metrics.port", "0",
                "odradek.metrics.host", "127.0.0.1")));
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
    }

    @AfterEach
    void stop() {
        admin.close();
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void consumerLagOfAGroupThatConsumedThreeOfTenRecordsIsSeven() throws Exception {
        createTopic("orders", 1, Map.of());
        produce("orders", 10);
        List<ConsumerRecord<String, String>> consumed = consumeAndCommit("billing", "orders", 3);
        assertThat(consumed).extracting(ConsumerRecord::value).containsExactly("v0", "v1", "v2");

        List<String> lines = scrapeLines();

        assertThat(lines).contains(
                "kafka_consumergroup_current_offset{consumergroup=\"billing\",partition=\"0\",topic=\"orders\"} 3.0",
                "kafka_consumergroup_lag{consumergroup=\"billing\",partition=\"0\",topic=\"orders\"} 7.0",
                "kafka_consumergroup_current_offset_sum{consumergroup=\"billing\",topic=\"orders\"} 3.0",
                "kafka_consumergroup_lag_sum{consumergroup=\"billing\",topic=\"orders\"} 7.0");
    }

    @Test
    void lagFollowsNewRecordsAndNewCommitsAcrossPartitions() throws Exception {
        createTopic("events", 2, Map.of());
        produce("events", 6); // keyed k0..k5: spread over both partitions
        consumeAndCommit("audit", "events", 6);
        produceTo("events", 1, 4);

        List<String> lines = scrapeLines();

        long[] ends = {endOffset("events", 0), endOffset("events", 1)};
        assertThat(ends[0] + ends[1]).isEqualTo(10);
        assertThat(lines).contains(
                "kafka_consumergroup_lag{consumergroup=\"audit\",partition=\"0\",topic=\"events\"} 0.0",
                "kafka_consumergroup_lag{consumergroup=\"audit\",partition=\"1\",topic=\"events\"} 4.0",
                "kafka_consumergroup_lag_sum{consumergroup=\"audit\",topic=\"events\"} 4.0");
    }

    @Test
    void messagesInPerTopicAreTheRecordsProduced() throws Exception {
        createTopic("orders", 1, Map.of());
        produce("orders", 10);

        assertThat(scrapeLines()).contains(
                "kafka_server_brokertopicmetrics_messagesin_total{topic=\"orders\"} 10.0",
                "kafka_server_brokertopicmetrics_messagesin_total 10.0");
    }

    @Test
    void theRegistrysMetersAreScrapedUnderTheJmxExportersKafkaNames() throws Exception {
        createTopic("orders", 1, Map.of());
        broker.metrics().topics().topic("orders").appended(4, 400); // as the produce path reports an append
        for (int i = 0; i < 3; i++) {
            broker.metrics().requests().completed((short) 0, (short) 9, 7_000_000, 1_000_000, 512); // Produce v9, 7 ms
        }

        List<String> lines = scrapeLines();

        assertThat(lines).contains(
                "kafka_server_brokertopicmetrics_messagesin_total{topic=\"orders\"} 4.0",
                "kafka_server_brokertopicmetrics_bytesin_total{topic=\"orders\"} 400.0",
                "kafka_network_requestmetrics_requests_total{request=\"Produce\",version=\"9\"} 3.0",
                "kafka_network_requestmetrics_totaltimems{quantile=\"0.99\",request=\"Produce\"} 7.0",
                "kafka_network_requestmetrics_totaltimems_count{request=\"Produce\"} 3.0",
                "kafka_network_requestmetrics_requestbytes{quantile=\"0.50\",request=\"Produce\"} 512.0",
                "kafka_server_replicamanager_partitioncount 1.0",
                "kafka_server_replicamanager_underreplicatedpartitions 0.0",
                "kafka_controller_kafkacontroller_activecontrollercount 1.0",
                "kafka_server_kafkaserver_brokerstate 3.0");
    }

    @Test
    void theReplicaManagerAndControllerGaugesCountThisBrokersPartitions() throws Exception {
        createTopic("a", 3, Map.of());
        createTopic("strict", 2, Map.of("min.insync.replicas", "2"));

        assertThat(gauge("kafka.server", "ReplicaManager", "PartitionCount")).isEqualTo(5);
        assertThat(gauge("kafka.server", "ReplicaManager", "LeaderCount")).isEqualTo(5);
        assertThat(gauge("kafka.server", "ReplicaManager", "UnderReplicatedPartitions")).isEqualTo(0);
        // One node: every ISR is [1]; strict's min.insync.replicas=2 is capped at its replication factor 1
        // (Kafka's effective min ISR), so all five partitions are at their minimum, none under it.
        assertThat(gauge("kafka.server", "ReplicaManager", "UnderMinIsrPartitionCount")).isEqualTo(0);
        assertThat(gauge("kafka.server", "ReplicaManager", "AtMinIsrPartitionCount")).isEqualTo(5);
        assertThat(gauge("kafka.server", "ReplicaManager", "OfflineReplicaCount")).isEqualTo(0);
        assertThat(gauge("kafka.controller", "KafkaController", "ActiveControllerCount")).isEqualTo(1);
        assertThat(gauge("kafka.controller", "KafkaController", "OfflinePartitionsCount")).isEqualTo(0);
        assertThat(gauge("kafka.controller", "KafkaController", "GlobalTopicCount")).isEqualTo(2);
        assertThat(gauge("kafka.controller", "KafkaController", "GlobalPartitionCount")).isEqualTo(5);
        assertThat(gauge("kafka.server", "KafkaServer", "BrokerState")).isEqualTo(3); // RUNNING
        assertThat(gauge("kafka.log", "LogManager", "OfflineLogDirectoryCount")).isEqualTo(0);
        assertThat(gauge("kafka.server", "socket-server-metrics", "connection-count")).isGreaterThanOrEqualTo(1);

        broker.operations().shuttingDown();
        assertThat(gauge("kafka.server", "KafkaServer", "BrokerState")).isEqualTo(7); // SHUTTING_DOWN
    }

    @Test
    void probesAnswerOkWhileServingAndOnlyReadinessSays503OnceShutdownBegins() throws Exception {
        assertThat(get("/health/live")).isEqualTo("200 OK\n");
        assertThat(get("/health/ready")).isEqualTo("200 OK\n");
        assertThat(get("/livez")).isEqualTo("200 OK\n");
        assertThat(get("/readyz")).isEqualTo("200 OK\n");
        assertThat(get("/nothing-here")).isEqualTo("404 not found: /nothing-here\n");

        broker.operations().shuttingDown(); // what Broker.close does first

        assertThat(get("/health/live")).isEqualTo("200 OK\n"); // the orchestrator lets the shutdown finish
        assertThat(get("/health/ready")).isEqualTo("503 shutting down\n");
    }

    @Test
    void afterCloseNothingAnswersOnTheMetricsPort() throws Exception {
        int port = broker.operations().httpPort();
        assertThat(get("/health/ready")).isEqualTo("200 OK\n");
        broker.close();
        broker = null;

        assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/live"))
                .build(), HttpResponse.BodyHandlers.ofString())).isInstanceOf(ConnectException.class);
    }

    @Test
    void theMetricsPortIsClosedBeforeTheServicesAre() throws Exception {
        int port = broker.operations().httpPort();
        Broker closing = broker;
        broker = null;
        Thread closer = new Thread(closing::close, "closer");
        Object groups = closing.groupCoordinator();
        synchronized (groups) { // GroupCoordinator.close takes this monitor first: the close waits inside services.close
            closer.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (closer.getState() != Thread.State.BLOCKED && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(closer.getState()).isEqualTo(Thread.State.BLOCKED);

            // No scrape reaches services that are closing, and a failing services.close cannot leak the server.
            assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/health/live")).build(), HttpResponse.BodyHandlers.ofString())).isInstanceOf(ConnectException.class);
        }
        closer.join(30_000);
        assertThat(closer.isAlive()).isFalse();
    }

    @Test
    void theScrapeIsOpenMetricsWhenTheScraperAsksForIt() throws Exception {
        createTopic("orders", 1, Map.of());
        produce("orders", 10);
        consumeAndCommit("billing", "orders", 3);

        HttpResponse<String> response = http.send(HttpRequest.newBuilder(metricsUri("/metrics"))
                .header("Accept", "application/openmetrics-text; version=1.0.0; charset=utf-8").build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).get().asString().startsWith("application/openmetrics-text");
        assertThat(response.body().split("\n")).contains(
                "# TYPE kafka_consumergroup_lag gauge",
                "kafka_consumergroup_lag{consumergroup=\"billing\",partition=\"0\",topic=\"orders\"} 7.0",
                "# EOF");
    }

    @Test
    void withoutTheMetricsPortThereIsNoHttpServer() throws Exception {
        try (Broker plain = Broker.start(BrokerConfig.of(Map.of("node.id", "1", "listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", logDir.resolve("plain").toString())))) {
            assertThat(plain.operations().httpPort()).isEqualTo(-1);
            assertThat(plain.operations().health().ready().ok()).isTrue();
        }
    }

    // ---------------------------------------------------------------- helpers

    private int gauge(String group, String type, String name) {
        return broker.operations().gauges().get(MetricName.of(group, type, name)).get().intValue();
    }

    private String bootstrap() {
        return "127.0.0.1:" + broker.port();
    }

    private URI metricsUri(String path) {
        return URI.create("http://127.0.0.1:" + broker.operations().httpPort() + path);
    }

    private String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(metricsUri(path)).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }

    private List<String> scrapeLines() throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(metricsUri("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).get().asString().startsWith("text/plain; version=0.0.4");
        return Arrays.asList(r.body().split("\n"));
    }

    private void createTopic(String name, int partitions, Map<String, String> configs) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all().get(30, TimeUnit.SECONDS);
    }

    private KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()));
    }

    private void produce(String topic, int count) throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i)).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private void produceTo(String topic, int partition, int count) throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, partition, "late" + i, "late" + i)).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private long endOffset(String topic, int partition) {
        return broker.topics().partitionLog(topic, partition).orElseThrow().logEndOffset();
    }

    /** Consumes {@code count} records as {@code group} from the start and commits just past each partition's last. */
    private List<ConsumerRecord<String, String>> consumeAndCommit(String group, String topic, int count) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(count),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (records.size() < count && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (records.size() < count) {
                        records.add(r);
                    }
                });
            }
            Map<TopicPartition, OffsetAndMetadata> commits = new java.util.HashMap<>();
            records.forEach(r -> commits.merge(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1),
                    (a, b) -> a.offset() >= b.offset() ? a : b));
            consumer.commitSync(commits);
        }
        return records;
    }
}
