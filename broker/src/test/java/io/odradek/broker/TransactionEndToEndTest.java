package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicListing;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
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

/** Kafka 4.4's own transactional producer, admin and read_committed consumer against a broker on a loopback port. */
class TransactionEndToEndTest {
    @TempDir
    Path logDir;
    Broker broker;
    Admin admin;
    final List<AutoCloseable> clients = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        startBroker("4");
    }

    private void startBroker(String stateLogPartitions) throws Exception {
        broker = Broker.start(BrokerConfig.of(Map.of(
                "node.id", "1",
                "listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", logDir.toString(),
                "transaction.state.log.num.partitions", stateLogPartitions,
                "offsets.topic.num.partitions", "2")));
        admin = track(Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap())));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable client : clients) {
            client.close();
        }
        broker.close();
    }

    @Test
    void theAdminClientSeesTransactionVersionTwoFinalizedAsOnAKafka44Cluster() throws Exception {
        FeatureMetadata features = admin.describeFeatures().featureMetadata().get(30, TimeUnit.SECONDS);
        assertThat(features.finalizedFeatures().get("transaction.version").maxVersionLevel()).isEqualTo((short) 2);
        assertThat(features.finalizedFeatures().get("group.version").maxVersionLevel()).isEqualTo((short) 1);
        assertThat(features.finalizedFeatures().get("metadata.version").maxVersionLevel()).isEqualTo((short) 33);
        assertThat(features.supportedFeatures().get("transaction.version").minVersion()).isZero();
        assertThat(features.supportedFeatures().get("transaction.version").maxVersion()).isEqualTo((short) 2);
        assertThat(features.finalizedFeaturesEpoch()).isPresent();
    }

    @Test
    void committedRecordsReachAReadCommittedConsumerAndTheProducerUsesTransactionVersionTwo() throws Exception {
        admin.createTopics(List.of(new NewTopic("txn-out", 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        KafkaProducer<String, String> producer = transactionalProducer("e2e-txn");
        producer.initTransactions();
        producer.beginTransaction();
        for (int i = 0; i < 10; i++) {
            producer.send(new ProducerRecord<>("txn-out", i % 2, "k" + i, "v" + i));
        }
        producer.commitTransaction();

        // Transaction version 2 (KIP-890): EndTxn v5 bumped the epoch with the commit (version 1 keeps it at 0).
        // As in Kafka, the commit is answered once PrepareCommit is written; the markers follow.
        TransactionDescription described = describeOnceComplete("e2e-txn");
        assertThat(described.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(described.producerEpoch()).isEqualTo(1);
        assertThat(described.topicPartitions()).isEmpty();

        KafkaConsumer<String, String> consumer = track(new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"),
                new StringDeserializer(), new StringDeserializer()));
        List<TopicPartition> partitions = List.of(new TopicPartition("txn-out", 0), new TopicPartition("txn-out", 1));
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        List<String> seen = poll(consumer, 10);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            expected.add((i % 2) + "@" + (i / 2) + " k" + i + "=v" + i);
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
        // Each partition ends with the commit marker: 5 records and one control batch.
        assertThat(consumer.endOffsets(partitions)).isEqualTo(Map.of(partitions.get(0), 6L, partitions.get(1), 6L));

        Map<String, TopicListing> internal = new HashMap<>();
        for (TopicListing t : admin.listTopics(new ListTopicsOptions().listInternal(true)).listings().get(30, TimeUnit.SECONDS)) {
            internal.put(t.name(), t);
        }
        assertThat(internal.get("__transaction_state").isInternal()).isTrue();
        assertThat(admin.describeTopics(List.of("__transaction_state")).allTopicNames().get(30, TimeUnit.SECONDS)
                .get("__transaction_state").partitions()).hasSize(4);
    }

    @Test
    void anAbortedTransactionIsSkippedByReadCommittedButSeenByReadUncommitted() throws Exception {
        admin.createTopics(List.of(new NewTopic("txn-abort", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        KafkaProducer<String, String> producer = transactionalProducer("aborter");
        producer.initTransactions();
        producer.beginTransaction();
        for (int i = 0; i < 3; i++) {
            producer.send(new ProducerRecord<>("txn-abort", 0, "a" + i, "aborted"));
        }
        producer.flush();
        producer.abortTransaction();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>("txn-abort", 0, "c0", "committed"));
        producer.send(new ProducerRecord<>("txn-abort", 0, "c1", "committed"));
        producer.commitTransaction();
        assertThat(describeOnceComplete("aborter").state()).isEqualTo(TransactionState.COMPLETE_COMMIT);

        TopicPartition tp = new TopicPartition("txn-abort", 0);
        // offsets: 0-2 aborted records, 3 abort marker, 4-5 committed records, 6 commit marker
        assertThat(poll(consumer("read_committed", tp), 2)).containsExactly("0@4 c0=committed", "0@5 c1=committed");
        assertThat(poll(consumer("read_uncommitted", tp), 5)).containsExactly("0@0 a0=aborted", "0@1 a1=aborted",
                "0@2 a2=aborted", "0@4 c0=committed", "0@5 c1=committed");
    }

    private KafkaConsumer<String, String> consumer(String isolation, TopicPartition tp) {
        KafkaConsumer<String, String> consumer = track(new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"),
                new StringDeserializer(), new StringDeserializer()));
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        return consumer;
    }

    @Test
    void aRestartedBrokerKnowsTheTransactionalIdAndTheNextProducerFencesTheFormerEpoch() throws Exception {
        KafkaProducer<String, String> first = transactionalProducer("survivor");
        first.initTransactions();
        TransactionDescription before = admin.describeTransactions(List.of("survivor")).description("survivor")
                .get(30, TimeUnit.SECONDS);
        assertThat(before.state()).isEqualTo(TransactionState.EMPTY);
        first.close();
        clients.remove(first);

        // The configured count changes, but the existing topic's partition count wins, as in Kafka.
        for (AutoCloseable client : clients) {
            client.close();
        }
        clients.clear();
        broker.close();
        startBroker("7");

        KafkaProducer<String, String> second = transactionalProducer("survivor");
        second.initTransactions();
        TransactionDescription after = admin.describeTransactions(List.of("survivor")).description("survivor")
                .get(30, TimeUnit.SECONDS);
        assertThat(after.producerId()).isEqualTo(before.producerId());
        assertThat(after.producerEpoch()).isEqualTo(before.producerEpoch() + 1);
        assertThat(after.state()).isEqualTo(TransactionState.EMPTY);
        assertThat(admin.describeTopics(List.of("__transaction_state")).allTopicNames().get(30, TimeUnit.SECONDS)
                .get("__transaction_state").partitions()).hasSize(4);
    }

    @Test
    void aTransactionOnATopicDeletedBeforeTheCommitCompletesAndTheNextProducerInitializes() throws Exception {
        admin.createTopics(List.of(new NewTopic("doomed", 1, (short) 1), new NewTopic("kept", 1, (short) 1)))
                .all().get(30, TimeUnit.SECONDS);
        KafkaProducer<String, String> producer = transactionalProducer("deleted-topic-txn");
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>("doomed", "k1", "lost")).get(30, TimeUnit.SECONDS);
        producer.send(new ProducerRecord<>("kept", "k2", "kept-value")).get(30, TimeUnit.SECONDS);
        admin.deleteTopics(List.of("doomed")).all().get(30, TimeUnit.SECONDS);

        producer.commitTransaction();

        TransactionDescription done = describeOnceComplete("deleted-topic-txn");
        assertThat(done.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(done.topicPartitions()).isEmpty();
        KafkaConsumer<String, String> consumer = consumer("read_committed", new TopicPartition("kept", 0));
        assertThat(poll(consumer, 1)).containsExactly("0@0 k2=kept-value");
        producer.close();
        clients.remove(producer);

        KafkaProducer<String, String> next = transactionalProducer("deleted-topic-txn");
        next.initTransactions(); // CONCURRENT_TRANSACTIONS until max.block.ms if the transaction stayed prepared
        TransactionDescription after = admin.describeTransactions(List.of("deleted-topic-txn"))
                .description("deleted-topic-txn").get(30, TimeUnit.SECONDS);
        assertThat(after.state()).isEqualTo(TransactionState.EMPTY);
        assertThat(after.producerId()).isEqualTo(done.producerId());
    }

    /** The transaction's description once its markers are written (PrepareCommit/PrepareAbort over), 30 s at most. */
    private TransactionDescription describeOnceComplete(String transactionalId) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            TransactionDescription d = admin.describeTransactions(List.of(transactionalId)).description(transactionalId)
                    .get(30, TimeUnit.SECONDS);
            boolean preparing = d.state() == TransactionState.PREPARE_COMMIT || d.state() == TransactionState.PREPARE_ABORT;
            if (!preparing || System.nanoTime() > deadline) {
                return d;
            }
            Thread.sleep(20);
        }
    }

    private KafkaProducer<String, String> transactionalProducer(String transactionalId) {
        return track(new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000"),
                new StringSerializer(), new StringSerializer()));
    }

    private String bootstrap() {
        return "127.0.0.1:" + broker.port();
    }

    /** "partition@offset key=value" for each record, polling until {@code count} arrived (30 s at most). */
    private static List<String> poll(KafkaConsumer<String, String> consumer, int count) {
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (seen.size() < count && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                seen.add(r.partition() + "@" + r.offset() + " " + r.key() + "=" + r.value());
            }
        }
        return seen;
    }

    private <T extends AutoCloseable> T track(T client) {
        clients.add(0, client);
        return client;
    }
}
