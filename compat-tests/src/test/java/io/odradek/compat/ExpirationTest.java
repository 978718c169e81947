package io.odradek.compat;

import static io.odradek.compat.OdradekBroker.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * transactional.id.expiration.ms and producer.id.expiration.ms (Kafka: 7 days and 1 day, checked every hour and
 * every 10 minutes), shortened to a second: an idle transactional id is forgotten and comes back with a new
 * producer id; an idle producer's state on a partition is dropped, while a producer with an open transaction
 * keeps its state however idle.
 */
class ExpirationTest {
    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of(
            "transaction.state.log.num.partitions", "1",
            "transactional.id.expiration.ms", "1000",
            "transaction.remove.expired.transaction.cleanup.interval.ms", "200",
            "producer.id.expiration.ms", "1000",
            "producer.id.expiration.check.interval.ms", "200"));

    @Test
    void idleTransactionalIdIsForgottenAndComesBackWithANewProducerId() throws Exception {
        String topic = "expiring-ids";
        broker.createTopic(topic, 1);
        KafkaProducer<String, String> first = Clients.transactionalProducer(broker, "expiring", Map.of());
        first.beginTransaction();
        first.send(new ProducerRecord<>(topic, 0, "k", "v0")).get();
        first.commitTransaction();
        Clients.awaitTransactionState(broker, "expiring", TransactionState.COMPLETE_COMMIT);
        long firstProducerId = describe("expiring").producerId();
        first.close();

        awaitTrue("expiring is no longer listed", () -> listed().stream()
                .noneMatch(t -> t.transactionalId().equals("expiring")));
        Throwable unknown = catchThrowable(() -> describe("expiring"));
        assertThat(unknown).isInstanceOf(TransactionalIdNotFoundException.class);

        KafkaProducer<String, String> second = Clients.transactionalProducer(broker, "expiring", Map.of());
        TransactionDescription renewed = describe("expiring");
        assertThat(renewed.producerId()).as("a new producer id").isNotEqualTo(firstProducerId);
        assertThat(renewed.producerEpoch()).isZero();
        assertThat(renewed.state()).isEqualTo(TransactionState.EMPTY);
        second.beginTransaction();
        assertThat(second.send(new ProducerRecord<>(topic, 0, "k", "v1")).get().offset()).isEqualTo(2);
        second.commitTransaction();
        Clients.awaitLastStableOffsets(broker, topic, List.of(4L));
        assertThat(Clients.readAtIsolation(broker, topic, 1, "read_committed")).extracting(r -> r.offset() + " " + r.value())
                .containsExactly("0 v0", "2 v1");
    }

    @Test
    void idleProducerStateExpiresWhileAnOpenTransactionKeepsItsProducer() throws Exception {
        String topic = "expiring-producers";
        TopicPartition tp = new TopicPartition(topic, 0);
        broker.createTopic(topic, 1);
        KafkaProducer<String, String> idempotent = Clients.producer(broker, Map.of());
        idempotent.send(new ProducerRecord<>(topic, 0, "i", "idempotent-0")).get(); // 0
        KafkaProducer<String, String> open = Clients.transactionalProducer(broker, "expiring-open", Map.of());
        open.beginTransaction();
        open.send(new ProducerRecord<>(topic, 0, "t", "open-0")).get(); // 1
        long openProducerId = describe("expiring-open").producerId();

        awaitTrue("only the open transaction's producer left on " + tp,
                () -> producers(tp).stream().allMatch(p -> p.producerId() == openProducerId));
        List<ProducerState> left = producers(tp);
        assertThat(left).hasSize(1);
        assertThat(left.get(0).currentTransactionStartOffset().orElse(-1)).isEqualTo(1);

        // The idle idempotent producer, its state gone, still appends (as in Kafka: an unknown producer's
        // sequence is accepted) at the next offset.
        assertThat(idempotent.send(new ProducerRecord<>(topic, 0, "i", "idempotent-1")).get().offset()).isEqualTo(2);
        open.commitTransaction(); // marker 3
        Clients.awaitLastStableOffsets(broker, topic, List.of(4L));
        assertThat(Clients.readAtIsolation(broker, topic, 1, "read_committed")).extracting(r -> r.offset() + " " + r.value())
                .containsExactly("0 idempotent-0", "1 open-0", "2 idempotent-1");
    }

    private TransactionDescription describe(String transactionalId) throws Exception {
        try {
            return broker.admin().describeTransactions(List.of(transactionalId)).description(transactionalId).get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private List<TransactionListing> listed() {
        return List.copyOf(await(broker.admin().listTransactions().all()));
    }

    private List<ProducerState> producers(TopicPartition tp) {
        return await(broker.admin().describeProducers(List.of(tp)).partitionResult(tp)).activeProducers();
    }

    private static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("within 30 s: %s", what).isLessThan(deadline);
            Thread.sleep(200);
        }
    }
}
