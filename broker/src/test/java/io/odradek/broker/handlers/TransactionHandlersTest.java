package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.txn.TransactionStateTopic;
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
import io.odradek.wire.api.AddPartitionsToTxnApi.Response.AddPartitionsToTxnResult;
import io.odradek.wire.api.AddPartitionsToTxnApi.Response.AddPartitionsToTxnTopicResult;
import io.odradek.wire.api.DescribeTransactionsApi;
import io.odradek.wire.api.DescribeTransactionsApi.Response.TransactionState;
import io.odradek.wire.api.EndTxnApi;
import io.odradek.wire.api.InitProducerIdApi;
import io.odradek.wire.api.ListTransactionsApi;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transaction handlers over a real transaction coordinator on {@code __transaction_state} logs in a
 * temp dir, through the real codec at the versions where their shapes differ. Markers are recorded, not
 * written (the marker writer is the data path's).
 */
class TransactionHandlersTest {
    static final int STATE_PARTITIONS = 2;

    @TempDir
    Path dir;
    AdminFixture f;
    ProducerIdManager producerIds;
    TransactionCoordinator coordinator;
    final List<String> markers = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        f = new AdminFixture(dir, Map.of("transaction.state.log.num.partitions", Integer.toString(STATE_PARTITIONS)));
        f.topics.createTopic("orders", 2, Map.of(), false);
        f.topics.createTopic(TransactionStateTopic.NAME, STATE_PARTITIONS, TransactionStateTopic.configs(104857600), false);
        producerIds = ProducerIdManager.open(dir);
        TransactionMarkerWriter recorder = (pid, epoch, coordinatorEpoch, commit, partitions) -> {
            markers.add((commit ? "commit " : "abort ") + pid + "/" + epoch + " " + new java.util.TreeSet<>(partitions));
            Map<TopicPartition, ErrorCode> written = new java.util.HashMap<>();
            partitions.forEach(tp -> written.put(tp, ErrorCode.NONE));
            return CompletableFuture.completedFuture(written);
        };
        coordinator = TransactionCoordinator.create(TransactionCoordinatorConfig.from(f.config.effectiveConfigs()),
                p -> new PartitionLogCoordinatorLog(f.topics.partitionLog(TransactionStateTopic.NAME, p).orElseThrow()),
                producerIds, recorder);
        coordinator.startup();
    }

    @AfterEach
    void stop() {
        coordinator.close();
        producerIds.close();
        f.close();
    }

    // ------------------------------------------------------------------ checks made by the handlers alone

    @Test
    void aTransactionalIdWithoutAnEpochOrAnEmptyOneIsAnInvalidRequest() {
        InitProducerIdHandler init = new InitProducerIdHandler(producerIds, coordinator);
        assertThat(init(init, 4, "tx", 12L, (short) -1).get(InitProducerIdApi.Response.ERROR_CODE))
                .isEqualTo(ErrorCode.INVALID_REQUEST.code());
        Struct empty = init(init, 4, "", -1L, (short) -1);
        assertThat(empty.get(InitProducerIdApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
        assertThat(empty.get(InitProducerIdApi.Response.PRODUCER_ID)).isEqualTo(-1L);
    }

    @Test
    void addingAPartitionOfAMissingTopicFailsTheWholeTransactionInTheV3Shape() {
        AddPartitionsToTxnHandler handler = new AddPartitionsToTxnHandler(coordinator, f.topics);
        Struct response = f.call(handler, 3, AddPartitionsToTxnApi.Request.SCHEMA.newStruct()
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_TRANSACTIONAL_ID, "tx")
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_PRODUCER_ID, 7L)
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_PRODUCER_EPOCH, (short) 0)
                .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_TOPICS, List.of(topic("orders", 0, 1), topic("missing", 0), topic("orders", 2))));
        assertThat(results(response.get(AddPartitionsToTxnApi.Response.RESULTS_BY_TOPIC_V3_AND_BELOW))).containsExactly(
                "orders-0 " + ErrorCode.OPERATION_NOT_ATTEMPTED, "orders-1 " + ErrorCode.OPERATION_NOT_ATTEMPTED,
                "orders-2 " + ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "missing-0 " + ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    }

    @Test
    void aBatchedRequestAnswersEachTransactionInRequestOrder() {
        AddPartitionsToTxnHandler handler = new AddPartitionsToTxnHandler(coordinator, f.topics);
        Struct response = f.call(handler, 5, AddPartitionsToTxnApi.Request.SCHEMA.newStruct()
                .set(AddPartitionsToTxnApi.Request.TRANSACTIONS, List.of(
                        transaction("first", 1L, true, topic("gone", 3)),
                        transaction("second", 2L, false, topic("orders", 0), topic("nope", 1)))));
        assertThat(response.get(AddPartitionsToTxnApi.Response.ERROR_CODE)).isZero();
        List<Struct> byTxn = response.get(AddPartitionsToTxnApi.Response.RESULTS_BY_TRANSACTION);
        assertThat(byTxn).extracting(t -> t.get(AddPartitionsToTxnResult.TRANSACTIONAL_ID)).containsExactly("first", "second");
        assertThat(results(byTxn.get(0).get(AddPartitionsToTxnResult.TOPIC_RESULTS)))
                .containsExactly("gone-3 " + ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(results(byTxn.get(1).get(AddPartitionsToTxnResult.TOPIC_RESULTS)))
                .containsExactly("orders-0 " + ErrorCode.OPERATION_NOT_ATTEMPTED, "nope-1 " + ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    }

    // ------------------------------------------------------------------ with the coordinator's state machine

    @Test
    void aTransactionalProducerGetsAnIdAndASecondInitBumpsTheEpochAndFencesTheFirst() {
        InitProducerIdHandler init = new InitProducerIdHandler(producerIds, coordinator);
        Struct first = awaitNoRetriable(() -> init(init, 5, "tx-a", -1L, (short) -1), InitProducerIdApi.Response.ERROR_CODE);
        assertThat(first.get(InitProducerIdApi.Response.ERROR_CODE)).isZero();
        long pid = first.get(InitProducerIdApi.Response.PRODUCER_ID);
        short epoch = first.get(InitProducerIdApi.Response.PRODUCER_EPOCH);
        assertThat(pid).isNotNegative();

        Struct second = init(init, 5, "tx-a", -1L, (short) -1);
        assertThat(second.get(InitProducerIdApi.Response.ERROR_CODE)).isZero();
        assertThat(second.get(InitProducerIdApi.Response.PRODUCER_ID)).isEqualTo(pid);
        assertThat(second.get(InitProducerIdApi.Response.PRODUCER_EPOCH)).isEqualTo((short) (epoch + 1));

        // The first producer is fenced: v2+ clients hear PRODUCER_FENCED, v1 clients INVALID_PRODUCER_EPOCH.
        AddPartitionsToTxnHandler add = new AddPartitionsToTxnHandler(coordinator, f.topics);
        assertThat(results(addV3(add, 2, "tx-a", pid, epoch, "orders", 0)))
                .containsExactly("orders-0 " + ErrorCode.PRODUCER_FENCED);
        assertThat(results(addV3(add, 1, "tx-a", pid, epoch, "orders", 0)))
                .containsExactly("orders-0 " + ErrorCode.INVALID_PRODUCER_EPOCH);
    }

    @Test
    void aFencedProducerEndingItsTransactionHearsProducerFencedFromV2AndInvalidProducerEpochBefore() {
        InitProducerIdHandler init = new InitProducerIdHandler(producerIds, coordinator);
        Struct first = awaitNoRetriable(() -> init(init, 4, "tx-d", -1L, (short) -1), InitProducerIdApi.Response.ERROR_CODE);
        long pid = first.get(InitProducerIdApi.Response.PRODUCER_ID);
        short epoch = first.get(InitProducerIdApi.Response.PRODUCER_EPOCH);
        assertThat(init(init, 4, "tx-d", -1L, (short) -1).get(InitProducerIdApi.Response.ERROR_CODE)).isZero();

        EndTxnHandler end = new EndTxnHandler(coordinator);
        assertThat(ErrorCode.forCode(f.call(end, 2, endTxn("tx-d", pid, epoch, true)).get(EndTxnApi.Response.ERROR_CODE)))
                .isEqualTo(ErrorCode.PRODUCER_FENCED);
        assertThat(ErrorCode.forCode(f.call(end, 1, endTxn("tx-d", pid, epoch, true)).get(EndTxnApi.Response.ERROR_CODE)))
                .isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH);
        Struct offsets = AddOffsetsToTxnApi.Request.SCHEMA.newStruct()
                .set(AddOffsetsToTxnApi.Request.TRANSACTIONAL_ID, "tx-d").set(AddOffsetsToTxnApi.Request.PRODUCER_ID, pid)
                .set(AddOffsetsToTxnApi.Request.PRODUCER_EPOCH, epoch).set(AddOffsetsToTxnApi.Request.GROUP_ID, "g");
        AddOffsetsToTxnHandler addOffsets = new AddOffsetsToTxnHandler(coordinator);
        assertThat(ErrorCode.forCode(f.call(addOffsets, 3, offsets).get(AddOffsetsToTxnApi.Response.ERROR_CODE)))
                .isEqualTo(ErrorCode.PRODUCER_FENCED);
        assertThat(ErrorCode.forCode(f.call(addOffsets, 0, offsets).get(AddOffsetsToTxnApi.Response.ERROR_CODE)))
                .isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH);
    }

    @Test
    void listTransactionsV2FiltersByTransactionalIdPatternAndRefusesABadOne() {
        InitProducerIdHandler init = new InitProducerIdHandler(producerIds, coordinator);
        awaitNoRetriable(() -> init(init, 4, "orders-app-1", -1L, (short) -1), InitProducerIdApi.Response.ERROR_CODE);
        awaitNoRetriable(() -> init(init, 4, "payments-app-1", -1L, (short) -1), InitProducerIdApi.Response.ERROR_CODE);
        ListTransactionsHandler list = new ListTransactionsHandler(coordinator);

        Struct matching = f.call(list, 2, ListTransactionsApi.Request.SCHEMA.newStruct()
                .set(ListTransactionsApi.Request.TRANSACTIONAL_ID_PATTERN, "orders-.*"));
        assertThat(matching.get(ListTransactionsApi.Response.ERROR_CODE)).isZero();
        assertThat(matching.get(ListTransactionsApi.Response.TRANSACTION_STATES)).extracting(
                        t -> t.get(ListTransactionsApi.Response.TransactionState.TRANSACTIONAL_ID) + " "
                                + t.get(ListTransactionsApi.Response.TransactionState.TRANSACTION_STATE))
                .containsExactly("orders-app-1 Empty");

        Struct all = f.call(list, 0, ListTransactionsApi.Request.SCHEMA.newStruct());
        assertThat(all.get(ListTransactionsApi.Response.TRANSACTION_STATES)).extracting(
                        t -> t.get(ListTransactionsApi.Response.TransactionState.TRANSACTIONAL_ID))
                .containsExactlyInAnyOrder("orders-app-1", "payments-app-1");

        Struct bad = f.call(list, 2, ListTransactionsApi.Request.SCHEMA.newStruct()
                .set(ListTransactionsApi.Request.TRANSACTIONAL_ID_PATTERN, "[unclosed"));
        assertThat(bad.get(ListTransactionsApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REGULAR_EXPRESSION.code());
        assertThat(bad.get(ListTransactionsApi.Response.TRANSACTION_STATES)).isEmpty();
    }

    @Test
    void aTimeoutAboveTheMaximumIsRefused() {
        InitProducerIdHandler init = new InitProducerIdHandler(producerIds, coordinator);
        Struct request = InitProducerIdApi.Request.SCHEMA.newStruct().set(InitProducerIdApi.Request.TRANSACTIONAL_ID, "slow")
                .set(InitProducerIdApi.Request.TRANSACTION_TIMEOUT_MS, 900_001);
        Struct refused = awaitNoRetriable(() -> f.call(init, 4, request), InitProducerIdApi.Response.ERROR_CODE);
        assertThat(refused.get(InitProducerIdApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_TRANSACTION_TIMEOUT.code());
    }

    @Test
    void aV1TransactionIsListedDescribedAndCommittedWithItsMarkers() {
        InitProducerIdHandler init = new InitProducerIdHandler(producerIds, coordinator);
        Struct id = awaitNoRetriable(() -> init(init, 3, "tx-b", -1L, (short) -1), InitProducerIdApi.Response.ERROR_CODE);
        long pid = id.get(InitProducerIdApi.Response.PRODUCER_ID);
        short epoch = id.get(InitProducerIdApi.Response.PRODUCER_EPOCH);

        AddPartitionsToTxnHandler add = new AddPartitionsToTxnHandler(coordinator, f.topics);
        assertThat(results(addV3(add, 3, "tx-b", pid, epoch, "orders", 1)))
                .containsExactly("orders-1 " + ErrorCode.NONE);
        // A partition leader verifying (v4+, verify_only): only what was added is in the transaction, nothing is added.
        Struct verified = f.call(add, 4, AddPartitionsToTxnApi.Request.SCHEMA.newStruct()
                .set(AddPartitionsToTxnApi.Request.TRANSACTIONS, List.of(transactionOf("tx-b", pid, epoch, true, topic("orders", 1, 0)))));
        assertThat(results(verified.get(AddPartitionsToTxnApi.Response.RESULTS_BY_TRANSACTION).get(0).get(AddPartitionsToTxnResult.TOPIC_RESULTS)))
                .containsExactly("orders-1 " + ErrorCode.NONE, "orders-0 " + ErrorCode.TRANSACTION_ABORTABLE);
        Struct offsets = f.call(new AddOffsetsToTxnHandler(coordinator), 3, AddOffsetsToTxnApi.Request.SCHEMA.newStruct()
                .set(AddOffsetsToTxnApi.Request.TRANSACTIONAL_ID, "tx-b").set(AddOffsetsToTxnApi.Request.PRODUCER_ID, pid)
                .set(AddOffsetsToTxnApi.Request.PRODUCER_EPOCH, epoch).set(AddOffsetsToTxnApi.Request.GROUP_ID, "g"));
        assertThat(offsets.get(AddOffsetsToTxnApi.Response.ERROR_CODE)).isZero();

        Struct listed = f.call(new ListTransactionsHandler(coordinator), 1, ListTransactionsApi.Request.SCHEMA.newStruct()
                .set(ListTransactionsApi.Request.STATE_FILTERS, List.of("Ongoing", "Bogus")));
        assertThat(listed.get(ListTransactionsApi.Response.ERROR_CODE)).isZero();
        assertThat(listed.get(ListTransactionsApi.Response.UNKNOWN_STATE_FILTERS)).containsExactly("Bogus");
        assertThat(listed.get(ListTransactionsApi.Response.TRANSACTION_STATES)).extracting(
                        t -> t.get(ListTransactionsApi.Response.TransactionState.TRANSACTIONAL_ID) + " "
                                + t.get(ListTransactionsApi.Response.TransactionState.PRODUCER_ID) + " "
                                + t.get(ListTransactionsApi.Response.TransactionState.TRANSACTION_STATE))
                .containsExactly("tx-b " + pid + " Ongoing");

        Struct described = f.call(new DescribeTransactionsHandler(coordinator), 0, DescribeTransactionsApi.Request.SCHEMA.newStruct()
                .set(DescribeTransactionsApi.Request.TRANSACTIONAL_IDS, List.of("tx-b", "unknown-id")));
        List<Struct> states = described.get(DescribeTransactionsApi.Response.TRANSACTION_STATES);
        assertThat(states).extracting(s -> s.get(TransactionState.TRANSACTIONAL_ID) + " " + ErrorCode.forCode(s.get(TransactionState.ERROR_CODE)))
                .containsExactly("tx-b NONE", "unknown-id TRANSACTIONAL_ID_NOT_FOUND");
        Struct b = states.get(0);
        assertThat(b.get(TransactionState.TRANSACTION_STATE)).isEqualTo("Ongoing");
        assertThat(b.get(TransactionState.PRODUCER_ID)).isEqualTo(pid);
        assertThat(b.get(TransactionState.PRODUCER_EPOCH)).isEqualTo(epoch);
        assertThat(b.get(TransactionState.TRANSACTION_START_TIME_MS)).isPositive();
        assertThat(b.get(TransactionState.TOPICS)).extracting(t -> t.get(TransactionState.TopicData.TOPIC) + " "
                        + t.get(TransactionState.TopicData.PARTITIONS))
                .contains("orders [1]").doesNotContain("orders [0, 1]");

        Struct ended = f.call(new EndTxnHandler(coordinator), 4, endTxn("tx-b", pid, epoch, true));
        assertThat(ended.get(EndTxnApi.Response.ERROR_CODE)).isZero();
        assertThat(ended.get(EndTxnApi.Response.PRODUCER_ID)).isEqualTo(-1L); // v4: not in the response
        awaitMarkers(1);
        assertThat(markers.get(0)).startsWith("commit " + pid + "/" + epoch + " ").contains("orders-1");
    }

    @Test
    void aKafka011ProducerRunsATransactionAtV0AndSeesInvalidProducerEpochOnceFenced() {
        InitProducerIdHandler init = new InitProducerIdHandler(producerIds, coordinator);
        Struct id = awaitNoRetriable(() -> init(init, 0, "tx-0", -1L, (short) -1), InitProducerIdApi.Response.ERROR_CODE);
        assertThat(id.get(InitProducerIdApi.Response.ERROR_CODE)).isZero();
        long pid = id.get(InitProducerIdApi.Response.PRODUCER_ID);
        short epoch = id.get(InitProducerIdApi.Response.PRODUCER_EPOCH);
        assertThat(pid).isNotNegative();

        AddPartitionsToTxnHandler add = new AddPartitionsToTxnHandler(coordinator, f.topics);
        assertThat(results(addV3(add, 0, "tx-0", pid, epoch, "orders", 0))).containsExactly("orders-0 " + ErrorCode.NONE);
        Struct offsets = AddOffsetsToTxnApi.Request.SCHEMA.newStruct()
                .set(AddOffsetsToTxnApi.Request.TRANSACTIONAL_ID, "tx-0").set(AddOffsetsToTxnApi.Request.PRODUCER_ID, pid)
                .set(AddOffsetsToTxnApi.Request.PRODUCER_EPOCH, epoch).set(AddOffsetsToTxnApi.Request.GROUP_ID, "g");
        assertThat(f.call(new AddOffsetsToTxnHandler(coordinator), 0, offsets).get(AddOffsetsToTxnApi.Response.ERROR_CODE)).isZero();

        Struct ended = f.call(new EndTxnHandler(coordinator), 0, endTxn("tx-0", pid, epoch, true));
        assertThat(ended.get(EndTxnApi.Response.ERROR_CODE)).isZero();
        awaitMarkers(1);
        assertThat(markers.get(0)).startsWith("commit " + pid + "/" + epoch + " ").contains("orders-0");

        // A second producer with the same id fences it; a v0 client knows no PRODUCER_FENCED.
        Struct second = init(init, 0, "tx-0", -1L, (short) -1);
        assertThat(second.get(InitProducerIdApi.Response.PRODUCER_EPOCH)).isEqualTo((short) (epoch + 1));
        assertThat(results(addV3(add, 0, "tx-0", pid, epoch, "orders", 1)))
                .containsExactly("orders-1 " + ErrorCode.INVALID_PRODUCER_EPOCH);
        assertThat(ErrorCode.forCode(f.call(new EndTxnHandler(coordinator), 0, endTxn("tx-0", pid, epoch, false))
                .get(EndTxnApi.Response.ERROR_CODE))).isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH);
    }

    @Test
    void aV2EndTxnAnswersTheBumpedEpochToUseNext() {
        InitProducerIdHandler init = new InitProducerIdHandler(producerIds, coordinator);
        Struct id = awaitNoRetriable(() -> init(init, 5, "tx-c", -1L, (short) -1), InitProducerIdApi.Response.ERROR_CODE);
        long pid = id.get(InitProducerIdApi.Response.PRODUCER_ID);
        short epoch = id.get(InitProducerIdApi.Response.PRODUCER_EPOCH);
        // Under transaction version 2 the partition leader adds the partition (a v4+ request, not verify-only).
        Struct added = f.call(new AddPartitionsToTxnHandler(coordinator, f.topics), 5, AddPartitionsToTxnApi.Request.SCHEMA.newStruct()
                .set(AddPartitionsToTxnApi.Request.TRANSACTIONS, List.of(transactionOf("tx-c", pid, epoch, false, topic("orders", 0)))));
        assertThat(results(added.get(AddPartitionsToTxnApi.Response.RESULTS_BY_TRANSACTION).get(0).get(AddPartitionsToTxnResult.TOPIC_RESULTS)))
                .containsExactly("orders-0 " + ErrorCode.NONE);

        Struct ended = f.call(new EndTxnHandler(coordinator), 5, endTxn("tx-c", pid, epoch, false));
        assertThat(ended.get(EndTxnApi.Response.ERROR_CODE)).isZero();
        assertThat(ended.get(EndTxnApi.Response.PRODUCER_ID)).isEqualTo(pid);
        assertThat(ended.get(EndTxnApi.Response.PRODUCER_EPOCH)).isEqualTo((short) (epoch + 1));
        awaitMarkers(1);
        assertThat(markers.get(0)).startsWith("abort " + pid + "/").contains("orders-0");
    }

    // ------------------------------------------------------------------ helpers

    private Struct init(InitProducerIdHandler handler, int version, String transactionalId, long producerId, short epoch) {
        return f.call(handler, version, InitProducerIdApi.Request.SCHEMA.newStruct()
                .set(InitProducerIdApi.Request.TRANSACTIONAL_ID, transactionalId)
                .set(InitProducerIdApi.Request.TRANSACTION_TIMEOUT_MS, 60_000)
                .set(InitProducerIdApi.Request.PRODUCER_ID, producerId)
                .set(InitProducerIdApi.Request.PRODUCER_EPOCH, epoch));
    }

    private List<Struct> addV3(AddPartitionsToTxnHandler handler, int version, String transactionalId, long pid, short epoch,
            String topic, int partition) {
        return f.call(handler, version, AddPartitionsToTxnApi.Request.SCHEMA.newStruct()
                        .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_TRANSACTIONAL_ID, transactionalId)
                        .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_PRODUCER_ID, pid)
                        .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_PRODUCER_EPOCH, epoch)
                        .set(AddPartitionsToTxnApi.Request.V3_AND_BELOW_TOPICS, List.of(topic(topic, partition))))
                .get(AddPartitionsToTxnApi.Response.RESULTS_BY_TOPIC_V3_AND_BELOW);
    }

    private static Struct endTxn(String transactionalId, long pid, short epoch, boolean commit) {
        return EndTxnApi.Request.SCHEMA.newStruct().set(EndTxnApi.Request.TRANSACTIONAL_ID, transactionalId)
                .set(EndTxnApi.Request.PRODUCER_ID, pid).set(EndTxnApi.Request.PRODUCER_EPOCH, epoch)
                .set(EndTxnApi.Request.COMMITTED, commit);
    }

    private static Struct topic(String name, Integer... partitions) {
        return AddPartitionsToTxnTopic.SCHEMA.newStruct().set(AddPartitionsToTxnTopic.NAME, name)
                .set(AddPartitionsToTxnTopic.PARTITIONS, List.of(partitions));
    }

    private static Struct transaction(String transactionalId, long pid, boolean verifyOnly, Struct... topics) {
        return transactionOf(transactionalId, pid, (short) 0, verifyOnly, topics);
    }

    private static Struct transactionOf(String transactionalId, long pid, short epoch, boolean verifyOnly, Struct... topics) {
        return AddPartitionsToTxnTransaction.SCHEMA.newStruct()
                .set(AddPartitionsToTxnTransaction.TRANSACTIONAL_ID, transactionalId)
                .set(AddPartitionsToTxnTransaction.PRODUCER_ID, pid)
                .set(AddPartitionsToTxnTransaction.PRODUCER_EPOCH, epoch)
                .set(AddPartitionsToTxnTransaction.VERIFY_ONLY, verifyOnly)
                .set(AddPartitionsToTxnTransaction.TOPICS, List.of(topics));
    }

    /** "topic-partition ERROR" per partition result, in response order. */
    private static List<String> results(Collection<Struct> topicResults) {
        List<String> out = new ArrayList<>();
        for (Struct t : topicResults) {
            for (Struct p : t.get(AddPartitionsToTxnTopicResult.RESULTS_BY_PARTITION)) {
                out.add(t.get(AddPartitionsToTxnTopicResult.NAME) + "-" + p.get(AddPartitionsToTxnPartitionResult.PARTITION_INDEX)
                        + " " + ErrorCode.forCode(p.get(AddPartitionsToTxnPartitionResult.PARTITION_ERROR_CODE)));
            }
        }
        return out;
    }

    /** Repeats a call while the coordinator is still loading its partitions, as a client would. */
    private static Struct awaitNoRetriable(java.util.function.Supplier<Struct> call,
            io.odradek.wire.schema.Field<Short> errorField) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            Struct response = call.get();
            short code = response.get(errorField);
            boolean loading = code == ErrorCode.COORDINATOR_LOAD_IN_PROGRESS.code() || code == ErrorCode.CONCURRENT_TRANSACTIONS.code();
            if (!loading || System.nanoTime() > deadline) {
                return response;
            }
            sleep();
        }
    }

    private void awaitMarkers(int count) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (markers.size() < count && System.nanoTime() < deadline) {
            sleep();
        }
        assertThat(markers).hasSizeGreaterThanOrEqualTo(count);
    }

    private static void sleep() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
