package io.odradek.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.odradek.broker.coordinators.FakeCluster;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.producer.ProducerIdManager;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.coordinator.transaction.TransactionCoordinatorConfig;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AddPartitionsToTxnApi;
import io.odradek.wire.api.AddPartitionsToTxnApi.Request.AddPartitionsToTxnTopic;
import io.odradek.wire.api.AddPartitionsToTxnApi.Request.AddPartitionsToTxnTransaction;
import io.odradek.wire.api.AddPartitionsToTxnApi.Response.AddPartitionsToTxnPartitionResult;
import io.odradek.wire.api.AddPartitionsToTxnApi.Response.AddPartitionsToTxnResult;
import io.odradek.wire.api.AddPartitionsToTxnApi.Response.AddPartitionsToTxnTopicResult;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A partition leader's transaction verification when the transactional id's coordinator is another broker. */
class ClusterTransactionVerifierTest {
    @TempDir
    Path dir;
    /** Broker 1's view: __transaction_state's 3 partitions led by 2, 1 and nobody. */
    private final FakeCluster cluster = new FakeCluster(1).withBrokers(1, 2)
            .withTopic(TransactionStateTopic.NAME, 2, 1, -1);
    private ProducerIdManager ids;
    private TransactionCoordinator local;

    @BeforeEach
    void start() {
        ids = ProducerIdManager.open(dir);
        // Loads nothing: every id it is asked about locally answers NOT_COORDINATOR.
        local = TransactionCoordinator.create(TransactionCoordinatorConfig.from(Map.of("transaction.state.log.num.partitions", "3")),
                p -> {
                    throw new AssertionError("nothing is loaded here");
                }, ids, (pid, epoch, ce, commit, partitions) -> CompletableFuture.completedFuture(Map.of()));
    }

    @AfterEach
    void stop() {
        local.close();
        ids.close();
    }

    private static String idOn(int partition) {
        for (int i = 0; ; i++) {
            if (OffsetsTopic.partitionFor("txn-" + i, 3) == partition) {
                return "txn-" + i;
            }
        }
    }

    private static TopicPartition tp(String topic, int partition) {
        return new TopicPartition(topic, partition);
    }

    /** An AddPartitionsToTxn v4+ answer giving every partition of the request {@code error}. */
    private static Struct answer(Struct request, ErrorCode error) {
        Struct response = AddPartitionsToTxnApi.Response.SCHEMA.newStruct().set(AddPartitionsToTxnApi.Response.ERROR_CODE, (short) 0);
        for (Struct txn : request.get(AddPartitionsToTxnApi.Request.TRANSACTIONS)) {
            Struct result = response.add(AddPartitionsToTxnApi.Response.RESULTS_BY_TRANSACTION)
                    .set(AddPartitionsToTxnResult.TRANSACTIONAL_ID, txn.get(AddPartitionsToTxnTransaction.TRANSACTIONAL_ID));
            for (Struct topic : txn.get(AddPartitionsToTxnTransaction.TOPICS)) {
                Struct topicResult = result.add(AddPartitionsToTxnResult.TOPIC_RESULTS)
                        .set(AddPartitionsToTxnTopicResult.NAME, topic.get(AddPartitionsToTxnTopic.NAME));
                for (int p : topic.get(AddPartitionsToTxnTopic.PARTITIONS)) {
                    topicResult.add(AddPartitionsToTxnTopicResult.RESULTS_BY_PARTITION)
                            .set(AddPartitionsToTxnPartitionResult.PARTITION_INDEX, p)
                            .set(AddPartitionsToTxnPartitionResult.PARTITION_ERROR_CODE, error.code());
                }
            }
        }
        return response;
    }

