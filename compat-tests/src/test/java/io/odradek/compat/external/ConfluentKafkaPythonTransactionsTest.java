package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.odradek.compat.Clients;
import io.odradek.compat.OdradekBroker;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Transactions from librdkafka (confluent-kafka-python 1.7 on librdkafka 2.0): it speaks transaction protocol
 * v1 (InitProducerId v4, AddPartitionsToTxn v0, AddOffsetsToTxn v0, TxnOffsetCommit v3, EndTxn v1; no epoch
 * bump per transaction), and its consumer reads at
 * read_committed using the aborted_transactions list of each Fetch response.
 */
@ExtendWith(ExternalClients.class)
class ConfluentKafkaPythonTransactionsTest {
    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withConfig(Map.of("transaction.state.log.num.partitions", "3"));

    private final ConfluentKafkaPython python = new ConfluentKafkaPython(broker);

    @Test
    void committedTransactionsAreReadCommittedAndTheAbortedOneOnlyReadUncommitted() throws Exception {
        String topic = "py-txn";
        broker.createTopic(topic, 2);
        ConfluentKafkaPython.Run produced = python.run("produce", Map.of("transactionalId", "py-txn-1",
                "transactions", List.of(
                        ConfluentKafkaPython.transaction(true, List.of(
                                ConfluentKafkaPython.message(topic, 0, "k1", "committed-1"),
                                ConfluentKafkaPython.message(topic, 1, "k2", "committed-2"),
                                ConfluentKafkaPython.message(topic, 0, "k3", "committed-3"))),
                        ConfluentKafkaPython.transaction(false, List.of(
                                ConfluentKafkaPython.message(topic, 0, "k4", "aborted-4"),
                                ConfluentKafkaPython.message(topic, 1, "k5", "aborted-5"))),
                        ConfluentKafkaPython.transaction(true, List.of(
                                ConfluentKafkaPython.message(topic, 1, "k6", "committed-6"))))));

        // Partition 0: committed-1 @0, committed-3 @1, commit marker @2, aborted-4 @3, abort marker @4.
        // Partition 1: committed-2 @0, marker @1, aborted-5 @2, marker @3, committed-6 @4, marker @5.
        assertThat(produced.events("delivered")).as(produced.describe())
                .extracting(ConfluentKafkaPythonTransactionsTest::delivery)
                .containsExactlyInAnyOrder("0@0 k1=committed-1 null", "1@0 k2=committed-2 null",
                        "0@1 k3=committed-3 null", "0@3 k4=aborted-4 null", "1@2 k5=aborted-5 null",
                        "1@4 k6=committed-6 null");
        assertThat(produced.events()).extracting(e -> e.get("event").asText()).filteredOn(e -> !e.equals("delivered"))
                .containsExactly("committed", "aborted", "committed", "done");

        // commit_transaction returns once the coordinator has decided; the markers follow.
        Clients.awaitLastStableOffsets(broker, topic, List.of(5L, 6L));
        ConfluentKafkaPython.Run committed = python.run("consume", Map.of("topic", topic, "partitions", 2,
                "isolation", "read_committed"));
        assertThat(messages(committed)).as(committed.describe())
                .containsExactly("0@0 k1=committed-1", "0@1 k3=committed-3", "1@0 k2=committed-2",
                        "1@4 k6=committed-6");
        assertThat(committed.events("watermarks")).extracting(ConfluentKafkaPythonTransactionsTest::watermarks)
                .containsExactly("0: 0-5", "1: 0-6");

        ConfluentKafkaPython.Run uncommitted = python.run("consume", Map.of("topic", topic, "partitions", 2,
                "isolation", "read_uncommitted"));
        assertThat(messages(uncommitted)).as(uncommitted.describe())
                .containsExactly("0@0 k1=committed-1", "0@1 k3=committed-3", "0@3 k4=aborted-4",
                        "1@0 k2=committed-2", "1@2 k5=aborted-5", "1@4 k6=committed-6");
    }

