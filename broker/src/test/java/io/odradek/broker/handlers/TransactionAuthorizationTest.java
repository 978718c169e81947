package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.CoordinatorAclFixture.alice;
import static io.odradek.broker.handlers.CoordinatorAclFixture.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.security.Session;
import io.odradek.broker.txn.TransactionStateTopic;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.producer.ProducerIdManager;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.coordinator.transaction.TransactionCoordinatorConfig;
import io.odradek.coordinator.transaction.TransactionMarkerWriter;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AddOffsetsToTxnApi;
import io.odradek.wire.api.AddPartitionsToTxnApi;
import io.odradek.wire.api.AddPartitionsToTxnApi.Request.AddPartitionsToTxnTopic;
import io.odradek.wire.api.AddPartitionsToTxnApi.Request.AddPartitionsToTxnTransaction;
import io.odradek.wire.api.AddPartitionsToTxnApi.Response.AddPartitionsToTxnPartitionResult;
import io.odradek.wire.api.AddPartitionsToTxnApi.Response.AddPartitionsToTxnTopicResult;
import io.odradek.wire.api.DescribeTransactionsApi;
import io.odradek.wire.api.DescribeTransactionsApi.Response.TransactionState;
import io.odradek.wire.api.EndTxnApi;
import io.odradek.wire.api.InitProducerIdApi;
import io.odradek.wire.api.ListTransactionsApi;
import io.odradek.wire.api.TxnOffsetCommitApi;
import io.odradek.wire.api.TxnOffsetCommitApi.Request.TxnOffsetCommitRequestTopic;
import io.odradek.wire.api.TxnOffsetCommitApi.Request.TxnOffsetCommitRequestTopic.TxnOffsetCommitRequestPartition;
import io.odradek.wire.api.TxnOffsetCommitApi.Response.TxnOffsetCommitResponseTopic;
import io.odradek.wire.api.TxnOffsetCommitApi.Response.TxnOffsetCommitResponseTopic.TxnOffsetCommitResponsePartition;
import io.odradek.wire.api.WriteTxnMarkersApi;
import io.odradek.wire.api.WriteTxnMarkersApi.Request.WritableTxnMarker;
import io.odradek.wire.api.WriteTxnMarkersApi.Request.WritableTxnMarker.WritableTxnMarkerTopic;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult.WritableTxnMarkerPartitionResult;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a client whose ACLs allow only some transactional ids, groups, topics and cluster operations sees from
 * the transaction APIs: Kafka 4.4's checks and errors, over a real transaction coordinator. Markers are
 * recorded, not written.
 */
class TransactionAuthorizationTest {
    @TempDir
    Path dir;
    AdminFixture f;
    ProducerIdManager producerIds;
    TransactionCoordinator coordinator;
    GroupCoordinator groups;
    final List<String> markers = new CopyOnWriteArrayList<>();
    final TransactionMarkerWriter recorder = (pid, epoch, coordinatorEpoch, commit, partitions) -> {
        markers.add((commit ? "commit " : "abort ") + pid + " " + new TreeSet<>(partitions));
        Map<TopicPartition, ErrorCode> written = new HashMap<>();
        partitions.forEach(tp -> written.put(tp, ErrorCode.NONE));
        return CompletableFuture.completedFuture(written);
    };

    @BeforeEach
    void start() throws Exception {
        f = new AdminFixture(dir, Map.of("transaction.state.log.num.partitions", "1", "offsets.topic.num.partitions", "1"));
        f.topics.createTopic("orders", 2, Map.of(), false);
        f.topics.createTopic("secret", 1, Map.of(), false);
        f.topics.createTopic(TransactionStateTopic.NAME, 1, TransactionStateTopic.configs(104857600), false);
        producerIds = ProducerIdManager.open(dir);
        coordinator = TransactionCoordinator.create(TransactionCoordinatorConfig.from(f.config.effectiveConfigs()),
                p -> new PartitionLogCoordinatorLog(f.topics.partitionLog(TransactionStateTopic.NAME, p).orElseThrow()),
                producerIds, recorder);
        coordinator.startup();
        groups = GroupCoordinators.startLoaded(f);
    }

