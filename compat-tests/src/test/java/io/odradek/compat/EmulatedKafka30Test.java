package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Kafka 4.4 transactional producer against a broker emulating Kafka 3.0: no transaction.version is finalized (it
 * came with 4.0), so the producer keeps the classic KIP-98 protocol (EndTxn v3, AddPartitionsToTxn v3) and its epoch
 * stays where InitProducerId left it after each commit, where the transaction protocol v2 a 4.4 broker finalizes
 * bumps it at every EndTxn.
 */
class EmulatedKafka30Test {
    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withConfig(Map.of("odradek.emulate.version", "3.0",
            "offsets.topic.num.partitions", "3", "transaction.state.log.num.partitions", "3",
            "group.initial.rebalance.delay.ms", "0"));

    @Test
    void aTransactionalProducerCommitsAndAbortsWithTheClassicProtocol() throws Exception {
        String topic = "emulated-30-txn";
        BROKER.createTopic(topic, 2);
        KafkaProducer<String, String> producer = Clients.transactionalProducer(BROKER, "emulated-30-txn-id", Map.of());
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 0, "a", "committed-1"));
        producer.send(new ProducerRecord<>(topic, 1, "b", "committed-2"));
        producer.commitTransaction();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 0, "c", "aborted"));
        producer.abortTransaction();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 1, "d", "committed-3"));
        producer.commitTransaction();

        List<ConsumerRecord<String, String>> committed = Clients.readAtIsolation(BROKER, topic, 2, "read_committed");
        assertThat(committed).extracting(r -> r.partition() + "@" + r.offset() + " " + r.key() + "=" + r.value())
                .containsExactly("0@0 a=committed-1", "1@0 b=committed-2", "1@2 d=committed-3");

        TransactionDescription txn = OdradekBroker.await(BROKER.admin()
                .describeTransactions(List.of("emulated-30-txn-id")).description("emulated-30-txn-id"));
        assertThat(txn.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(txn.producerEpoch()).as("no epoch bump per transaction before transaction.version 2").isZero();
    }
}
