package io.odradek.replication.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.log.AppendResult;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.replication.fetcher.FetchSource;
import io.odradek.replication.fetcher.LeaderFetchServing;
import io.odradek.replication.fetcher.TinyBroker;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.RecordBatchBuilder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two brokers' ReplicaManagers in one JVM following the same images. */
class ReplicaManagerTest {
    private static final UUID ORDERS = UUID.fromString("9d7c1a52-34b6-4f0e-8d21-6a5b4c3d2e1f");
    private static final int PORT_1 = 19_901;
    private static final int PORT_2 = 19_902;

    @TempDir
    Path dir;
    RecordingController controller;
    final List<AutoCloseable> closing = new ArrayList<>();
    Node node1;
    Node node2;

    /** One broker: its logs, Partitions, ReplicaManager and the leadership changes it announced. */
    final class Node implements LocalLogs {
        final int id;
        final Map<String, PartitionLog> logs = new ConcurrentHashMap<>();
        final List<String> deleted = new CopyOnWriteArrayList<>();
        final List<String> leadership = new CopyOnWriteArrayList<>();
        final Partitions partitions;
        final ReplicaManager replicas;

        Node(int id, ReplicationSettings settings) {
            this.id = id;
            PartitionWriters writers = new PartitionWriters(1);
            partitions = new Partitions(new Partitions.Source() {
                @Override
                public Optional<PartitionLog> partitionLog(String topic, int partition) {
                    return Optional.ofNullable(logs.get(topic + "-" + partition));
                }

                @Override
                public OptionalInt leaderEpoch(String topic, int partition) {
                    return OptionalInt.of(0);
                }
            }, writers, new WaitingOperations<>("node-" + id));
            replicas = new ReplicaManager(id, partitions, controller, this, settings, () -> 100L + id);
            replicas.addLeadershipListener((topic, partition, epoch, isLeader) ->
                    leadership.add(topic + "-" + partition + "@" + epoch + (isLeader ? " leader" : " follower")));
            closing.add(() -> {
                replicas.shutdown();
                partitions.close();
                logs.values().forEach(PartitionLog::close);
            });
        }

        @Override
        public PartitionLog getOrCreate(TopicImage topic, int partition) {
            return logs.computeIfAbsent(topic.name() + "-" + partition, k -> PartitionLog.open(
                    dir.resolve("node-" + id).resolve(k), topic.name(), partition, LogConfig.defaults().with(topic.configs()),
                    PartitionLog.Options.defaults().withTopicId(topic.id())));
        }

        @Override
        public void delete(String topic, int partition) {
            PartitionLog log = logs.remove(topic + "-" + partition);
            if (log != null) {
                log.close();
            }
            deleted.add(topic + "-" + partition);
        }

        Partition partition() {
            return partitions.partition("orders", 0).orElseThrow();
        }

        FetchSource fetchingFrom() {
            return replicas.fetchers().sourceOf(ORDERS, 0);
        }
    }