    @AfterEach
    void stop() {
        groups.close();
        coordinator.close();
        producerIds.close();
        f.close();
    }

    @Test
    void initProducerIdNeedsWriteOnTheTransactionalIdOrIdempotentWriteBeforeAnythingElse() {
        InitProducerIdHandler init = new InitProducerIdHandler(producerIds, coordinator);
        assertThat(error(call(init, 5, initRequest("tx", -1L, (short) -1), alice("DESCRIBE TRANSACTIONAL_ID tx"))))
                .isEqualTo(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        assertThat(error(call(init, 5, initRequest("tx", 12L, (short) -1), alice())))
                .as("authorization comes before the id/epoch check").isEqualTo(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        Struct twoPhase = initRequest("tx", -1L, (short) -1).set(InitProducerIdApi.Request.ENABLE2_PC, true);
        Struct refused2pc = call(init, 6, twoPhase, alice("WRITE TRANSACTIONAL_ID tx"));
        assertThat(error(refused2pc)).isEqualTo(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        assertThat(refused2pc.get(InitProducerIdApi.Response.PRODUCER_ID)).isEqualTo(-1L);

        Struct transactional = awaitSettled(() -> call(init, 5, initRequest("tx", -1L, (short) -1),
                alice("WRITE TRANSACTIONAL_ID tx")), InitProducerIdApi.Response.ERROR_CODE);
        assertThat(error(transactional)).isEqualTo(ErrorCode.NONE);

        assertThat(error(call(init, 5, initRequest(null, -1L, (short) -1), alice("READ TOPIC orders"))))
                .isEqualTo(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);
        Struct anyTopic = call(init, 5, initRequest(null, -1L, (short) -1), alice("WRITE TOPIC orders"));
        assertThat(error(anyTopic)).as("KIP-679: WRITE on some topic is enough").isEqualTo(ErrorCode.NONE);
        assertThat(anyTopic.get(InitProducerIdApi.Response.PRODUCER_ID)).isNotNegative();
        assertThat(error(call(init, 5, initRequest(null, -1L, (short) -1), alice("IDEMPOTENT_WRITE CLUSTER kafka-cluster"))))
                .isEqualTo(ErrorCode.NONE);
    }

    @Test
    void addPartitionsToTxnChecksTheTransactionalIdThenEveryTopicAndRefusesInternalTopics() {
        AddPartitionsToTxnHandler add = new AddPartitionsToTxnHandler(coordinator, f.topics);
        Struct request = AddPartitionsToTxnApi.Request.SCHEMA.newStruct()
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_TRANSACTIONAL_ID, "tx")
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_PRODUCER_ID, 5L)
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_PRODUCER_EPOCH, (short) 0)
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_TOPICS,
                        List.of(topic("orders", 0), topic("secret", 0), topic("__consumer_offsets", 0)));

        assertThat(results(call(add, 3, request, alice("WRITE TOPIC orders")))).containsExactly(
                "orders-0 TRANSACTIONAL_ID_AUTHORIZATION_FAILED", "secret-0 TRANSACTIONAL_ID_AUTHORIZATION_FAILED",
                "__consumer_offsets-0 TRANSACTIONAL_ID_AUTHORIZATION_FAILED");
        assertThat(results(call(add, 3, request, alice("WRITE TRANSACTIONAL_ID tx", "WRITE TOPIC orders",
                "WRITE TOPIC __consumer_offsets")))).containsExactly(
                "orders-0 OPERATION_NOT_ATTEMPTED", "secret-0 TOPIC_AUTHORIZATION_FAILED",
                "__consumer_offsets-0 TOPIC_AUTHORIZATION_FAILED");