    @Test
    void openTransactionOfAnotherProducerHoldsReadCommittedBackAtItsFirstOffset() throws Exception {
        String topic = "py-open";
        broker.createTopic(topic, 1);
        // A Java producer leaves a transaction open at offset 1, after one committed record at 0.
        KafkaProducer<String, String> producer = broker.track(new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "py-open-java"), new StringSerializer(), new StringSerializer()));
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 0, "j", "committed")).get();
        producer.commitTransaction(); // marker @1
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 0, "j", "open")).get(); // @2

        ConfluentKafkaPython.Run committed = python.run("consume", Map.of("topic", topic, "partitions", 1,
                "isolation", "read_committed"));
        assertThat(committed.events("watermarks")).extracting(ConfluentKafkaPythonTransactionsTest::watermarks)
                .as("the last stable offset").containsExactly("0: 0-2");
        assertThat(messages(committed))
                .containsExactly("0@0 j=committed");
        producer.abortTransaction();
    }

    @Test
    void offsetsSentInACommittedTransactionAreTheGroupsAndThoseOfAnAbortedOneNever() throws Exception {
        String input = "py-offsets-in";
        String output = "py-offsets-out";
        broker.createTopic(input, 2);
        broker.createTopic(output, 1);
        ConfluentKafkaPython.Run produced = python.run("produce", Map.of("transactionalId", "py-offsets-1",
                "transactions", List.of(
                        Map.of("commit", true,
                                "messages", List.of(ConfluentKafkaPython.message(output, 0, "k", "committed")),
                                "offsets", offsets("py-group", input, 5, 7)),
                        Map.of("commit", false,
                                "messages", List.of(ConfluentKafkaPython.message(output, 0, "k", "aborted")),
                                "offsets", offsets("py-group", input, 9, 9)))));

        assertThat(produced.events()).as(produced.describe()).extracting(e -> e.get("event").asText())
                .containsExactly("delivered", "offsetsSent", "committed", "delivered", "offsetsSent", "aborted", "done");
        assertThat(Kcat.requestsSent(produced.process())).as("librdkafka's transaction requests")
                .contains("InitProducerId v4", "AddPartitionsToTxn v0", "AddOffsetsToTxn v0", "TxnOffsetCommit v3",
                        "EndTxn v1");
        Clients.awaitTransactionState(broker, "py-offsets-1", TransactionState.COMPLETE_ABORT);
        Map<TopicPartition, Long> committed = OdradekBroker.await(broker.admin().listConsumerGroupOffsets("py-group")
                .partitionsToOffsetAndMetadata()).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        assertThat(committed).isEqualTo(Map.of(new TopicPartition(input, 0), 5L, new TopicPartition(input, 1), 7L));
    }

    @Test
    void zombieIsFencedFatallyByASecondInstanceAndItsRecordNeverBecomesVisible() throws Exception {
        String topic = "py-fence";
        broker.createTopic(topic, 1);

        ConfluentKafkaPython.Run run = python.run("fence", Map.of("transactionalId", "py-fence-1", "topic", topic));

        assertThat(run.events()).as(run.describe()).extracting(e -> e.get("event").asText())
                .containsExactly("delivered", "delivered", "committed", "fenced", "done");
        assertThat(run.events("delivered")).extracting(ConfluentKafkaPythonTransactionsTest::delivery)
                .containsExactly("0@0 z=zombie null", "0@2 s=successor null");
        JsonNode fenced = run.events("fenced").get(0);
        assertThat(fenced.get("name").asText() + " fatal " + fenced.get("fatal").asBoolean())
                .isEqualTo("_FENCED fatal true");
        Clients.awaitLastStableOffsets(broker, topic, List.of(4L)); // zombie 0, abort marker 1, successor 2, marker 3
        ConfluentKafkaPython.Run committed = python.run("consume", Map.of("topic", topic, "partitions", 1,
                "isolation", "read_committed"));
        assertThat(messages(committed)).as(committed.describe()).containsExactly("0@2 s=successor");
    }

    private static Map<String, Object> offsets(String group, String topic, long partition0, long partition1) {
        return Map.of("group", group, "positions", List.of(
                Map.of("topic", topic, "partition", 0, "offset", partition0),
                Map.of("topic", topic, "partition", 1, "offset", partition1)));
    }

    /** "partition@offset key=value" per message, partition by partition, each in the order it was delivered. */
    private static List<String> messages(ConfluentKafkaPython.Run run) {
        return run.events("message").stream().sorted(Comparator.comparingInt(m -> m.get("partition").asInt()))
                .map(ConfluentKafkaPythonTransactionsTest::message).toList();
    }

    private static String delivery(JsonNode e) {
        return message(e) + " " + (e.get("error").isNull() ? "null" : e.get("error").asText());
    }

    private static String message(JsonNode e) {
        return e.get("partition").asInt() + "@" + e.get("offset").asLong() + " " + e.get("key").asText() + "="
                + e.get("value").asText();
    }

    private static String watermarks(JsonNode e) {
        return e.get("partition").asInt() + ": " + e.get("low").asLong() + "-" + e.get("high").asLong();
    }
}
