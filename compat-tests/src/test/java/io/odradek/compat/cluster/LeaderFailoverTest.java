package io.odradek.compat.cluster;

import static io.odradek.compat.cluster.ClusterClients.awaitIsr;
import static io.odradek.compat.cluster.ClusterClients.ids;
import static io.odradek.compat.cluster.ClusterClients.leader;
import static io.odradek.compat.cluster.ClusterClients.partition;
import static io.odradek.compat.cluster.ClusterClients.readAll;
import static io.odradek.compat.cluster.ClusterClients.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ProduceResponseData;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three Odradek brokers as separate processes sharing one cluster; each test has its own topic with replication
 * factor 3 and min.insync.replicas=2 and loses its partition's leader a different way: SIGKILL (a crash), SIGSTOP
 * (a leader cut off from the others, then back) and SIGTERM (a controlled shutdown).
 */
class LeaderFailoverTest extends WithThreeNodeCluster {
    private static final int RECORDS = 200_000;

    /** A test that failed half way leaves no node dead or frozen for the next. */
    @BeforeEach
    void allNodesUp() throws Exception {
        cluster.heal();
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // 200,000 records replicated three times on two shared cores
    void everyAcknowledgedRecordSurvivesTheLeadersSigkillExactlyOnceInOrder() throws Exception {
        String topic = "failover";
        createReplicatedTopic(topic);
        int leader = leader(cluster, topic, 0);

        Set<Integer> acknowledged = new ConcurrentSkipListSet<>();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<Exception> firstError = new AtomicReference<>();
        try (KafkaProducer<String, String> producer = ClusterClients.producer(cluster)) {
            for (int i = 0; i < RECORDS; i++) {
                int n = i;
                producer.send(new ProducerRecord<>(topic, 0, "k" + n, Integer.toString(n)), (metadata, error) -> {
                    if (error == null) {
                        acknowledged.add(n);
                    } else {
                        failed.incrementAndGet();
                        firstError.compareAndSet(null, error);
                    }
                });
                if (i == RECORDS / 4) {
                    producer.flush();
                    cluster.kill(leader);
                }
            }
            producer.flush();
        }
        // An idempotent producer with a 2 minute delivery timeout rides out the election: every send succeeds.
        assertThat(failed.get()).as("failed sends (first: %s)\n%s", firstError.get(), cluster.describe()).isZero();
        assertThat(acknowledged).hasSize(RECORDS);
        assertThat(leader(cluster, topic, 0)).as("leader after the kill").isNotIn(leader, -1);

        List<ConsumerRecord<String, String>> read = readAll(cluster.bootstrap(), new TopicPartition(topic, 0),
                "read_uncommitted");
        assertThat(read).allSatisfy(r -> assertThat(r.key()).isEqualTo("k" + r.value()));
        // Every record acknowledged, so exactly 0..RECORDS-1 in order, at offsets 0..RECORDS-1.
        assertExactlyZeroTo(RECORDS, read);

        // The killed broker returns, catches up from the new leader and is back in the ISR, holding the same records.
        cluster.start(leader);
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(60));
        int now = leader(cluster, topic, 0);
        awaitSameReplicaFiles(topic, now, leader);
        assertThat(ReplicaFiles.read(cluster.logDir(leader), topic, 0).logEnd()).isEqualTo(RECORDS);
    }