        Struct batched = AddPartitionsToTxnApi.Request.SCHEMA.newStruct().set(AddPartitionsToTxnApi.Request.TRANSACTIONS,
                List.of(AddPartitionsToTxnTransaction.SCHEMA.newStruct()
                        .set(AddPartitionsToTxnTransaction.TRANSACTIONAL_ID, "tx")
                        .set(AddPartitionsToTxnTransaction.PRODUCER_ID, 5L)
                        .set(AddPartitionsToTxnTransaction.PRODUCER_EPOCH, (short) 0)
                        .set(AddPartitionsToTxnTransaction.VERIFY_ONLY, true)
                        .set(AddPartitionsToTxnTransaction.TOPICS, List.of(topic("orders", 0)))));
        Struct fromABroker = call(add, 5, batched, alice("WRITE TRANSACTIONAL_ID tx", "WRITE TOPIC orders"));
        assertThat(ErrorCode.forCode(fromABroker.get(AddPartitionsToTxnApi.Response.ERROR_CODE)))
                .isEqualTo(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);
        assertThat(fromABroker.get(AddPartitionsToTxnApi.Response.RESULTS_BY_TRANSACTION)).isEmpty();
        assertThat(call(add, 5, batched, alice("CLUSTER_ACTION CLUSTER kafka-cluster")).get(AddPartitionsToTxnApi.Response.ERROR_CODE))
                .as("v4+ checks no transactional id or topic").isZero();
    }

    @Test
    void addOffsetsAndEndTxnNeedWriteOnTheTransactionalIdAndReadOnTheGroup() {
        AddOffsetsToTxnHandler addOffsets = new AddOffsetsToTxnHandler(coordinator);
        Struct request = AddOffsetsToTxnApi.Request.SCHEMA.newStruct().set(AddOffsetsToTxnApi.Request.TRANSACTIONAL_ID, "tx")
                .set(AddOffsetsToTxnApi.Request.PRODUCER_ID, 5L).set(AddOffsetsToTxnApi.Request.PRODUCER_EPOCH, (short) 0)
                .set(AddOffsetsToTxnApi.Request.GROUP_ID, "g");
        assertThat(ErrorCode.forCode(call(addOffsets, 3, request, alice("READ GROUP g")).get(AddOffsetsToTxnApi.Response.ERROR_CODE)))
                .isEqualTo(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        assertThat(ErrorCode.forCode(call(addOffsets, 3, request, alice("WRITE TRANSACTIONAL_ID tx", "DESCRIBE GROUP g"))
                .get(AddOffsetsToTxnApi.Response.ERROR_CODE))).isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED);

        Struct end = EndTxnApi.Request.SCHEMA.newStruct().set(EndTxnApi.Request.TRANSACTIONAL_ID, "tx")
                .set(EndTxnApi.Request.PRODUCER_ID, 5L).set(EndTxnApi.Request.PRODUCER_EPOCH, (short) 0)
                .set(EndTxnApi.Request.COMMITTED, true);
        Struct refused = call(new EndTxnHandler(coordinator), 5, end, alice("DESCRIBE TRANSACTIONAL_ID tx"));
        assertThat(ErrorCode.forCode(refused.get(EndTxnApi.Response.ERROR_CODE))).isEqualTo(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        assertThat(refused.get(EndTxnApi.Response.PRODUCER_ID)).isEqualTo(-1L);
        assertThat(refused.get(EndTxnApi.Response.PRODUCER_EPOCH)).isEqualTo((short) -1);
        assertThat(markers).isEmpty();
    }

    @Test
    void txnOffsetCommitChecksTheTransactionalIdTheGroupThenEachTopic() {
        List<String> verified = new ArrayList<>();
        TxnOffsetCommitHandler handler = new TxnOffsetCommitHandler(groups, (id, pid, epoch, partitions, add) -> {
            verified.add(id);
            Map<TopicPartition, ErrorCode> ok = new HashMap<>();
            partitions.forEach(tp -> ok.put(tp, ErrorCode.NONE));
            return CompletableFuture.completedFuture(ok);
        }, f.topics);
        Struct request = TxnOffsetCommitApi.Request.SCHEMA.newStruct()
                .set(TxnOffsetCommitApi.Request.TRANSACTIONAL_ID, "tx").set(TxnOffsetCommitApi.Request.GROUP_ID, "g")
                .set(TxnOffsetCommitApi.Request.PRODUCER_ID, 5L).set(TxnOffsetCommitApi.Request.PRODUCER_EPOCH, (short) 0);
        for (String topic : List.of("orders", "secret")) {
            request.add(TxnOffsetCommitApi.Request.TOPICS).set(TxnOffsetCommitRequestTopic.NAME, topic)
                    .add(TxnOffsetCommitRequestTopic.PARTITIONS).set(TxnOffsetCommitRequestPartition.PARTITION_INDEX, 0)
                    .set(TxnOffsetCommitRequestPartition.COMMITTED_OFFSET, 10L);
        }

        assertThat(txnCommitErrors(call(handler, 3, request, alice("READ GROUP g", "READ TOPIC orders"))))
                .containsExactly("orders-0 TRANSACTIONAL_ID_AUTHORIZATION_FAILED", "secret-0 TRANSACTIONAL_ID_AUTHORIZATION_FAILED");
        assertThat(txnCommitErrors(call(handler, 3, request, alice("WRITE TRANSACTIONAL_ID tx", "READ TOPIC orders"))))
                .containsExactly("orders-0 GROUP_AUTHORIZATION_FAILED", "secret-0 GROUP_AUTHORIZATION_FAILED");
        assertThat(verified).as("nothing verified while refused").isEmpty();
        assertThat(txnCommitErrors(call(handler, 3, request, alice("WRITE TRANSACTIONAL_ID tx", "READ GROUP g", "READ TOPIC orders"))))
                .containsExactly("orders-0 NONE", "secret-0 TOPIC_AUTHORIZATION_FAILED");
        assertThat(verified).containsExactly("tx");
    }

    @Test
    void writeTxnMarkersNeedsAlterOrClusterActionOnTheCluster() {
        WriteTxnMarkersHandler handler = new WriteTxnMarkersHandler(recorder);
        Struct request = WriteTxnMarkersApi.Request.SCHEMA.newStruct();
        request.add(WriteTxnMarkersApi.Request.MARKERS).set(WritableTxnMarker.PRODUCER_ID, 9L)
                .set(WritableTxnMarker.PRODUCER_EPOCH, (short) 1).set(WritableTxnMarker.TRANSACTION_RESULT, true)
                .set(WritableTxnMarker.COORDINATOR_EPOCH, 0)
                .add(WritableTxnMarker.TOPICS).set(WritableTxnMarkerTopic.NAME, "orders")
                .set(WritableTxnMarkerTopic.PARTITION_INDEXES, List.of(0, 1));

        assertThat(markerErrors(call(handler, 1, request, alice("DESCRIBE CLUSTER kafka-cluster", "WRITE TOPIC orders"))))
                .containsExactly("9 orders-0 CLUSTER_AUTHORIZATION_FAILED", "9 orders-1 CLUSTER_AUTHORIZATION_FAILED");
        assertThat(markers).isEmpty();
        assertThat(markerErrors(call(handler, 1, request, alice("CLUSTER_ACTION CLUSTER kafka-cluster"))))
                .containsExactly("9 orders-0 NONE", "9 orders-1 NONE");
        assertThat(markerErrors(call(handler, 1, request, alice("ALTER CLUSTER kafka-cluster"))))
                .containsExactly("9 orders-0 NONE", "9 orders-1 NONE");
        assertThat(markers).containsExactly("commit 9 [orders-0, orders-1]", "commit 9 [orders-0, orders-1]");
    }

    @Test
    void describeAndListTransactionsShowOnlyTransactionalIdsAndTopicsTheClientMayDescribe() {
        InitProducerIdHandler init = new InitProducerIdHandler(producerIds, coordinator);
        Struct open = awaitSettled(() -> call(init, 5, initRequest("tx", -1L, (short) -1), Session.PLAINTEXT_ANONYMOUS),
                InitProducerIdApi.Response.ERROR_CODE);
        awaitSettled(() -> call(init, 5, initRequest("other", -1L, (short) -1), Session.PLAINTEXT_ANONYMOUS),
                InitProducerIdApi.Response.ERROR_CODE);
        Struct add = AddPartitionsToTxnApi.Request.SCHEMA.newStruct()
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_TRANSACTIONAL_ID, "tx")
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_PRODUCER_ID, open.get(InitProducerIdApi.Response.PRODUCER_ID))
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_PRODUCER_EPOCH, open.get(InitProducerIdApi.Response.PRODUCER_EPOCH))
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_TOPICS, List.of(topic("orders", 1), topic("secret", 0)));
        assertThat(results(call(new AddPartitionsToTxnHandler(coordinator, f.topics), 3, add, Session.PLAINTEXT_ANONYMOUS)))
                .containsExactly("orders-1 NONE", "secret-0 NONE");

        Session session = alice("DESCRIBE TRANSACTIONAL_ID tx", "DESCRIBE TOPIC orders");
        Struct describe = DescribeTransactionsApi.Request.SCHEMA.newStruct()
                .set(DescribeTransactionsApi.Request.TRANSACTIONAL_IDS, List.of("other", "tx"));
        List<Struct> states = call(new DescribeTransactionsHandler(coordinator), 0, describe, session)
                .get(DescribeTransactionsApi.Response.TRANSACTION_STATES);
        assertThat(states).extracting(s -> s.get(TransactionState.TRANSACTIONAL_ID) + " "
                        + ErrorCode.forCode(s.get(TransactionState.ERROR_CODE)) + " '" + s.get(TransactionState.TRANSACTION_STATE) + "' "
                        + s.get(TransactionState.TOPICS).stream().map(t -> t.get(TransactionState.TopicData.TOPIC) + "="
                                + t.get(TransactionState.TopicData.PARTITIONS)).toList())
                .containsExactly("other TRANSACTIONAL_ID_AUTHORIZATION_FAILED '' []", "tx NONE 'Ongoing' [orders=[1]]");

        Struct list = ListTransactionsApi.Request.SCHEMA.newStruct();
        assertThat(call(new ListTransactionsHandler(coordinator), 0, list, session).get(ListTransactionsApi.Response.TRANSACTION_STATES))
                .extracting(s -> s.get(ListTransactionsApi.Response.TransactionState.TRANSACTIONAL_ID)).containsExactly("tx");
        assertThat(call(new ListTransactionsHandler(coordinator), 0, list, Session.PLAINTEXT_ANONYMOUS)
                .get(ListTransactionsApi.Response.TRANSACTION_STATES))
                .extracting(s -> s.get(ListTransactionsApi.Response.TransactionState.TRANSACTIONAL_ID))
                .containsExactlyInAnyOrder("tx", "other");
    }

    @Test
    void withoutAnAuthorizerTheTransactionApisAskNothingAndRefuseNothing() {
        Session open = CoordinatorAclFixture.unauthorized();
        InitProducerIdHandler init = new InitProducerIdHandler(producerIds, coordinator);
        assertThat(error(call(init, 5, initRequest(null, -1L, (short) -1), open))).isEqualTo(ErrorCode.NONE);
        Struct tx = awaitSettled(() -> call(init, 5, initRequest("tx", -1L, (short) -1), open), InitProducerIdApi.Response.ERROR_CODE);
        assertThat(error(tx)).isEqualTo(ErrorCode.NONE);
        Struct add = AddPartitionsToTxnApi.Request.SCHEMA.newStruct()
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_TRANSACTIONAL_ID, "tx")
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_PRODUCER_ID, tx.get(InitProducerIdApi.Response.PRODUCER_ID))
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_PRODUCER_EPOCH, tx.get(InitProducerIdApi.Response.PRODUCER_EPOCH))
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_TOPICS, List.of(topic("secret", 0)));
        assertThat(results(call(new AddPartitionsToTxnHandler(coordinator, f.topics), 3, add, open))).containsExactly("secret-0 NONE");
        Struct describe = DescribeTransactionsApi.Request.SCHEMA.newStruct()
                .set(DescribeTransactionsApi.Request.TRANSACTIONAL_IDS, List.of("tx"));
        assertThat(call(new DescribeTransactionsHandler(coordinator), 0, describe, open).get(DescribeTransactionsApi.Response.TRANSACTION_STATES))
                .flatExtracting(s -> s.get(TransactionState.TOPICS)).extracting(t -> t.get(TransactionState.TopicData.TOPIC))
                .containsExactly("secret");
        assertThat(call(new ListTransactionsHandler(coordinator), 0, ListTransactionsApi.Request.SCHEMA.newStruct(), open)
                .get(ListTransactionsApi.Response.TRANSACTION_STATES)).hasSize(1);
    }

    // ------------------------------------------------------------------ helpers

    private static Struct initRequest(String transactionalId, long producerId, short epoch) {
        return InitProducerIdApi.Request.SCHEMA.newStruct()
                .set(InitProducerIdApi.Request.TRANSACTIONAL_ID, transactionalId)
                .set(InitProducerIdApi.Request.TRANSACTION_TIMEOUT_MS, 60_000)
                .set(InitProducerIdApi.Request.PRODUCER_ID, producerId)
                .set(InitProducerIdApi.Request.PRODUCER_EPOCH, epoch);
    }

    private static ErrorCode error(Struct initResponse) {
        return ErrorCode.forCode(initResponse.get(InitProducerIdApi.Response.ERROR_CODE));
    }

    private static Struct topic(String name, Integer... partitions) {
        return AddPartitionsToTxnTopic.SCHEMA.newStruct().set(AddPartitionsToTxnTopic.NAME, name)
                .set(AddPartitionsToTxnTopic.PARTITIONS, List.of(partitions));
    }

    /** "topic-partition ERROR" per v0-3 partition result, in response order. */
    private static List<String> results(Struct response) {
        List<String> out = new ArrayList<>();
        for (Struct t : response.get(AddPartitionsToTxnApi.Response.RESULTS_BY_TOPIC_V3_AND_BELOW)) {
            for (Struct p : t.get(AddPartitionsToTxnTopicResult.RESULTS_BY_PARTITION)) {
                out.add(t.get(AddPartitionsToTxnTopicResult.NAME) + "-" + p.get(AddPartitionsToTxnPartitionResult.PARTITION_INDEX)
                        + " " + ErrorCode.forCode(p.get(AddPartitionsToTxnPartitionResult.PARTITION_ERROR_CODE)));
            }
        }
        return out;
    }

    private static List<String> txnCommitErrors(Struct response) {
        List<String> out = new ArrayList<>();
        for (Struct t : response.get(TxnOffsetCommitApi.Response.TOPICS)) {
            for (Struct p : t.get(TxnOffsetCommitResponseTopic.PARTITIONS)) {
                out.add(t.get(TxnOffsetCommitResponseTopic.NAME) + "-" + p.get(TxnOffsetCommitResponsePartition.PARTITION_INDEX)
                        + " " + ErrorCode.forCode(p.get(TxnOffsetCommitResponsePartition.ERROR_CODE)));
            }
        }
        return out;
    }

    private static List<String> markerErrors(Struct response) {
        List<String> out = new ArrayList<>();
        for (Struct m : response.get(WriteTxnMarkersApi.Response.MARKERS)) {
            for (Struct t : m.get(WritableTxnMarkerResult.TOPICS)) {
                for (Struct p : t.get(WritableTxnMarkerTopicResult.PARTITIONS)) {
                    out.add(m.get(WritableTxnMarkerResult.PRODUCER_ID) + " " + t.get(WritableTxnMarkerTopicResult.NAME) + "-"
                            + p.get(WritableTxnMarkerPartitionResult.PARTITION_INDEX) + " "
                            + ErrorCode.forCode(p.get(WritableTxnMarkerPartitionResult.ERROR_CODE)));
                }
            }
        }
        return out;
    }

    /** Repeats a call while the coordinator is still loading, as a client would (up to 10 s). */
    private static Struct awaitSettled(Supplier<Struct> call, io.odradek.wire.schema.Field<Short> errorField) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            Struct response = call.get();
            short code = response.get(errorField);
            boolean retriable = code == ErrorCode.COORDINATOR_LOAD_IN_PROGRESS.code()
                    || code == ErrorCode.CONCURRENT_TRANSACTIONS.code();
            if (!retriable || System.nanoTime() > deadline) {
                return response;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
