package io.odradek.compat;

import static io.odradek.compat.OdradekBroker.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ConcurrentTransactionsException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.tools.ProducerPerformance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Transactions with Kafka's Java clients 4.4 (transaction protocol v2 where the broker advertises it): what
 * read_committed and read_uncommitted consumers see, record by record and offset by offset, after commits,
 * aborts, fencing, consume-transform-produce and a timed-out transaction.
 */
class TransactionsTest {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    /** One broker for the class; a fast timeout sweep (Kafka's default is 10 s) for the expiration test. */
    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withConfig(Map.of(
            "group.initial.rebalance.delay.ms", "0",
            "offsets.topic.num.partitions", "3",
            "transaction.state.log.num.partitions", "5",
            "transaction.abort.timed.out.transaction.cleanup.interval.ms", "200"));

    @Test
    void committedTransactionIsReadWithItsOffsetsAndEachCommitMarkerTakesOneOffset() throws Exception {
        String topic = "txn-commit";
        BROKER.createTopic(topic, 2);
        KafkaProducer<String, String> producer = Clients.transactionalProducer(BROKER, "commit-1", Map.of());

        producer.beginTransaction();
        List<RecordMetadata> first = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            first.add(producer.send(new ProducerRecord<>(topic, 0, "k" + i, "first-" + i)).get());
        }
        for (int i = 5; i < 8; i++) {
            first.add(producer.send(new ProducerRecord<>(topic, 1, "k" + i, "first-" + i)).get());
        }
        producer.commitTransaction();
        producer.beginTransaction();
        RecordMetadata second = producer.send(new ProducerRecord<>(topic, 0, "k8", "second-8")).get();
        producer.commitTransaction();
        Clients.awaitLastStableOffsets(BROKER, topic, List.of(8L, 4L));

