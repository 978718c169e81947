package io.odradek.compat.cluster;

import static io.odradek.compat.cluster.ClusterClients.awaitIsr;
import static io.odradek.compat.cluster.ClusterClients.readAll;
import static io.odradek.compat.cluster.ClusterClients.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The group and transaction coordinators live with the leaders of __consumer_offsets and __transaction_state
 * partitions (replication factor 3 here); SIGKILL of the coordinator's broker moves them to a follower that has
 * the committed offsets and transaction state, and clients carry on from there.
 */
class CoordinatorFailoverTest extends WithThreeNodeCluster {
    @BeforeEach
    void allNodesUp() throws Exception {
        cluster.heal();
    }

    @Test
    void aConsumerGroupResumesFromItsCommittedOffsetsAfterTheCoordinatorsBrokerIsKilled() throws Exception {
        String topic = "orders";
        String group = "billing";
        TopicPartition tp = new TopicPartition(topic, 0);
        cluster.admin().createTopics(List.of(new NewTopic(topic, 1, (short) 3))).all().get(60, TimeUnit.SECONDS);
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(30));
        List<String> records = IntStream.range(0, 300).mapToObj(i -> "order-" + i).toList();
        try (KafkaProducer<String, String> producer = ClusterClients.producer(cluster)) {
            List<Future<?>> acks = new ArrayList<>();
            for (String r : records) {
                acks.add(producer.send(new ProducerRecord<>(topic, 0, "k", r)));
            }
            for (Future<?> ack : acks) {
                ack.get(60, TimeUnit.SECONDS);
            }
        }

        List<Long> readByFirst = new ArrayList<>();
        int killed;
        try (KafkaConsumer<String, String> first = consumer(group)) {
            first.subscribe(List.of(topic));
            // 100 records read and committed.
            long committed = readAndCommit(first, tp, readByFirst, 100, -1);
            assertThat(committed).isEqualTo(100);
            killed = cluster.admin().describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS)
                    .get(group).coordinator().id();
            assertThat(offsetsTopicIsr()).as("every __consumer_offsets partition on all brokers").allSatisfy(
                    isr -> assertThat(isr).containsExactlyInAnyOrder(1, 2, 3));
            cluster.kill(killed);

