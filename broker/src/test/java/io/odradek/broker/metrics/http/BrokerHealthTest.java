package io.odradek.broker.metrics.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.network.KafkaServer;
import io.odradek.broker.network.NetworkSettings;
import io.odradek.broker.quota.ClientQuotas;
import io.odradek.broker.quota.QuotaWindows;
import io.odradek.broker.quota.RequestThrottler;
import io.odradek.broker.security.ListenerSecurity;
import io.odradek.broker.topics.TopicService;
import io.odradek.log.PartitionLog;
import io.odradek.replication.partition.PartitionWriters;
import io.odradek.replication.partition.Partitions;
import io.odradek.replication.partition.WaitingOperations;
import io.odradek.security.acl.Authorizer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.odradek.broker.metrics.http.BrokerHealth.Status;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probes against listeners that do not accept yet, a stuck writer thread and stopped event loops. */
class BrokerHealthTest {
    @TempDir
    Path logDir;
    TopicService topics;
    KafkaServer server;
    Partitions partitions;
    BrokerHealth health;

    @BeforeEach
    void start() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dirs", logDir.toString()));
        topics = TopicService.open(config);
        // Bound but not accepting: what a cluster broker is until it caught up with the metadata.
        server = KafkaServer.bind(List.of(new KafkaServer.Binding(new InetSocketAddress("127.0.0.1", 0),
                        ListenerSecurity.plaintext("PLAINTEXT"))), new ApiRegistry(), NetworkSettings.defaults(100 << 20),
                new RequestThrottler(new ClientQuotas(QuotaWindows.KAFKA_DEFAULTS), System::currentTimeMillis),
                Authorizer.ALLOW_ALL, false);
        partitions = new Partitions(new Partitions.Source() {
            @Override
            public Optional<PartitionLog> partitionLog(String topic, int partition) {
                return Optional.empty();
            }

            @Override
            public OptionalInt leaderEpoch(String topic, int partition) {
                return OptionalInt.empty();
            }
        }, new PartitionWriters(1), new WaitingOperations<>("test-waiting"));
        health = new BrokerHealth(new ObservedBroker(config, server, topics, null, null, partitions), 300);
    }

    @AfterEach
    void stop() {
        health.close();
        if (server != null) {
            server.close();
        }
        partitions.close();
        topics.close();
    }

    @Test
    void notReadyUntilTheListenersAcceptConnectionsButLive() throws Exception {
        assertThat(health.ready().reason())
                .isEqualTo("listeners not accepting connections yet (catching up with the cluster metadata)");
        assertThat(health.live().ok()).isTrue();

        server.startAccepting();

        assertThat(health.ready().ok()).isTrue();
        try (Socket client = new Socket("127.0.0.1", server.address().getPort())) {
            assertThat(client.isConnected()).isTrue();
        }
    }

    @Test
    void notLiveWhileAPartitionWriterIsStuckAndLiveAgainOnceItRuns() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        partitions.writers().threads().get(0).execute(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        assertThat(liveOnce(status -> !status.ok()).reason()).isEqualTo("partition writer 0 did not run a task within 300 ms");

        release.countDown();
        assertThat(liveOnce(Status::ok).ok()).isTrue();
    }

    @Test
    void aWriterBusyForLongerThanAProbesTimeoutButNotStuckIsLiveAndTheProbeAnswersAtOnce() throws Exception {
        health.close();
        health = new BrokerHealth(new ObservedBroker(BrokerConfig.of(Map.of("log.dirs", logDir.toString())), server,
                topics, null, null, partitions), 5000); // the default timeout
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (MetricsHttpServer http = MetricsHttpServer.start("127.0.0.1", 0, List::of, List.of(), health)) {
            HttpRequest live = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/health/live"))
                    .timeout(Duration.ofSeconds(1)).build(); // Kubernetes' default probe timeout
            assertThat(client.send(live, HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("OK\n");
            CountDownLatch busy = new CountDownLatch(1);
            partitions.writers().threads().get(0).execute(() -> {
                busy.countDown();
                sleep(3000); // an fsync or a segment roll on a loaded disk, well within the 5 s timeout
            });
            busy.await();
            Thread.sleep(300); // the heartbeat's ping now waits behind the busy task

            HttpResponse<String> response = client.send(live, HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode() + " " + response.body()).isEqualTo("200 OK\n");
        }
    }

    @Test
    void readinessAnswersAtOnceWhileTwoSlowScrapesRun() throws Exception {
        server.startAccepting();
        MultiCollector slowLag = () -> {
            sleep(2000); // the consumer lag collector's bound
            return MetricSnapshots.of();
        };
        HttpClient client = HttpClient.newHttpClient();
        try (MetricsHttpServer http = MetricsHttpServer.start("127.0.0.1", 0, List::of, List.of(slowLag), health)) {
            URI metrics = URI.create("http://127.0.0.1:" + http.port() + "/metrics");
            var scrape1 = client.sendAsync(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString());
            var scrape2 = client.sendAsync(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString());
            Thread.sleep(300); // both scrapes are in the collector

            HttpResponse<String> ready = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + http.port() + "/health/ready")).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(ready.statusCode() + " " + ready.body()).isEqualTo("200 OK\n");
            assertThat(scrape1.get().statusCode()).isEqualTo(200);
            assertThat(scrape2.get().statusCode()).isEqualTo(200);
        }
    }

    @Test
    void notLiveOnceTheEventLoopsHaveStopped() throws Exception {
        server.close();
        server = null;

        // Whichever loop the heartbeat finds stopped first is named (they stop in no fixed order).
        assertThat(liveOnce(status -> !status.ok()).reason()).matches("network event loop \\d+ refuses tasks \\(stopped\\)");
    }

    @Test
    void liveButNotReadyOnceShutdownBegins() {
        server.startAccepting();
        health.shuttingDown();

        assertThat(health.live().ok()).isTrue();
        assertThat(health.ready().reason()).isEqualTo("shutting down");
    }

    @Test
    void stillLiveWhileTheEventLoopsStopDuringAShutdown() throws Exception {
        health.shuttingDown();
        server.close(); // what Broker.close does after the controlled shutdown
        server = null;
        Thread.sleep(300); // several heartbeat rounds see the stopped event loops

        assertThat(health.live().ok()).isTrue();
    }

    /** The liveness probe's first answer that passes {@code wanted} (the heartbeat sees threads every 30 ms). */
    private Status liveOnce(Predicate<Status> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Status now = health.live();
        while (!wanted.test(now) && System.nanoTime() < deadline) {
            Thread.sleep(10);
            now = health.live();
        }
        return now;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
