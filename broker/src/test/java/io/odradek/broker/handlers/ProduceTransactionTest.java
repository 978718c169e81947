package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.DataPathFixture.batch;
import static io.odradek.broker.handlers.DataPathFixture.transactionalBatch;
import static io.odradek.broker.handlers.DataPathFixture.wire;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.odradek.broker.fetch.FileSliceRecords;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionVerifier;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ProduceApi.Request;
import io.odradek.wire.api.ProduceApi.Request.TopicProduceData;
import io.odradek.wire.api.ProduceApi.Request.TopicProduceData.PartitionProduceData;
import io.odradek.wire.api.ProduceApi.Response;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Transactional batches are checked with the transaction coordinator before they are appended. */
class ProduceTransactionTest {
    private static final long PID = 7L;
    private static final short EPOCH = 3;

    @TempDir
    Path dir;
    DataPathFixture fx;
    /** What the fake coordinator was asked, one entry per question. */
    final List<Question> asked = new CopyOnWriteArrayList<>();
    /** The fake coordinator's answer per question (by how many it has been asked so far). */
    Function<Question, Map<TopicPartition, ErrorCode>> answers = q -> Map.of();

    record Question(String transactionalId, long producerId, short producerEpoch, List<TopicPartition> partitions,
            boolean addIfMissing) {
    }

    final TransactionVerifier verifier = (String id, long pid, short epoch, Collection<TopicPartition> partitions,
            boolean add) -> {
        Question q = new Question(id, pid, epoch, List.copyOf(partitions), add);
        asked.add(q);
        return CompletableFuture.supplyAsync(() -> answers.apply(q)); // answered on another thread, as a shard does
    };

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        fx.createTopic("orders", 2);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void aPartitionNotInTheTransactionIsRefusedWithInvalidTxnState() {
        answers = q -> Map.of(new TopicPartition("orders", 0), ErrorCode.INVALID_TXN_STATE);
        Struct response = produce(handler(true), 9, txn("x"));

        assertThat(error(response, 0)).isEqualTo(ErrorCode.INVALID_TXN_STATE);
        assertThat(partition(response, 0).get(PartitionProduceResponse.ERROR_MESSAGE))
                .isEqualTo("Partition was not added to the transaction");
        assertThat(partition(response, 0).get(PartitionProduceResponse.BASE_OFFSET)).isEqualTo(-1L);
        assertThat(fx.log("orders", 0).logEndOffset()).isZero();
        assertThat(asked).containsExactly(new Question("my-txn", PID, EPOCH,
                List.of(new TopicPartition("orders", 0)), false));
    }

    @Test
    void aVerifiedPartitionIsAppended() {
        Struct response = produce(handler(true), 9, txn("x", "y"));

        assertThat(error(response, 0)).isEqualTo(ErrorCode.NONE);
        assertThat(partition(response, 0).get(PartitionProduceResponse.BASE_OFFSET)).isZero();
        assertThat(DataPathFixture.records(new FileSliceRecords(fx.log("orders", 0).read(0, 1 << 20))))
                .containsExactly("0:k-x=x", "1:k-y=y");
    }

    @Test
    void produceV12AsksTheCoordinatorToAddThePartition() {
        Struct response = produce(handler(false), 12, txn("x"));

        assertThat(error(response, 0)).isEqualTo(ErrorCode.NONE);
        assertThat(asked).singleElement().extracting(Question::addIfMissing).isEqualTo(true);
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(1L);
    }

    @Test
    void v13NamesTheTopicByIdAndTheCoordinatorIsAskedByName() {
        Struct request = request("my-txn");
        request.add(Request.TOPIC_DATA).set(TopicProduceData.TOPIC_ID, fx.topicId("orders").orElseThrow())
                .add(TopicProduceData.PARTITION_DATA).set(PartitionProduceData.INDEX, 1)
                .set(PartitionProduceData.RECORDS, txn("x"));
        Struct response = fx.callAndWait(handler(true), 13, request);

        assertThat(error(response, 0)).isEqualTo(ErrorCode.NONE);
        assertThat(asked).containsExactly(new Question("my-txn", PID, EPOCH, List.of(new TopicPartition("orders", 1)), true));
        assertThat(fx.log("orders", 1).logEndOffset()).isEqualTo(1L);
    }

