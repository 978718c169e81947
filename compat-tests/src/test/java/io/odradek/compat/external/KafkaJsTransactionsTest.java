package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.odradek.compat.Clients;
import io.odradek.compat.OdradekBroker;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * KafkaJS 2.2.4 transactions: an idempotent producer with a transactionalId and one request in flight
 * (transaction protocol v1: InitProducerId v1, AddPartitionsToTxn v1, EndTxn v1), and its consumer at
 * read_committed (KafkaJS's default, readUncommitted: false) and at read_uncommitted.
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
