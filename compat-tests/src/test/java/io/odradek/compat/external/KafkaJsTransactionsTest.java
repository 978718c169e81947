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
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * KafkaJS 2.2.4 transactions: an idempotent producer with a transactionalId and one request in flight
 * (transaction protocol v1: InitProducerId v1, AddPartitionsToTxn v1, AddOffsetsToTxn v1, TxnOffsetCommit v1,
 * EndTxn v1), and its consumer at read_committed (KafkaJS's default, readUncommitted: false) and at
 * read_uncommitted.
 */
@ExtendWith(ExternalClients.class)
class KafkaJsTransactionsTest {
    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withConfig(Map.of("group.initial.rebalance.delay.ms", "0",
            "transaction.state.log.num.partitions", "3"));

    private final KafkaJs kafkajs = new KafkaJs(broker);

    @Test
    void committedTransactionsAreReadCommittedAndTheAbortedOneOnlyReadUncommitted() throws Exception {
        String topic = "js-txn";
        broker.createTopic(topic, 2);

        KafkaJs.Run produced = kafkajs.run("transaction.js", Map.of("topic", topic, "transactionalId", "js-txn-1",
                "transactions", List.of(
                        Map.of("commit", true, "sends", List.of(List.of(
                                message("k1", "committed-1", 0), message("k2", "committed-2", 1),
                                message("k3", "committed-3", 0)))),
                        Map.of("commit", false, "sends", List.of(List.of(
                                message("k4", "aborted-4", 0), message("k5", "aborted-5", 1)))),
                        Map.of("commit", true, "sends", List.of(List.of(message("k6", "committed-6", 1)))))));

        assertThat(produced.process().exitCode()).as(produced.describe()).isZero();
        // Partition 0: committed-1 @0, committed-3 @1, commit marker @2, aborted-4 @3, abort marker @4.
        // Partition 1: committed-2 @0, marker @1, aborted-5 @2, marker @3, committed-6 @4, marker @5.
        assertThat(produced.events("sent")).extracting(e -> e.get("partition").asInt() + "@"
                + e.get("baseOffset").asLong() + " error " + e.get("errorCode").asInt())
                .containsExactlyInAnyOrder("0@0 error 0", "1@0 error 0", "0@3 error 0", "1@2 error 0", "1@4 error 0");
        assertThat(produced.events()).extracting(e -> e.get("event").asText()).filteredOn(e -> !e.equals("sent"))
                .containsExactly("committed", "aborted", "committed");

        Clients.awaitLastStableOffsets(broker, topic, List.of(5L, 6L)); // the last commit's markers
        KafkaJs.Run committed = kafkajs.consume(Map.of("topic", topic, "groupId", "js-txn-committed", "expect", 4));
        assertThat(lines(committed)).as(committed.describe()).containsExactly(
                "0@0 k1=committed-1", "0@1 k3=committed-3", "1@0 k2=committed-2", "1@4 k6=committed-6");

        KafkaJs.Run uncommitted = kafkajs.consume(Map.of("topic", topic, "groupId", "js-txn-uncommitted",
                "expect", 6, "readUncommitted", true));
        assertThat(lines(uncommitted)).as(uncommitted.describe()).containsExactly(
                "0@0 k1=committed-1", "0@1 k3=committed-3", "0@3 k4=aborted-4",
                "1@0 k2=committed-2", "1@2 k5=aborted-5", "1@4 k6=committed-6");
    }

    @Test
    void offsetsSentInACommittedTransactionAreTheGroupsAndThoseOfAnAbortedOneNever() throws Exception {
        String input = "js-offsets-in";
        String output = "js-offsets-out";
        broker.createTopic(input, 2);
        broker.createTopic(output, 1);

        KafkaJs.Run produced = kafkajs.run("transaction.js", Map.of("topic", output, "transactionalId", "js-offsets-1",
                "transactions", List.of(
                        Map.of("commit", true, "sends", List.of(List.of(message("k", "committed", 0))),
                                "offsets", offsets("js-group", input, 5, 7)),
                        Map.of("commit", false, "sends", List.of(List.of(message("k", "aborted", 0))),
                                "offsets", offsets("js-group", input, 9, 9)))));

        assertThat(produced.process().exitCode()).as(produced.describe()).isZero();
        assertThat(produced.events()).extracting(e -> e.get("event").asText())
                .containsExactly("sent", "offsetsSent", "committed", "sent", "offsetsSent", "aborted");
        assertThat(produced.requestsSent()).as("KafkaJS's transaction requests")
                .contains("InitProducerId v1", "AddPartitionsToTxn v1", "AddOffsetsToTxn v1", "TxnOffsetCommit v1",
                        "EndTxn v1");
        Clients.awaitTransactionState(broker, "js-offsets-1", TransactionState.COMPLETE_ABORT);
        Map<TopicPartition, Long> committed = OdradekBroker.await(broker.admin().listConsumerGroupOffsets("js-group")
                .partitionsToOffsetAndMetadata()).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        assertThat(committed).isEqualTo(Map.of(new TopicPartition(input, 0), 5L, new TopicPartition(input, 1), 7L));
    }

    /** As transaction.sendOffsets takes them: offsets as strings. */
    private static Map<String, Object> offsets(String group, String topic, long partition0, long partition1) {
        return Map.of("consumerGroupId", group, "topics", List.of(Map.of("topic", topic, "partitions", List.of(
                Map.of("partition", 0, "offset", String.valueOf(partition0)),
                Map.of("partition", 1, "offset", String.valueOf(partition1))))));
    }

    private static Map<String, Object> message(String key, String value, int partition) {
        return Map.of("key", key, "value", value, "partition", partition);
    }

    /** "partition@offset key=value" per message, partition by partition, each in the order it was delivered. */
    private static List<String> lines(KafkaJs.Run run) {
        return run.events("message").stream().sorted(Comparator.comparingInt(m -> m.get("partition").asInt()))
                .map(KafkaJsTransactionsTest::line).toList();
    }

    private static String line(JsonNode m) {
        return m.get("partition").asInt() + "@" + m.get("offset").asLong() + " " + m.get("key").asText() + "="
                + m.get("value").asText();
    }
}