        assertThat(first).extracting(m -> m.partition() + "@" + m.offset())
                .containsExactly("0@0", "0@1", "0@2", "0@3", "0@4", "1@0", "1@1", "1@2");
        assertThat(second.offset()).as("after five records and the first commit marker").isEqualTo(6);
        List<String> expected = List.of("0@0 k0=first-0", "0@1 k1=first-1", "0@2 k2=first-2", "0@3 k3=first-3",
                "0@4 k4=first-4", "0@6 k8=second-8", "1@0 k5=first-5", "1@1 k6=first-6", "1@2 k7=first-7");
        assertThat(read(topic, 2, "read_committed")).containsExactlyElementsOf(expected);
        assertThat(read(topic, 2, "read_uncommitted")).containsExactlyElementsOf(expected);
        assertThat(endOffsets(topic, 2, "read_uncommitted")).containsExactly(8L, 4L);
    }

    @Test
    void abortedTransactionIsSkippedByReadCommittedAndSeenByReadUncommitted() throws Exception {
        String topic = "txn-isolation";
        BROKER.createTopic(topic, 1);
        KafkaProducer<String, String> committer = Clients.transactionalProducer(BROKER, "isolation-committer", Map.of());
        KafkaProducer<String, String> aborter = Clients.transactionalProducer(BROKER, "isolation-aborter", Map.of());
        KafkaProducer<String, String> plain = Clients.producer(BROKER, Map.of());

        committer.beginTransaction();
        send(committer, topic, "a", "a0"); // 0
        send(committer, topic, "a", "a1"); // 1
        committer.commitTransaction(); // marker 2
        // Markers follow the coordinator's decision: wait for them before another producer writes.
        Clients.awaitHighWatermarks(BROKER, topic, List.of(3L));
        aborter.beginTransaction();
        send(aborter, topic, "b", "b0"); // 3
        send(aborter, topic, "b", "b1"); // 4
        aborter.abortTransaction(); // marker 5
        Clients.awaitHighWatermarks(BROKER, topic, List.of(6L));
        // Two transactions interleaved on one partition: the aborted one's records lie between committed ones.
        committer.beginTransaction();
        aborter.beginTransaction();
        send(committer, topic, "c", "c0"); // 6
        send(aborter, topic, "d", "d0"); // 7
        send(committer, topic, "c", "c1"); // 8
        send(aborter, topic, "d", "d1"); // 9
        aborter.abortTransaction(); // marker 10
        Clients.awaitHighWatermarks(BROKER, topic, List.of(11L));
        send(plain, topic, "p", "plain0"); // 11, not transactional: visible at once to both
        committer.commitTransaction(); // marker 12
        Clients.awaitLastStableOffsets(BROKER, topic, List.of(13L));

        assertThat(read(topic, 1, "read_committed")).containsExactly(
                "0@0 a=a0", "0@1 a=a1", "0@6 c=c0", "0@8 c=c1", "0@11 p=plain0");
        assertThat(read(topic, 1, "read_uncommitted")).containsExactly(
                "0@0 a=a0", "0@1 a=a1", "0@3 b=b0", "0@4 b=b1", "0@6 c=c0", "0@7 d=d0", "0@8 c=c1", "0@9 d=d1",
                "0@11 p=plain0");
    }

    @Test
    void openTransactionHoldsReadCommittedAtItsFirstOffsetUntilItCommits() throws Exception {
        String topic = "txn-open";
        BROKER.createTopic(topic, 1);
        KafkaProducer<String, String> plain = Clients.producer(BROKER, Map.of());
        KafkaProducer<String, String> producer = Clients.transactionalProducer(BROKER, "open-1", Map.of());
        send(plain, topic, "p", "before"); // 0

        producer.beginTransaction();
        send(producer, topic, "t", "open0"); // 1
        send(plain, topic, "p", "during"); // 2: behind the open transaction, so not yet readable committed

        assertThat(endOffsets(topic, 1, "read_committed")).as("the last stable offset").containsExactly(1L);
        assertThat(endOffsets(topic, 1, "read_uncommitted")).as("the high watermark").containsExactly(3L);
        assertThat(read(topic, 1, "read_committed")).containsExactly("0@0 p=before");

        producer.commitTransaction(); // marker 3
        Clients.awaitLastStableOffsets(BROKER, topic, List.of(4L));
        assertThat(read(topic, 1, "read_committed")).containsExactly("0@0 p=before", "0@1 t=open0", "0@2 p=during");
    }

    @Test
    void zombieProducerIsFencedByANewInstanceAndItsOpenTransactionNeverBecomesVisible() throws Exception {
        String topic = "txn-zombie";
        BROKER.createTopic(topic, 2);
        KafkaProducer<String, String> zombie = Clients.transactionalProducer(BROKER, "zombie", Map.of());
        zombie.beginTransaction();
        zombie.send(new ProducerRecord<>(topic, 0, "z", "zombie-0")).get(); // 0
        zombie.send(new ProducerRecord<>(topic, 1, "z", "zombie-1")).get(); // 0

        // The new instance's initTransactions aborts the zombie's open transaction (markers at offset 1).
        KafkaProducer<String, String> successor = Clients.transactionalProducer(BROKER, "zombie", Map.of());
        successor.beginTransaction();
        successor.send(new ProducerRecord<>(topic, 0, "s", "successor-0")).get(); // 2
        successor.send(new ProducerRecord<>(topic, 1, "s", "successor-1")).get(); // 2

        Throwable fenced = catchThrowable(() -> zombie.send(new ProducerRecord<>(topic, 0, "z", "zombie-2")).get());
        if (fenced instanceof ExecutionException e) {
            fenced = e.getCause();
        }
        // Kafka's own TransactionsTest accepts either: ProducerFencedException when the zombie's next request
        // reaches the coordinator, InvalidProducerEpochException when it reaches the partition leader (v2).
        assertThat(fenced).isInstanceOfAny(ProducerFencedException.class, InvalidProducerEpochException.class);
        Throwable commit = catchThrowable(zombie::commitTransaction);
        assertThat(commit).as("the zombie cannot commit").isNotNull();
        successor.commitTransaction();
        Clients.awaitLastStableOffsets(BROKER, topic, List.of(4L, 4L)); // the zombie's abort markers at 1

        assertThat(read(topic, 2, "read_committed")).containsExactly("0@2 s=successor-0", "1@2 s=successor-1");
        assertThat(read(topic, 2, "read_uncommitted"))
                .containsExactly("0@0 z=zombie-0", "0@2 s=successor-0", "1@0 z=zombie-1", "1@2 s=successor-1");
        Clients.awaitTransactionState(BROKER, "zombie", TransactionState.COMPLETE_COMMIT);
    }

    @Test
    void consumeTransformProduceAcrossAForcedAbortHoldsEachInputOnceDownstreamAndCommitsTheInputEnd()
            throws Exception {
        String input = "ctp-in";
        String output = "ctp-out";
        String group = "ctp-group";
        BROKER.createTopic(input, 2);
        BROKER.createTopic(output, 2);
        KafkaProducer<String, String> plain = Clients.producer(BROKER, Map.of());
        for (int i = 0; i < 40; i++) {
            plain.send(new ProducerRecord<>(input, i % 2, "key-" + i, "value-" + i));
        }
        plain.flush();

        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, Map.of(
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 7));
        KafkaProducer<String, String> producer = Clients.transactionalProducer(BROKER, "ctp-1", Map.of());
        consumer.subscribe(List.of(input));
        Map<TopicPartition, Long> inputEnd = Map.of(new TopicPartition(input, 0), 20L, new TopicPartition(input, 1), 20L);

        int transactions = 0;
        int aborted = 0;
        Map<TopicPartition, Long> committed = new HashMap<>();
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (!committed.equals(inputEnd)) {
            assertThat(System.nanoTime()).as("transactions committed so far: %s", committed).isLessThan(deadline);
            List<ConsumerRecord<String, String>> batch = new ArrayList<>();
            consumer.poll(Duration.ofMillis(200)).forEach(batch::add);
            if (batch.isEmpty()) {
                continue;
            }
            producer.beginTransaction();
            Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
            for (ConsumerRecord<String, String> r : batch) {
                producer.send(new ProducerRecord<>(output, r.partition(), r.key(), r.value().toUpperCase()
                        + " from " + r.partition() + "@" + r.offset()));
                next.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
            }
            producer.sendOffsetsToTransaction(next, consumer.groupMetadata());
            transactions++;
            if (transactions == 2) {
                // A failure after the writes (flushed, so they are in the log: an abort drops batches the
                // producer has not sent yet): abort, and go back to the last committed input offsets.
                producer.flush();
                producer.abortTransaction();
                aborted = batch.size();
                Map<TopicPartition, OffsetAndMetadata> restart = consumer.committed(consumer.assignment());
                for (TopicPartition tp : consumer.assignment()) {
                    OffsetAndMetadata at = restart.get(tp);
                    consumer.seek(tp, at == null ? 0 : at.offset());
                }
                continue;
            }
            producer.commitTransaction();
            next.forEach((tp, offset) -> committed.put(tp, offset.offset()));
        }

        Clients.awaitNoOpenTransactions(BROKER, output, 2);
        List<String> expected = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            for (int i = p; i < 40; i += 2) {
                expected.add("key-" + i + "=VALUE-" + i + " from " + p + "@" + (i / 2));
            }
        }
        List<String> downstream = readRecords(output, 2, "read_committed").stream()
                .map(r -> r.key() + "=" + r.value()).toList();
        assertThat(aborted).as("records in the aborted transaction").isPositive();
        assertThat(downstream).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(readRecords(output, 2, "read_uncommitted")).as("the aborted copies are in the log")
                .hasSize(40 + aborted);
        // The last commit's offsets are visible once its marker is in __consumer_offsets.
        long offsetsDeadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Map<TopicPartition, Long> groupOffsets = groupOffsets(group);
        while (!groupOffsets.equals(inputEnd) && System.nanoTime() < offsetsDeadline) {
            Thread.sleep(100);
            groupOffsets = groupOffsets(group);
        }
        assertThat(groupOffsets).as("the group's committed offsets").isEqualTo(inputEnd);
    }

    @Test
    void transactionOlderThanItsTimeoutIsAbortedByTheBrokerAndTheProducerCarriesOnAfterAbortingToo()
            throws Exception {
        String topic = "txn-expire";
        BROKER.createTopic(topic, 1);
        KafkaProducer<String, String> producer = Clients.transactionalProducer(BROKER, "expiring",
                Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 500));
        producer.beginTransaction();
        assertThat(producer.send(new ProducerRecord<>(topic, 0, "e", "expired-0")).get().offset()).isZero();

        Clients.awaitLastStableOffsets(BROKER, topic, List.of(2L)); // the abort marker at offset 1

        Throwable late = catchThrowable(() -> producer.send(new ProducerRecord<>(topic, 0, "e", "late")).get());
        if (late instanceof ExecutionException e) {
            late = e.getCause();
        }
        // As Kafka's testFencingOnTransactionExpiration: an abortable error (the coordinator bumped the epoch
        // when it aborted), so the producer aborts (a retry of the coordinator's abort) and carries on.
        assertThat(late).as("a send into the expired transaction")
                .isInstanceOfAny(InvalidProducerEpochException.class, ConcurrentTransactionsException.class);
        producer.abortTransaction();
        producer.beginTransaction();
        assertThat(producer.send(new ProducerRecord<>(topic, 0, "e", "after")).get().offset()).isEqualTo(2);
        producer.commitTransaction(); // marker 3
        Clients.awaitLastStableOffsets(BROKER, topic, List.of(4L));

        assertThat(read(topic, 1, "read_uncommitted")).containsExactly("0@0 e=expired-0", "0@2 e=after");
        assertThat(read(topic, 1, "read_committed")).containsExactly("0@2 e=after");
    }

    private static Map<TopicPartition, Long> groupOffsets(String group) {
        return await(BROKER.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()).entrySet()
                .stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    private static void send(KafkaProducer<String, String> producer, String topic, String key, String value)
            throws Exception {
        producer.send(new ProducerRecord<>(topic, 0, key, value)).get();
    }

    /** Every record of the topic as "partition@offset key=value", partition by partition, at that isolation. */
    /**
     * Four transactional producers on their own threads, 25 transactions each over three partitions, every
     * fourth aborted, while a read_committed consumer polls all along (its fetches wait for, and are woken
     * by, the last stable offset moving): it receives exactly the committed records, each once, in each
     * producer's order per partition, and never an aborted one.
     */
    @Test
    void concurrentTransactionsReachALiveReadCommittedConsumerExactlyOnceAndAbortedOnesNever() throws Exception {
        String topic = "txn-concurrent";
        BROKER.createTopic(topic, 3);
        List<String> committed = Collections.synchronizedList(new ArrayList<>());
        List<String> aborted = Collections.synchronizedList(new ArrayList<>());
        List<KafkaProducer<String, String>> producers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            producers.add(Clients.transactionalProducer(BROKER, "concurrent-" + i, Map.of()));
        }
        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER,
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"));
        List<TopicPartition> partitions = Clients.partitions(topic, 3);
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        List<ConsumerRecord<String, String>> received = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            while (!done.get()) {
                consumer.poll(Duration.ofMillis(100)).forEach(received::add);
            }
        });
        List<CompletableFuture<Void>> writers = new ArrayList<>();
        for (int i = 0; i < producers.size(); i++) {
            int id = i;
            KafkaProducer<String, String> producer = producers.get(i);
            writers.add(CompletableFuture.runAsync(() -> {
                for (int t = 0; t < 25; t++) {
                    boolean commit = t % 4 != 2;
                    producer.beginTransaction();
                    List<String> values = new ArrayList<>();
                    for (int r = 0; r < 6; r++) {
                        String value = "p" + id + "-t" + t + "-r" + r;
                        producer.send(new ProducerRecord<>(topic, r % 3, "p" + id, value));
                        values.add(value);
                    }
                    if (commit) {
                        producer.commitTransaction();
                        committed.addAll(values);
                    } else {
                        producer.flush();
                        producer.abortTransaction();
                        aborted.addAll(values);
                    }
                }
            }));
        }
        for (CompletableFuture<Void> writer : writers) {
            writer.get(120, TimeUnit.SECONDS);
        }
        Clients.awaitNoOpenTransactions(BROKER, topic, 3);
        List<Long> end = Clients.endOffsets(BROKER, topic, 3, "read_committed");
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (received.size() < committed.size() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        Thread.sleep(300); // anything more would be a duplicate or an aborted record
        done.set(true);
        reader.get(10, TimeUnit.SECONDS);

        List<String> values = received.stream().map(ConsumerRecord::value).toList();
        assertThat(values).as("records received at read_committed (positions %s, end %s)",
                partitions.stream().map(consumer::position).toList(), end)
                .containsExactlyInAnyOrderElementsOf(committed).doesNotContainAnyElementsOf(aborted);
        for (TopicPartition tp : partitions) {
            for (int i = 0; i < producers.size(); i++) {
                String prefix = "p" + i + "-";
                List<String> inOrder = received.stream().filter(r -> r.partition() == tp.partition())
                        .map(ConsumerRecord::value).filter(v -> v.startsWith(prefix)).toList();
                assertThat(inOrder).as("producer %d on %s, in its order", i, tp)
                        .isEqualTo(committed.stream().filter(v -> v.startsWith(prefix))
                                .filter(v -> Integer.parseInt(v.substring(v.lastIndexOf('r') + 1)) % 3 == tp.partition())
                                .sorted(Comparator.comparingInt(TransactionsTest::sendOrder)).toList());
            }
        }
        assertThat(read(topic, 3, "read_uncommitted")).hasSize(committed.size() + aborted.size());
    }

    @Test
    void transactionTimeoutAboveTheBrokersMaximumIsRefusedByInitTransactions() {
        Throwable refused = catchThrowable(() -> Clients.transactionalProducer(BROKER, "too-long",
                Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 900_001))); // transaction.max.timeout.ms + 1
        // The broker answers INVALID_TRANSACTION_TIMEOUT; the 4.4 producer reports it as an unexpected error.
        assertThat(refused).isInstanceOf(KafkaException.class).hasMessage("Unexpected error in "
                + "InitProducerIdResponse; " + Errors.INVALID_TRANSACTION_TIMEOUT.message());
        assertThat(Clients.transactionalProducer(BROKER, "longest", Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                900_000))).as("the maximum itself is accepted").isNotNull();
    }

    /**
     * Kafka's own ProducerPerformance (kafka-producer-perf-test) in transactions of 100 ms, as the issue's
     * benchmark runs it, with monotonic payloads "0", "1", ...: every record committed, once, in order.
     */
    @Test
    void producerPerformanceInTransactionsOf100MsLeavesEveryRecordCommittedOnceInOrder() throws Exception {
        String topic = "txn-perf";
        BROKER.createTopic(topic, 1);

        KafkaTool.Output run = KafkaTool.run(ProducerPerformance::main, "--bootstrap-server", BROKER.bootstrap(),
                "--topic", topic, "--num-records", "20000", "--payload-monotonic", "--throughput", "-1",
                "--transactional-id", "perf-1", "--transaction-duration-ms", "100");

        assertThat(run.stdout()).as(run.stderr()).contains("20000 records sent");
        Clients.awaitNoOpenTransactions(BROKER, topic, 1);
        List<ConsumerRecord<String, String>> records = readRecords(topic, 1, "read_committed");
        assertThat(records.stream().map(ConsumerRecord::value).toList())
                .isEqualTo(IntStream.range(0, 20_000).mapToObj(String::valueOf).toList());
        long markers = Clients.endOffsets(BROKER, topic, 1, "read_committed").get(0) - 20_000;
        assertThat(markers).as("commit markers, one per transaction").isPositive();
        assertThat(readRecords(topic, 1, "read_uncommitted")).hasSize(20_000);
    }

    /** "pI-tT-rR" in the order producer I sent it: transaction T, record R. */
    private static int sendOrder(String value) {
        String[] parts = value.split("-");
        return Integer.parseInt(parts[1].substring(1)) * 10 + Integer.parseInt(parts[2].substring(1));
    }

    static List<String> read(String topic, int partitions, String isolation) {
        return readRecords(topic, partitions, isolation).stream()
                .map(r -> r.partition() + "@" + r.offset() + " " + r.key() + "=" + r.value()).toList();
    }

    static List<ConsumerRecord<String, String>> readRecords(String topic, int partitions, String isolation) {
        return Clients.readAtIsolation(BROKER, topic, partitions, isolation);
    }

    static List<Long> endOffsets(String topic, int partitions, String isolation) {
        return Clients.endOffsets(BROKER, topic, partitions, isolation);
    }
}