    @BeforeEach
    void setUp() {
        controller = new RecordingController();
        node1 = new Node(1, ReplicationSettings.DEFAULTS);
        node2 = new Node(2, ReplicationSettings.DEFAULTS);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    private static BrokerRegistration broker(int id, int port, boolean fenced) {
        return new BrokerRegistration(id, 10 + id, new UUID(0, id),
                List.of(new Endpoint("PLAINTEXT", "127.0.0.1", port)), null, fenced, false);
    }

    private static ClusterImage image(long offset, boolean broker1Fenced, PartitionRegistration... orders) {
        TreeMap<Integer, BrokerRegistration> brokers = new TreeMap<>();
        brokers.put(1, broker(1, PORT_1, broker1Fenced));
        brokers.put(2, broker(2, PORT_2, false));
        TreeMap<String, TopicImage> topics = new TreeMap<>();
        if (orders.length > 0) {
            topics.put("orders", new TopicImage("orders", ORDERS, Map.of(), List.of(orders)));
        }
        return new ClusterImage(offset, "cluster", brokers, topics, 0);
    }

    private static PartitionRegistration led(int leader, List<Integer> isr, int leaderEpoch, int partitionEpoch) {
        return new PartitionRegistration(List.of(1, 2), isr, List.of(), List.of(), leader, leaderEpoch, partitionEpoch);
    }

    private void applyToBoth(ClusterImage image) {
        node1.replicas.applyImage(image);
        node2.replicas.applyImage(image);
    }

    @Test
    void anImageMakesTheLeaderAndAFollowerFetchingFromItsEndpoint() {
        applyToBoth(image(5, false, led(1, List.of(1, 2), 0, 0)));

        assertThat(node1.partition().isLeader()).isTrue();
        assertThat(node1.partition().inSyncReplicas()).containsExactly(1, 2);
        assertThat(node1.fetchingFrom()).isNull();
        assertThat(node1.leadership).containsExactly("orders-0@0 leader");

        assertThat(node2.partition().isLeader()).isFalse();
        assertThat(node2.partition().leaderId()).isEqualTo(1);
        assertThat(node2.partition().checkLeader(0).name()).isEqualTo("NOT_LEADER_OR_FOLLOWER");
        assertThat(node2.fetchingFrom()).isEqualTo(new FetchSource(1, "127.0.0.1", PORT_1));
        assertThat(node2.leadership).containsExactly("orders-0@0 follower");
        assertThat(node1.logs.get("orders-0").topicId()).isEqualTo(ORDERS);
        assertThat(node2.logs.get("orders-0").topicId()).isEqualTo(ORDERS);
    }

    @Test
    void leadershipMovesWhenTheImageElectsAnotherLeader() {
        applyToBoth(image(5, false, led(1, List.of(1, 2), 0, 0)));
        Partition before = node1.partition();

        applyToBoth(image(6, false, led(2, List.of(1, 2), 1, 1)));

        assertThat(node1.partition()).isSameAs(before);
        assertThat(node1.partition().isLeader()).isFalse();
        assertThat(node1.fetchingFrom()).isEqualTo(new FetchSource(2, "127.0.0.1", PORT_2));
        assertThat(node1.leadership).containsExactly("orders-0@0 leader", "orders-0@1 follower");
        assertThat(node2.partition().isLeader()).isTrue();
        assertThat(node2.partition().leaderEpoch()).isEqualTo(1);
        assertThat(node2.fetchingFrom()).isNull();
        assertThat(node2.leadership).containsExactly("orders-0@0 follower", "orders-0@1 leader");
    }

    @Test
    void anIsrChangeAtTheSameLeaderEpochIsAdoptedWithoutALeadershipEvent() {
        applyToBoth(image(5, false, led(1, List.of(1, 2), 0, 0)));
        applyToBoth(image(6, false, led(1, List.of(1), 0, 1)));

        assertThat(node1.partition().inSyncReplicas()).containsExactly(1);
        assertThat(node1.partition().state().partitionEpoch()).isEqualTo(1);
        assertThat(node2.partition().inSyncReplicas()).containsExactly(1);
        assertThat(node1.leadership).containsExactly("orders-0@0 leader");
        assertThat(node2.leadership).containsExactly("orders-0@0 follower");
        assertThat(node2.fetchingFrom()).isEqualTo(new FetchSource(1, "127.0.0.1", PORT_1));
    }

    @Test
    void aFollowerWhoseLeaderIsFencedWaitsForALaterImage() {
        node2.replicas.applyImage(image(5, true, led(1, List.of(1, 2), 0, 0)));
        assertThat(node2.partition().leaderId()).isEqualTo(1);
        assertThat(node2.fetchingFrom()).isNull();

        node2.replicas.applyImage(image(6, false, led(1, List.of(1, 2), 0, 0)));
        assertThat(node2.fetchingFrom()).isEqualTo(new FetchSource(1, "127.0.0.1", PORT_1));
    }

    @Test
    void aDeletedTopicsReplicasStopAndTheirLogsAreDeleted() {
        applyToBoth(image(5, false, led(1, List.of(1, 2), 0, 0)));

        applyToBoth(image(6, false));

        assertThat(node1.partitions.partition("orders", 0)).isEmpty();
        assertThat(node2.partitions.partition("orders", 0)).isEmpty();
        assertThat(node1.deleted).containsExactly("orders-0");
        assertThat(node2.deleted).containsExactly("orders-0");
        assertThat(node2.fetchingFrom()).isNull();
        assertThat(node1.leadership).containsExactly("orders-0@0 leader", "orders-0@0 follower");
    }

    @Test
    void aReplicaReassignedAwayIsRemovedAndOnlyAssignedReplicasGetLogs() {
        applyToBoth(image(5, false, led(1, List.of(1, 2), 0, 0)));

        PartitionRegistration onlyOnOne = new PartitionRegistration(List.of(1), List.of(1), List.of(), List.of(),
                1, 0, 1);
        applyToBoth(image(6, false, onlyOnOne));

        assertThat(node1.partition().isLeader()).isTrue();
        assertThat(node1.partition().inSyncReplicas()).containsExactly(1);
        assertThat(node2.partitions.partition("orders", 0)).isEmpty();
        assertThat(node2.deleted).containsExactly("orders-0");
        assertThat(node2.logs).isEmpty();
    }

    @Test
    void aFollowerThatStopsFetchingIsShrunkOutByThePeriodicCheck() throws InterruptedException {
        Node fast = new Node(3, ReplicationSettings.DEFAULTS.withReplicaLagTimeMaxMs(50));
        TreeMap<Integer, BrokerRegistration> brokers = new TreeMap<>(Map.of(3, broker(3, 19_903, false),
                2, broker(2, PORT_2, false)));
        TopicImage orders = new TopicImage("orders", ORDERS, Map.of(), List.of(
                new PartitionRegistration(List.of(3, 2), List.of(3, 2), List.of(), List.of(), 3, 4, 9)));
        fast.replicas.applyImage(new ClusterImage(5, "cluster", brokers, new TreeMap<>(Map.of("orders", orders)), 0));

        for (int i = 0; i < 500 && controller.alterPartitions().isEmpty(); i++) {
            Thread.sleep(10);
        }

        assertThat(controller.alterPartitions()).containsExactly(
                new ControllerCommand.AlterPartition(3, 103L, ORDERS, 0, 4, 9, List.of(3)));
    }

    @Test
    void withoutAReplicaManagerPartitionsAreStillMadeOnFirstUse() {
        Partitions lazy = new Partitions(new Partitions.Source() {
            @Override
            public Optional<PartitionLog> partitionLog(String topic, int partition) {
                return Optional.ofNullable(node1.logs.get(topic + "-" + partition));
            }

            @Override
            public OptionalInt leaderEpoch(String topic, int partition) {
                return OptionalInt.of(7);
            }
        }, new PartitionWriters(1), new WaitingOperations<>("lazy"));
        closing.add(lazy);
        node1.getOrCreate(new TopicImage("orders", ORDERS, Map.of(), List.of(led(1, List.of(1), 0, 0))), 0);

        assertThat(lazy.isManaged()).isFalse();
        assertThat(lazy.partition("orders", 0).orElseThrow().leaderEpoch()).isEqualTo(7);
        assertThat(node1.partitions.isManaged()).isTrue();
        assertThat(node1.partitions.partition("orders", 0)).isEmpty();
    }

    @Test
    void anAcksAllWriteOnTheLeaderCompletesOnceTheFollowersFetcherHasCopiedIt() throws Exception {
        TinyBroker leaderEndpoint = new TinyBroker(request -> LeaderFetchServing.answer(request,
                (topicId, p) -> node1.partitions.partition("orders", p).orElse(null), ErrorCode.NONE));
        closing.add(0, leaderEndpoint);
        TreeMap<Integer, BrokerRegistration> brokers = new TreeMap<>(Map.of(
                1, new BrokerRegistration(1, 11, new UUID(0, 1), List.of(new Endpoint("PLAINTEXT",
                        leaderEndpoint.host(), leaderEndpoint.port())), null, false, false),
                2, broker(2, PORT_2, false)));
        applyToBoth(new ClusterImage(5, "cluster", brokers, new TreeMap<>(Map.of("orders", new TopicImage("orders",
                ORDERS, Map.of(), List.of(led(1, List.of(1, 2), 0, 0))))), 0));

        RecordBatchBuilder b = new RecordBatchBuilder(1_000L);
        b.append("k".getBytes(StandardCharsets.UTF_8), "acked".getBytes(StandardCharsets.UTF_8));
        AppendResult appended = node1.partition().appendAsLeader(b.build(), (short) -1).get(5, TimeUnit.SECONDS);
        AppendResult committed = node1.partition().whenCommitted(appended).get(10, TimeUnit.SECONDS);

        assertThat(committed.baseOffset()).isZero();
        assertThat(node1.partition().highWatermark()).isEqualTo(1L);
        assertThat(node2.partition().logEndOffset()).isEqualTo(1L);
        for (int i = 0; i < 1_000 && node2.partition().highWatermark() < 1; i++) {
            Thread.sleep(10);
        }
        assertThat(node2.partition().highWatermark()).isEqualTo(1L);
    }

    @Test
    void aReplicaMovedToAnotherDirIsServedByAFreshPartitionAtTheSameLeaderEpoch() throws Exception {
        applyToBoth(image(5, false, led(1, List.of(1), 0, 0)));
        Partition before = node1.partition();
        RecordBatchBuilder b = new RecordBatchBuilder(1_000L);
        b.append("k".getBytes(StandardCharsets.UTF_8), "kept".getBytes(StandardCharsets.UTF_8));
        before.appendAsLeader(b.build(), (short) 1).get(5, TimeUnit.SECONDS);
        Path newDir = dir.resolve("node-1-second-dir");

        node1.replicas.moveReplica("orders", 0, () -> {
            PartitionLog old = node1.logs.get("orders-0");
            old.close();
            try {
                java.nio.file.Files.createDirectories(newDir.resolve("orders-0"));
                try (var files = java.nio.file.Files.list(old.dir())) {
                    for (Path f : files.toList()) {
                        java.nio.file.Files.copy(f, newDir.resolve("orders-0").resolve(f.getFileName()));
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            PartitionLog moved = PartitionLog.open(newDir, "orders", 0, LogConfig.defaults(),
                    PartitionLog.Options.defaults().withTopicId(ORDERS).withCleanShutdown(true));
            node1.logs.put("orders-0", moved);
            return moved;
        });

        Partition after = node1.partition();
        assertThat(after).isNotSameAs(before);
        assertThat(after.log().dir()).isEqualTo(newDir.resolve("orders-0"));
        assertThat(after.isLeader()).isTrue();
        assertThat(after.leaderEpoch()).isZero();
        assertThat(after.highWatermark()).isEqualTo(1L);
        assertThat(before.checkEnoughReplicasReachOffset(1L, 0)).contains(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        assertThat(node1.leadership).containsExactly("orders-0@0 leader", "orders-0@0 follower", "orders-0@0 leader");
        assertThat(node1.deleted).isEmpty();
    }

    @Test
    void aFailedMoveLeavesTheReplicaServingItsLog() {
        applyToBoth(image(5, false, led(1, List.of(1, 2), 0, 0)));
        PartitionLog log = node2.logs.get("orders-0");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> node2.replicas.moveReplica("orders", 0, () -> {
            throw new io.odradek.log.LogException(ErrorCode.KAFKA_STORAGE_ERROR, "disk full");
        })).isInstanceOf(io.odradek.log.LogException.class).hasMessage("disk full");

        assertThat(node2.partition().log()).isSameAs(log);
        assertThat(node2.partition().isLeader()).isFalse();
        assertThat(node2.fetchingFrom()).isEqualTo(new FetchSource(1, "127.0.0.1", PORT_1));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> node2.replicas.moveReplica("orders", 7, () -> log))
                .isInstanceOf(io.odradek.log.LogException.class);
    }
}
