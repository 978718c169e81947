package io.odradek.compat.cluster;

import static io.odradek.compat.cluster.ClusterClients.awaitIsr;
import static io.odradek.compat.cluster.ClusterClients.leader;
import static io.odradek.compat.cluster.ClusterClients.readAll;
import static io.odradek.compat.cluster.ClusterClients.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The three brokers as separate hosts (one network namespace each, on a bridge; needs root, skipped otherwise):
 * the partition leader's link goes down while it keeps running. A client on the leader's own host writes to it
 * with acks=all and is not acknowledged; the others elect a new leader and take writes; when the link comes back
 * the old leader truncates its unacknowledged tail and follows. {@link LeaderFailoverTest} does the same with
 * SIGSTOP on loopback, which works anywhere.
 */
class NetworkPartitionTest {
    private static OdradekCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        assumeTrue(Namespaces.available(), "network namespaces need root and iproute2 (ip netns)");
        cluster = OdradekCluster.launchInNamespaces(3, Map.of());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aLeaderWhoseLinkIsDownCannotCompleteAcksAllWritesAndTruncatesThemWhenItIsBack() throws Exception {
        String topic = "partitioned";
        cluster.admin().createTopics(List.of(new NewTopic(topic, 1, (short) 3)
                .configs(Map.of("min.insync.replicas", "2")))).all().get(60, TimeUnit.SECONDS);
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(30));
        List<String> before = IntStream.range(0, 100).mapToObj(i -> "before-" + i).toList();
        List<String> after = IntStream.range(0, 100).mapToObj(i -> "after-" + i).toList();
        try (KafkaProducer<String, String> producer = ClusterClients.producer(cluster)) {
            sendAll(producer, topic, before);
        }
        int old = leader(cluster, topic, 0);
        int[] others = cluster.others(old);

        cluster.disconnect(old);
        // A client on the cut-off leader's own host: the leader takes the write but cannot get it replicated.
        ProduceResponseData.PartitionProduceResponse answer = produceFromInside(old, topic,
                IntStream.range(0, 10).mapToObj(i -> "unacked-" + i).toList());
        assertThat(answer).as("the cut-off leader's answer to acks=all\n%s", cluster.describe()).isNotNull();
        assertThat(answer.errorCode()).as("error code (0 would be an acknowledgement)").isNotZero();

        Admin othersAdmin = ClusterClients.admin(cluster, cluster.bootstrap(others), 3000, 10000);
        AtomicInteger elected = new AtomicInteger(-1);
        OdradekCluster.awaitCondition("a new leader among " + Arrays.toString(others), Duration.ofSeconds(30), () -> {
            var p = ClusterClients.describe(cluster, othersAdmin, topic).partitions().get(0);
            elected.set(p.leader() == null ? -1 : p.leader().id());
            return elected.get() != -1 && elected.get() != old;
        });
        int next = elected.get();
        try (KafkaProducer<String, String> producer = ClusterClients.producer(cluster, cluster.bootstrap(others),
                Map.of())) {
            sendAll(producer, topic, after);
        }

        cluster.reconnect(old);
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(60));
        List<String> expected = new ArrayList<>(before);
        expected.addAll(after);
        assertThat(values(readAll(cluster.bootstrap(), new TopicPartition(topic, 0), "read_uncommitted")))
                .containsExactlyElementsOf(expected);
        OdradekCluster.awaitCondition("broker " + old + "'s copy equal to the new leader's", Duration.ofSeconds(30),
                () -> {
                    try {
                        return Objects.equals(ReplicaFiles.read(cluster.logDir(old), topic, 0),
                                ReplicaFiles.read(cluster.logDir(next), topic, 0));
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
        assertThat(ReplicaFiles.read(cluster.logDir(old), topic, 0).values()).containsExactlyElementsOf(expected);
    }

    /**
     * One acks=all Produce (2 s timeout) sent from inside node {@code id}'s namespace with bash's /dev/tcp, its
     * answer collected for 8 s (none at all fails the test: Kafka answers REQUEST_TIMED_OUT).
     */
    private static ProduceResponseData.PartitionProduceResponse produceFromInside(int id, String topic,
            List<String> values) throws IOException, InterruptedException {
        RequestHeader header = RawProducer.header();
        Path request = Files.createTempFile(cluster.dir(), "request", ".bin");
        Path response = cluster.dir().resolve("response-" + System.nanoTime() + ".bin");
        Files.write(request, RawProducer.frame(header, topic, 0, 2000, values));
        List<String> command = new ArrayList<>(cluster.inNamespaceOf(id));
        command.addAll(List.of("bash", "-c", "exec 3<>/dev/tcp/" + cluster.host(id) + "/" + cluster.clientPort(id)
                + " && cat " + request + " >&3 && timeout 8 cat <&3 >" + response + "; true"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(30, TimeUnit.SECONDS);
        byte[] bytes = Files.exists(response) ? Files.readAllBytes(response) : new byte[0];
        if (bytes.length < 4) {
            throw new AssertionError("no answer from inside node " + id + "'s namespace: " + out);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        byte[] frame = new byte[b.getInt()];
        b.get(frame);
        return RawProducer.parse(frame, header);
    }

    private static void sendAll(KafkaProducer<String, String> producer, String topic, List<String> values)
            throws Exception {
        List<Future<?>> acks = new ArrayList<>();
        for (String v : values) {
            acks.add(producer.send(new ProducerRecord<>(topic, 0, "k-" + v, v)));
        }
        for (Future<?> ack : acks) {
            ack.get(120, TimeUnit.SECONDS);
        }
    }
}