    @Test
    void aLeaderCutOffCannotCompleteAcksAllWritesAndDropsThemWhenItRejoinsTheNewLeader() throws Exception {
        String topic = "cutoff";
        createReplicatedTopic(topic);
        List<String> before = IntStream.range(0, 100).mapToObj(i -> "before-" + i).toList();
        List<String> after = IntStream.range(0, 100).mapToObj(i -> "after-" + i).toList();
        List<String> unacknowledged = IntStream.range(0, 10).mapToObj(i -> "unacked-" + i).toList();
        try (KafkaProducer<String, String> producer = ClusterClients.producer(cluster)) {
            sendAll(producer, topic, before);
        }
        int old = leader(cluster, topic, 0);
        int[] others = cluster.others(old);
        Admin othersAdmin = ClusterClients.admin(cluster, cluster.bootstrap(others), 3000, 10000);

        cluster.pause(old);
        ProduceResponseData.PartitionProduceResponse answer;
        int next;
        try (RawProducer raw = new RawProducer(cluster.clientPort(old))) {
            // Waits in the frozen leader's socket; it handles it when it runs again, still believing it leads.
            raw.send(topic, 0, 2000, unacknowledged);
            AtomicInteger elected = new AtomicInteger(-1);
            OdradekCluster.awaitCondition("a new leader among " + List.of(others[0], others[1]), Duration.ofSeconds(30),
                    () -> {
                        var p = ClusterClients.describe(cluster, othersAdmin, topic).partitions().get(0);
                        elected.set(p.leader() == null ? -1 : p.leader().id());
                        return elected.get() != -1 && elected.get() != old;
                    });
            next = elected.get();
            try (KafkaProducer<String, String> producer = ClusterClients.producer(cluster, cluster.bootstrap(others),
                    Map.of())) {
                sendAll(producer, topic, after);
            }
            cluster.resume(old);
            answer = raw.answer(15_000);
        }
        assertThat(answer == null ? "no answer" : "error " + answer.errorCode())
                .as("the cut-off leader's answer to an acks=all write (0 would be an acknowledgement)\n%s",
                        cluster.describe())
                .isNotEqualTo("error 0");

        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(60));
        List<String> expected = new ArrayList<>(before);
        expected.addAll(after);
        assertThat(values(readAll(cluster.bootstrap(), new TopicPartition(topic, 0), "read_uncommitted")))
                .as("what consumers read").containsExactlyElementsOf(expected);
        // The old leader truncated its divergent tail: its files hold what the new leader's hold, no "unacked-".
        awaitSameReplicaFiles(topic, next, old);
        ReplicaFiles.Content oldFiles = ReplicaFiles.read(cluster.logDir(old), topic, 0);
        assertThat(oldFiles.values()).containsExactlyElementsOf(expected);
        assertThat(oldFiles.logEnd()).isEqualTo(ReplicaFiles.read(cluster.logDir(next), topic, 0).logEnd())
                .isEqualTo(expected.size());
    }

    @Test
    void aLeaderStoppedWithSigtermHandsOverLeadershipBeforeItExitsAndTheProducerSeesNoError() throws Exception {
        String topic = "graceful";
        createReplicatedTopic(topic);
        int old = leader(cluster, topic, 0);
        int[] others = cluster.others(old);
        Admin othersAdmin = ClusterClients.admin(cluster, cluster.bootstrap(others), 3000, 10000);

        // Watches the leader through the two other brokers while the old one shuts down.
        AtomicLong exitedAt = new AtomicLong();
        AtomicLong movedAt = new AtomicLong();
        cluster.process(old).onExit().thenRun(() -> exitedAt.set(System.nanoTime()));
        Thread watcher = new Thread(() -> {
            while (movedAt.get() == 0 && !Thread.currentThread().isInterrupted()) {
                try {
                    var p = ClusterClients.describe(cluster, othersAdmin, topic).partitions().get(0);
                    if (p.leader() != null && p.leader().id() != old) {
                        movedAt.set(System.nanoTime());
                    }
                } catch (AssertionError e) {
                    // a slow answer: ask again
                }
            }
        }, "leader-watcher");

        AtomicInteger failed = new AtomicInteger();
        AtomicReference<Exception> firstError = new AtomicReference<>();
        Set<Integer> acknowledged = new ConcurrentSkipListSet<>();
        int sent = 0;
        try (KafkaProducer<String, String> producer = ClusterClients.producer(cluster)) {
            CompletableFuture<Void> stopped = null;
            int sentAtStop = -1;
            while (sentAtStop < 0 || !stopped.isDone() || sent < sentAtStop + 20_000) {
                int n = sent++;
                producer.send(new ProducerRecord<>(topic, 0, "k" + n, Integer.toString(n)), (metadata, error) -> {
                    if (error == null) {
                        acknowledged.add(n);
                    } else {
                        failed.incrementAndGet();
                        firstError.compareAndSet(null, error);
                    }
                });
                if (n == 20_000) {
                    producer.flush();
                    watcher.start();
                    sentAtStop = n;
                    stopped = CompletableFuture.runAsync(() -> {
                        try {
                            cluster.stop(old);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    });
                }
                if (n > 2_000_000) {
                    throw new AssertionError("broker " + old + " did not stop on SIGTERM\n" + cluster.describe());
                }
            }
            producer.flush();
        } finally {
            watcher.interrupt();
            watcher.join(10_000);
        }
        assertThat(failed.get()).as("failed sends (first: %s)\n%s", firstError.get(), cluster.describe()).isZero();
        assertThat(acknowledged).hasSize(sent);
        assertThat(cluster.isRunning(old)).isFalse();
        // Kafka's rule: the leadership moves during the shutdown, not after the session timeout (3 s here) fences
        // a silent broker. The watcher sees the new leader through other brokers, so allow it a moment after exit.
        assertThat(movedAt.get()).as("the leader moved away from broker %d\n%s", old, cluster.describe()).isNotZero();
        long movedMsAfterExit = TimeUnit.NANOSECONDS.toMillis(movedAt.get() - exitedAt.get());
        assertThat(movedMsAfterExit).as("ms from the process's exit to the new leader being visible "
                + "(negative: before; the session timeout would take 3000)").isLessThan(1000);

        assertExactlyZeroTo(sent, readAll(cluster.bootstrap(others), new TopicPartition(topic, 0), "read_uncommitted"));

        cluster.start(old);
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(60));
    }

    /**
     * The records are values 0..count-1 at offsets 0..count-1, keys "k" + value: each acknowledged record once, in
     * order (checked in one pass; AssertJ's collection assertions are quadratic on 200,000 elements).
     */
    private static void assertExactlyZeroTo(int count, List<ConsumerRecord<String, String>> read) {
        for (int i = 0; i < Math.min(count, read.size()); i++) {
            ConsumerRecord<String, String> r = read.get(i);
            if (r.offset() != i || !r.value().equals(Integer.toString(i)) || !r.key().equals("k" + i)) {
                throw new AssertionError("record " + i + " read back is " + r.key() + "=" + r.value() + " at offset "
                        + r.offset() + "; the ones before it were right");
            }
        }
        assertThat(read.size()).as("records read back").isEqualTo(count);
    }

    private static void createReplicatedTopic(String topic) throws Exception {
        cluster.admin().createTopics(List.of(new NewTopic(topic, 1, (short) 3)
                .configs(Map.of("min.insync.replicas", "2")))).all().get(60, TimeUnit.SECONDS);
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(30));
        assertThat(ids(partition(cluster, topic, 0).replicas())).containsExactlyInAnyOrder(1, 2, 3);
    }

    private static void sendAll(KafkaProducer<String, String> producer, String topic, List<String> values)
            throws Exception {
        List<java.util.concurrent.Future<?>> acks = new ArrayList<>();
        for (String v : values) {
            acks.add(producer.send(new ProducerRecord<>(topic, 0, "k-" + v, v)));
        }
        for (var ack : acks) {
            ack.get(120, TimeUnit.SECONDS);
        }
    }

    /** Waits until every live replica's files hold the same records and log end as the leader's. */
    private static void awaitSameReplicaFiles(String topic, int leader, int follower) {
        OdradekCluster.awaitCondition("broker " + follower + "'s copy of " + topic + "-0 equal to leader " + leader
                + "'s", Duration.ofSeconds(30), () -> {
                    try {
                        return Objects.equals(ReplicaFiles.read(cluster.logDir(leader), topic, 0),
                                ReplicaFiles.read(cluster.logDir(follower), topic, 0));
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
    }
}