    @Test
    void withVerificationDisabledOlderProducersAreAppendedUnchecked() {
        Struct response = produce(handler(false), 11, txn("x"));

        assertThat(error(response, 0)).isEqualTo(ErrorCode.NONE);
        assertThat(asked).isEmpty();
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(1L);
    }

    @Test
    void plainBatchesOfATransactionalProducerAreNotVerified() {
        Struct request = request("my-txn");
        add(request, "orders", 0, wire(batch(1L, "plain")));
        Struct response = fx.callAndWait(handler(true), 9, request);

        assertThat(error(response, 0)).isEqualTo(ErrorCode.NONE);
        assertThat(asked).isEmpty();
    }

    @Test
    void oneQuestionCoversEveryTransactionalPartitionOfTheRequest() {
        answers = q -> Map.of(new TopicPartition("orders", 1), ErrorCode.INVALID_TXN_STATE);
        Struct request = request("my-txn");
        add(request, "orders", 0, wire(transactionalBatch(PID, EPOCH, 1L, "a")));
        add(request, "orders", 1, wire(transactionalBatch(PID, EPOCH, 1L, "b")));
        Struct response = fx.callAndWait(handler(true), 9, request);

        assertThat(asked).singleElement().extracting(Question::partitions)
                .isEqualTo(List.of(new TopicPartition("orders", 0), new TopicPartition("orders", 1)));
        assertThat(error(response, 0)).isEqualTo(ErrorCode.NONE);
        assertThat(error(response, 1)).isEqualTo(ErrorCode.INVALID_TXN_STATE);
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(1L);
        assertThat(fx.log("orders", 1).logEndOffset()).isZero();
    }