            // The same consumer finds the new coordinator and carries on: 100 more read and committed there.
            committed = readAndCommit(first, tp, readByFirst, 200, committed);
            assertThat(committed).isEqualTo(200);
            int coordinator = cluster.admin().describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS)
                    .get(group).coordinator().id();
            assertThat(coordinator).as("the new group coordinator").isNotEqualTo(killed);
            // 50 more read but not committed when the consumer goes away.
            while (readByFirst.isEmpty() || readByFirst.get(readByFirst.size() - 1) < 249) {
                for (ConsumerRecord<String, String> r : first.poll(Duration.ofMillis(200)).records(tp)) {
                    readByFirst.add(r.offset());
                }
            }
        }
        // Read with no gap; anything read twice was after the last commit (a rebalance rewinds to it, no further).
        assertThat(readByFirst.stream().distinct().toList()).isEqualTo(
                IntStream.rangeClosed(0, (int) (long) readByFirst.get(readByFirst.size() - 1)).mapToObj(i -> (long) i)
                        .toList());
        Map<TopicPartition, OffsetAndMetadata> offsets = cluster.admin().listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        assertThat(offsets.get(tp).offset()).isEqualTo(200);

        // A new member of the group starts at the committed offset 200: nothing skipped, nothing committed re-read.
        List<String> readBySecond = new ArrayList<>();
        try (KafkaConsumer<String, String> second = consumer(group)) {
            second.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (readBySecond.size() < 100 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : second.poll(Duration.ofMillis(200)).records(tp)) {
                    readBySecond.add(r.value());
                }
            }
        }
        assertThat(readBySecond).as("read by the second consumer\n%s", cluster.describe())
                .containsExactlyElementsOf(records.subList(200, 300));

        cluster.start(killed);
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(60));
    }

    @Test
    void aTransactionalProducerCommitsItsNextTransactionAfterTheTransactionCoordinatorsBrokerIsKilled()
            throws Exception {
        String topic = "ledger";
        String transactionalId = "ledger-writer";
        TopicPartition tp = new TopicPartition(topic, 0);
        cluster.admin().createTopics(List.of(new NewTopic(topic, 1, (short) 3)
                .configs(Map.of("min.insync.replicas", "2")))).all().get(60, TimeUnit.SECONDS);
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(30));

        KafkaProducer<String, String> producer = ClusterClients.producer(cluster, cluster.bootstrap(), Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, "60000"));
        producer.initTransactions();
        transaction(producer, topic, "t1", 10, true);
        transaction(producer, topic, "t2", 10, false);
        int killed = cluster.admin().describeTransactions(List.of(transactionalId)).description(transactionalId)
                .get(30, TimeUnit.SECONDS).coordinatorId();
        cluster.kill(killed);

        // The producer finds the new coordinator, which loaded the replicated state: its transactions go on.
        transaction(producer, topic, "t3", 10, true);
        transaction(producer, topic, "t4", 10, false);
        transaction(producer, topic, "t5", 10, true);
        int coordinator = cluster.admin().describeTransactions(List.of(transactionalId)).description(transactionalId)
                .get(30, TimeUnit.SECONDS).coordinatorId();
        assertThat(coordinator).as("the new transaction coordinator").isNotEqualTo(killed);
        producer.close();
        // The commit returns once it is decided; the markers that end it follow.
        OdradekCluster.awaitCondition(transactionalId + " CompleteCommit", Duration.ofSeconds(30), () -> {
            try {
                return cluster.admin().describeTransactions(List.of(transactionalId)).description(transactionalId)
                        .get(10, TimeUnit.SECONDS).state() == TransactionState.COMPLETE_COMMIT;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });

        List<String> expected = new ArrayList<>();
        for (String t : List.of("t1", "t3", "t5")) {
            IntStream.range(0, 10).mapToObj(i -> t + "-" + i).forEach(expected::add);
        }
        int[] live = cluster.others(killed);
        assertThat(values(readAll(cluster.bootstrap(live), tp, "read_committed")))
                .as("read_committed sees exactly the committed transactions\n%s", cluster.describe())
                .containsExactlyElementsOf(expected);
        // read_uncommitted sees the aborted ones too, each once; offsets also count the markers: five, or six
        // when the coordinator died after t2's abort marker was written but before its CompleteAbort was
        // replicated, so the new coordinator wrote that marker again (as Kafka's does).
        List<ConsumerRecord<String, String>> all = readAll(cluster.bootstrap(live), tp, "read_uncommitted");
        assertThat(all).hasSize(50);
        long end = cluster.admin().listOffsets(Map.of(tp, OffsetSpec.latest())).all().get(30, TimeUnit.SECONDS)
                .get(tp).offset();
        assertThat(end).isBetween(55L, 56L);

        cluster.start(killed);
        awaitIsr(cluster, topic, 0, Set.of(1, 2, 3), Duration.ofSeconds(60));
    }

    private static void transaction(KafkaProducer<String, String> producer, String topic, String name, int count,
            boolean commit) throws Exception {
        producer.beginTransaction();
        List<Future<?>> acks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            acks.add(producer.send(new ProducerRecord<>(topic, 0, name, name + "-" + i)));
        }
        for (Future<?> ack : acks) {
            ack.get(60, TimeUnit.SECONDS);
        }
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.abortTransaction();
        }
    }

    private static KafkaConsumer<String, String> consumer(String group) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "20");
        c.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
        c.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000");
        c.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        return new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer());
    }

    /**
     * Polls and commits after each poll until {@code target} is committed; records every offset read and fails if a
     * record below the last commit is read again. Returns the committed offset.
     */
    private static long readAndCommit(KafkaConsumer<String, String> consumer, TopicPartition tp, List<Long> read,
            long target, long committedBefore) {
        long committed = committedBefore;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (committed < target) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("committed only " + committed + " of " + target + "\n" + cluster.describe());
            }
            long next = -1;
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200)).records(tp)) {
                assertThat(r.offset()).as("a record read again below the committed offset").isGreaterThanOrEqualTo(
                        Math.max(committed, 0));
                if (r.offset() >= target) {
                    consumer.seek(tp, target);
                    break;
                }
                read.add(r.offset());
                next = r.offset() + 1;
            }
            if (next > 0) {
                consumer.commitSync(Map.of(tp, new OffsetAndMetadata(next)), Duration.ofSeconds(60));
                committed = next;
            }
        }
        return committed;
    }

    private static List<Set<Integer>> offsetsTopicIsr() throws Exception {
        return cluster.admin().describeTopics(List.of("__consumer_offsets")).allTopicNames().get(30, TimeUnit.SECONDS)
                .get("__consumer_offsets").partitions().stream().map(p -> ClusterClients.ids(p.isr())).toList();
    }
}