    @Test
    void verificationOfAnIdCoordinatedElsewhereIsAVerifyOnlyAddPartitionsToTxnV4ToThatBroker() {
        RecordingSender sender = new RecordingSender().answering(2, r -> answer(r, ErrorCode.TRANSACTION_ABORTABLE));
        ClusterTransactionVerifier verifier = new ClusterTransactionVerifier(cluster, local, sender);
        String id = idOn(0);

        Map<TopicPartition, ErrorCode> errors = verifier.verify(id, 77L, (short) 2,
                List.of(tp("orders", 0), tp("orders", 2), tp("audit", 1)), false).join();

        assertThat(errors).containsExactly(entry(tp("orders", 0), ErrorCode.TRANSACTION_ABORTABLE),
                entry(tp("orders", 2), ErrorCode.TRANSACTION_ABORTABLE), entry(tp("audit", 1), ErrorCode.TRANSACTION_ABORTABLE));
        assertThat(sender.sent).hasSize(1);
        RecordingSender.Sent sent = sender.sent.get(0);
        assertThat(sent.brokerId()).isEqualTo(2);
        assertThat(sent.api()).isEqualTo(AddPartitionsToTxnApi.SPEC);
        assertThat(sent.version()).isEqualTo((short) 4);
        Struct txn = sent.request().get(AddPartitionsToTxnApi.Request.TRANSACTIONS).get(0);
        assertThat(txn.get(AddPartitionsToTxnTransaction.TRANSACTIONAL_ID)).isEqualTo(id);
        assertThat(txn.get(AddPartitionsToTxnTransaction.PRODUCER_ID)).isEqualTo(77L);
        assertThat(txn.get(AddPartitionsToTxnTransaction.PRODUCER_EPOCH)).isEqualTo((short) 2);
        assertThat(txn.get(AddPartitionsToTxnTransaction.VERIFY_ONLY)).isTrue();
        assertThat(txn.get(AddPartitionsToTxnTransaction.TOPICS)).extracting(t -> t.get(AddPartitionsToTxnTopic.NAME))
                .containsExactly("orders", "audit");
        assertThat(txn.get(AddPartitionsToTxnTransaction.TOPICS)).extracting(t -> t.get(AddPartitionsToTxnTopic.PARTITIONS))
                .containsExactly(List.of(0, 2), List.of(1));
    }

    @Test
    void aTransactionVersion2ProducersPartitionIsAddedWithV5() {
        RecordingSender sender = new RecordingSender().answering(2, r -> answer(r, ErrorCode.NONE));
        ClusterTransactionVerifier verifier = new ClusterTransactionVerifier(cluster, local, sender);

        Map<TopicPartition, ErrorCode> errors = verifier.verify(idOn(0), 77L, (short) 2, List.of(tp("orders", 1)), true).join();

        assertThat(errors).containsExactly(entry(tp("orders", 1), ErrorCode.NONE));
        assertThat(sender.sent.get(0).version()).isEqualTo((short) 5);
        assertThat(sender.sent.get(0).request().get(AddPartitionsToTxnApi.Request.TRANSACTIONS).get(0)
                .get(AddPartitionsToTxnTransaction.VERIFY_ONLY)).isFalse();
    }

    @Test
    void anIdCoordinatedHereIsAskedLocallyAndALeaderlessOrUnreachableCoordinatorIsRetriable() {
        RecordingSender sender = new RecordingSender(); // broker 2 unreachable
        ClusterTransactionVerifier verifier = new ClusterTransactionVerifier(cluster, local, sender);

        // Partition 1 is led here, but not loaded in this test's coordinator: its own answer, NOT_COORDINATOR.
        assertThat(verifier.verify(idOn(1), 1L, (short) 0, List.of(tp("orders", 0)), false).join())
                .containsExactly(entry(tp("orders", 0), ErrorCode.NOT_COORDINATOR));
        assertThat(verifier.verify(idOn(2), 1L, (short) 0, List.of(tp("orders", 0)), false).join())
                .containsExactly(entry(tp("orders", 0), ErrorCode.COORDINATOR_NOT_AVAILABLE));
        assertThat(verifier.verify(idOn(0), 1L, (short) 0, List.of(tp("orders", 0)), false).join())
                .containsExactly(entry(tp("orders", 0), ErrorCode.NETWORK_EXCEPTION));
        assertThat(sender.sent).extracting(RecordingSender.Sent::brokerId).containsExactly(2);
    }
}