    @Test
    void coordinatorErrorsAreTranslatedForProducersAsKafkaDoes() {
        assertThat(answeredWith(ErrorCode.PRODUCER_FENCED, 9)).isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH);
        assertThat(answeredWith(ErrorCode.NOT_COORDINATOR, 9)).isEqualTo(ErrorCode.NOT_ENOUGH_REPLICAS);
        assertThat(answeredWith(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, 12)).isEqualTo(ErrorCode.NOT_ENOUGH_REPLICAS);
        assertThat(answeredWith(ErrorCode.CONCURRENT_TRANSACTIONS, 9)).isEqualTo(ErrorCode.NOT_ENOUGH_REPLICAS);
        assertThat(answeredWith(ErrorCode.TRANSACTION_ABORTABLE, 10)).isEqualTo(ErrorCode.INVALID_TXN_STATE);
        assertThat(answeredWith(ErrorCode.TRANSACTION_ABORTABLE, 11)).isEqualTo(ErrorCode.TRANSACTION_ABORTABLE);
        assertThat(answeredWith(ErrorCode.INVALID_PRODUCER_EPOCH, 9)).isEqualTo(ErrorCode.INVALID_PRODUCER_EPOCH);
        assertThat(fx.log("orders", 0).logEndOffset()).isZero();
    }

    @Test
    void aFailingCoordinatorIsARetriableError() {
        TransactionVerifier broken = (id, pid, epoch, partitions, add) ->
                CompletableFuture.failedFuture(new IllegalStateException("shard gone"));
        Struct response = fx.callAndWait(new ProduceHandler(fx, fx.partitions, fx.cluster, broken, true), 9,
                add(request("my-txn"), "orders", 0, wire(transactionalBatch(PID, EPOCH, 1L, "x"))));

        assertThat(error(response, 0)).isEqualTo(ErrorCode.NOT_ENOUGH_REPLICAS);
        assertThat(partition(response, 0).get(PartitionProduceResponse.ERROR_MESSAGE))
                .contains("COORDINATOR_NOT_AVAILABLE");
    }

    @Test
    void v12ConcurrentTransactionsIsAskedAgainUntilTheCoordinatorAccepts() {
        answers = q -> asked.size() < 2
                ? Map.of(new TopicPartition("orders", 0), ErrorCode.CONCURRENT_TRANSACTIONS) : Map.of();
        Struct response = produce(handler(true), 12, txn("x"));

        assertThat(error(response, 0)).isEqualTo(ErrorCode.NONE);
        assertThat(asked).hasSize(2);
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(1L);
    }

    @Test
    void v12ConcurrentTransactionsIsReturnedOnceTheRetriesRunOut() {
        answers = q -> Map.of(new TopicPartition("orders", 0), ErrorCode.CONCURRENT_TRANSACTIONS);
        Struct response = produce(handler(true), 12, txn("x"));

        assertThat(error(response, 0)).isEqualTo(ErrorCode.CONCURRENT_TRANSACTIONS);
        assertThat(asked.size()).isGreaterThan(1);
        assertThat(fx.log("orders", 0).logEndOffset()).isZero();
    }

    @Test
    void heldBatchesAreReleasedWhetherAppendedOrRefused() {
        answers = q -> Map.of(new TopicPartition("orders", 1), ErrorCode.INVALID_TXN_STATE);
        ByteBuf ok = Unpooled.copiedBuffer(transactionalBatch(PID, EPOCH, 1L, "a"));
        ByteBuf refused = Unpooled.copiedBuffer(transactionalBatch(PID, EPOCH, 1L, "b"));
        Struct request = request("my-txn");
        add(request, "orders", 0, new MemoryRecords(ok));
        add(request, "orders", 1, new MemoryRecords(refused));
        fx.callAndWait(handler(true), 9, request);

        // Only the request's own reference is left, which the network layer releases with the frame.
        assertThat(ok.refCnt()).isEqualTo(1);
        assertThat(refused.refCnt()).isEqualTo(1);
    }

    @Test
    void twoProducerIdsInOneRequestAreRefused() {
        Struct request = request("my-txn");
        add(request, "orders", 0, wire(transactionalBatch(PID, EPOCH, 1L, "a")));
        add(request, "orders", 1, wire(transactionalBatch(PID + 1, EPOCH, 1L, "b")));
        Struct response = fx.callAndWait(handler(true), 9, request);

        assertThat(error(response, 0)).isEqualTo(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
        assertThat(error(response, 1)).isEqualTo(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
        assertThat(asked).isEmpty();
    }

    @Test
    void laterBatchesOfAnOpenTransactionDoNotAskTheCoordinatorAgain() {
        ProduceHandler handler = handler(true);
        assertThat(error(produce(handler, 9, txn(0, "x")), 0)).isEqualTo(ErrorCode.NONE);
        assertThat(error(produce(handler, 9, txn(1, "y")), 0)).isEqualTo(ErrorCode.NONE);
        assertThat(error(produce(handler, 12, txn(2, "z")), 0)).isEqualTo(ErrorCode.NONE);

        assertThat(asked).containsExactly(new Question("my-txn", PID, EPOCH,
                List.of(new TopicPartition("orders", 0)), false));
        assertThat(DataPathFixture.records(new FileSliceRecords(fx.log("orders", 0).read(0, 1 << 20))))
                .containsExactly("0:k-x=x", "1:k-y=y", "2:k-z=z");
    }

    @Test
    void onlyThePartitionsWhereTheTransactionIsNotOpenYetAreAsked() {
        ProduceHandler handler = handler(true);
        produce(handler, 9, txn(0, "a"));
        Struct request = request("my-txn");
        add(request, "orders", 0, wire(transactionalBatch(PID, EPOCH, 1, 1L, "b")));
        add(request, "orders", 1, wire(transactionalBatch(PID, EPOCH, 0, 1L, "c")));
        Struct response = fx.callAndWait(handler, 9, request);

        assertThat(error(response, 0)).isEqualTo(ErrorCode.NONE);
        assertThat(error(response, 1)).isEqualTo(ErrorCode.NONE);
        assertThat(asked).extracting(Question::partitions).containsExactly(
                List.of(new TopicPartition("orders", 0)), List.of(new TopicPartition("orders", 1)));
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(2L);
        assertThat(fx.log("orders", 1).logEndOffset()).isEqualTo(1L);
    }

    @Test
    void afterACommitTheNextTransactionAsksTheCoordinatorAgain() {
        ProduceHandler handler = handler(true);
        produce(handler, 9, txn(0, "x"));
        fx.partition("orders", 0).appendMarker(PID, EPOCH, 0, true).orTimeout(10, TimeUnit.SECONDS).join(); // 1

        Struct response = produce(handler, 9, txn(1, "y"));

        assertThat(error(response, 0)).isEqualTo(ErrorCode.NONE);
        assertThat(partition(response, 0).get(PartitionProduceResponse.BASE_OFFSET)).isEqualTo(2L);
        assertThat(asked).hasSize(2);
    }

    @Test
    void afterAnAbortTheNextTransactionAsksTheCoordinatorAgain() {
        ProduceHandler handler = handler(true);
        produce(handler, 9, txn(0, "x"));
        fx.partition("orders", 0).appendMarker(PID, EPOCH, 0, false).orTimeout(10, TimeUnit.SECONDS).join(); // 1

        answers = q -> Map.of(new TopicPartition("orders", 0), ErrorCode.INVALID_TXN_STATE);
        Struct response = produce(handler, 9, txn(1, "y"));

        assertThat(error(response, 0)).isEqualTo(ErrorCode.INVALID_TXN_STATE);
        assertThat(asked).hasSize(2);
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(2L);
    }

    @Test
    void aBatchWhoseTransactionEndedWhileTheCoordinatorWasAskedIsRefusedWithInvalidTxnState() {
        // The coordinator says yes, but the transaction's abort marker reaches the partition before the batch.
        answers = q -> {
            fx.partition("orders", 0).appendMarker(PID, EPOCH, 0, false).orTimeout(10, TimeUnit.SECONDS).join();
            return Map.of();
        };
        Struct response = produce(handler(true), 9, txn(0, "late"));

        assertThat(error(response, 0)).isEqualTo(ErrorCode.INVALID_TXN_STATE);
        assertThat(partition(response, 0).get(PartitionProduceResponse.BASE_OFFSET)).isEqualTo(-1L);
        // Only the marker: the late batch did not open a transaction that nothing would ever end.
        assertThat(fx.log("orders", 0).logEndOffset()).isEqualTo(1L);
        assertThat(fx.partition("orders", 0).lastStableOffset()).isEqualTo(1L);
        assertThat(fx.partition("orders", 0).hasOngoingTransaction(PID, EPOCH)).isFalse();
    }

    @Test
    void aCoordinatorThatDoesNotAnswerWithinTimeoutMsIsNotEnoughReplicas() {
        TransactionVerifier silent = (id, pid, epoch, partitions, add) -> {
            asked.add(new Question(id, pid, epoch, List.copyOf(partitions), add));
            return new CompletableFuture<>(); // never answers
        };
        ByteBuf held = Unpooled.copiedBuffer(transactionalBatch(PID, EPOCH, 1L, "x"));
        Struct request = request("my-txn").set(Request.TIMEOUT_MS, 200);
        add(request, "orders", 0, new MemoryRecords(held));
        Struct response = fx.callAndWait(new ProduceHandler(fx, fx.partitions, fx.cluster, silent, true), 9, request);

        assertThat(error(response, 0)).isEqualTo(ErrorCode.NOT_ENOUGH_REPLICAS);
        assertThat(partition(response, 0).get(PartitionProduceResponse.ERROR_MESSAGE))
                .isEqualTo("Unable to verify the partition has been added to the transaction. Underlying error: "
                        + "NETWORK_EXCEPTION");
        assertThat(asked).hasSize(1);
        assertThat(fx.log("orders", 0).logEndOffset()).isZero();
        assertThat(held.refCnt()).isEqualTo(1); // only the request's own reference is left
    }

    @Test
    void aConnectionsLaterProduceWaitsForAnEarlierOneStillAskingTheCoordinatorSoBatchesStayInOrder() {
        // A producer pipelines: its first batch of a transaction waits for the coordinator while the next
        // arrives on the same connection. The next must not reach the partition first (it would be
        // OUT_OF_ORDER_SEQUENCE_NUMBER), nor ask the coordinator again once the first has opened the transaction.
        CompletableFuture<Map<TopicPartition, ErrorCode>> answer = new CompletableFuture<>();
        TransactionVerifier held = (id, pid, epoch, partitions, add) -> {
            asked.add(new Question(id, pid, epoch, List.copyOf(partitions), add));
            return answer;
        };
        ProduceHandler handler = new ProduceHandler(fx, fx.partitions, fx.cluster, held, true);
        io.netty.util.concurrent.Future<?> connection = fx.loop.newPromise();

        CompletableFuture<Struct> first = fx.call(handler, 12, add(request("my-txn"), "orders", 0, txn(0, "a")),
                "producer", connection);
        CompletableFuture<Struct> second = fx.call(handler, 12, add(request("my-txn"), "orders", 0, txn(1, "b")),
                "producer", connection);
        assertThat(second).isNotDone();
        assertThat(asked).hasSize(1);

        answer.complete(Map.of());

        assertThat(error(first.orTimeout(10, TimeUnit.SECONDS).join(), 0)).isEqualTo(ErrorCode.NONE);
        assertThat(error(second.orTimeout(10, TimeUnit.SECONDS).join(), 0)).isEqualTo(ErrorCode.NONE);
        assertThat(asked).hasSize(1);
        assertThat(DataPathFixture.records(new FileSliceRecords(fx.log("orders", 0).read(0, 1 << 20))))
                .containsExactly("0:k-a=a", "1:k-b=b");
    }

    @Test
    void requestsOfAnotherConnectionDoNotWaitForIt() {
        CompletableFuture<Map<TopicPartition, ErrorCode>> never = new CompletableFuture<>();
        TransactionVerifier held = (id, pid, epoch, partitions, add) -> never;
        ProduceHandler handler = new ProduceHandler(fx, fx.partitions, fx.cluster, held, true);
        fx.call(handler, 12, add(request("my-txn"), "orders", 0, txn(0, "a")), "producer", fx.loop.newPromise());

        Struct other = fx.call(handler, 9, add(request(null), "orders", 1, wire(batch(1L, "plain"))),
                "other", fx.loop.newPromise()).orTimeout(10, TimeUnit.SECONDS).join();

        assertThat(error(other, 0)).isEqualTo(ErrorCode.NONE);
        assertThat(fx.log("orders", 1).logEndOffset()).isEqualTo(1L);
    }

    // ------------------------------------------------------------------ helpers

    private ErrorCode answeredWith(ErrorCode coordinatorError, int version) {
        answers = q -> Map.of(new TopicPartition("orders", 0), coordinatorError);
        return error(produce(handler(true), version, txn("x")), 0);
    }

    private ProduceHandler handler(boolean verification) {
        return new ProduceHandler(fx, fx.partitions, fx.cluster, verifier, verification);
    }

    private static Records txn(String... values) {
        return wire(transactionalBatch(PID, EPOCH, 1L, values));
    }

    private static Records txn(int baseSequence, String... values) {
        return wire(transactionalBatch(PID, EPOCH, baseSequence, 1L, values));
    }

    private Struct produce(ProduceHandler handler, int version, Records records) {
        return fx.callAndWait(handler, version, add(request("my-txn"), "orders", 0, records));
    }

    private static Struct request(String transactionalId) {
        return Request.SCHEMA.newStruct().set(Request.ACKS, (short) -1).set(Request.TIMEOUT_MS, 30_000)
                .set(Request.TRANSACTIONAL_ID, transactionalId);
    }

    /** Adds a partition (under one topic entry per call, as clients may) to the request. */
    private static Struct add(Struct request, String topic, int partition, Records records) {
        request.add(Request.TOPIC_DATA).set(TopicProduceData.NAME, topic)
                .add(TopicProduceData.PARTITION_DATA)
                .set(PartitionProduceData.INDEX, partition)
                .set(PartitionProduceData.RECORDS, records);
        return request;
    }

    /** The response of the request's n-th partition (one topic entry each). */
    private static Struct partition(Struct response, int n) {
        return response.get(Response.RESPONSES).get(n).get(TopicProduceResponse.PARTITION_RESPONSES).get(0);
    }

    private static ErrorCode error(Struct response, int n) {
        return ErrorCode.forCode(partition(response, n).get(PartitionProduceResponse.ERROR_CODE));
    }
}
