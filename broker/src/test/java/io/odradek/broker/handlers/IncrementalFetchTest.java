package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.odradek.broker.fetch.session.FetchSessionCache;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.FetchApi.Request;
import io.odradek.wire.api.FetchApi.Request.FetchTopic;
import io.odradek.wire.api.FetchApi.Request.ForgottenTopic;
import io.odradek.wire.api.FetchApi.Response;
import io.odradek.wire.codec.RequestDecoder;
import io.odradek.wire.codec.ResponseEncoder;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.FetchSessionHandler;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.utils.internals.LogContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fetch sessions (KIP-227) as Kafka's own client drives them: its FetchSessionHandler builds each request (full,
 * then incremental with only the partitions whose position moved, forgotten partitions), Kafka's request classes
 * write it, our codec reads it, the handler answers, our encoder writes the response and Kafka's classes parse it
 * and hand it back to the FetchSessionHandler, which checks it as a consumer does.
 */
class IncrementalFetchTest {
    static final int FETCH_MAX_BYTES = 57_671_680;

    @TempDir
    Path dir;
    DataPathFixture fx;
    final AtomicLong clock = new AtomicLong(1_000_000L);
    FetchSessionCache sessions;
    FetchHandler handler;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        sessions = new FetchSessionCache(1000, 8, FetchSessionCache.KAFKA_EVICTION_MS, 10_000, clock::get);
        handler = new FetchHandler(fx, fx.partitions, fx.cluster, FETCH_MAX_BYTES, sessions);
        fx.createTopic("orders", 3);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @ParameterizedTest
    @ValueSource(shorts = {7, 12, 13, 18})
    void aConsumerSessionSendsAndGetsBackOnlyWhatChanged(short version) {
        fx.append("orders", 0, 1L, "a", "b");
        fx.append("orders", 1, 1L, "c");
        KafkaFetcher consumer = new KafkaFetcher(version, -1, "orders", 0, 1, 2);

        Map<Integer, List<String>> first = consumer.fetch(0);
        int fullRequestBytes = consumer.lastRequestBytes;

        assertThat(consumer.lastRequest.get(Request.SESSION_EPOCH)).isZero();
        assertThat(consumer.session.sessionId()).isPositive();
        assertThat(first).containsExactly(Map.entry(0, List.of("0:k-a=a", "1:k-b=b")), Map.entry(1, List.of("0:k-c=c")),
                Map.entry(2, List.of()));
        assertThat(consumer.lastHighWatermarks).containsEntry(2, 0L);

        fx.append("orders", 1, 1L, "d");
        Map<Integer, List<String>> second = consumer.fetch(0);

        // Only the partitions whose position moved are named; only the one with new records is answered.
        assertThat(consumer.lastRequest.get(Request.SESSION_EPOCH)).isEqualTo(1);
        assertThat(requestedPartitions(consumer.lastRequest)).containsExactly(0, 1);
        assertThat(second).containsExactly(Map.entry(1, List.of("1:k-d=d")));
        assertThat(consumer.lastRequestBytes).isLessThan(fullRequestBytes);

        Map<Integer, List<String>> third = consumer.fetch(0);
        assertThat(consumer.lastRequest.get(Request.SESSION_EPOCH)).isEqualTo(2);
        assertThat(requestedPartitions(consumer.lastRequest)).containsExactly(1);
        assertThat(third).isEmpty();
        assertThat(sessions.session(consumer.session.sessionId()).orElseThrow().epoch()).isEqualTo(3);
    }

    @Test
    void aForgottenPartitionLeavesTheSessionAndIsNoLongerAnswered() {
        KafkaFetcher consumer = new KafkaFetcher((short) 18, -1, "orders", 0, 1, 2);
        consumer.fetch(0);
        int id = consumer.session.sessionId();

        consumer.unassign(0);
        fx.append("orders", 0, 1L, "unwanted");
        fx.append("orders", 2, 1L, "wanted");
        Map<Integer, List<String>> answered = consumer.fetch(0);

        Struct forgotten = consumer.lastRequest.get(Request.FORGOTTEN_TOPICS_DATA).get(0);
        assertThat(forgotten.get(ForgottenTopic.TOPIC_ID)).isEqualTo(fx.topicId("orders").orElseThrow());
        assertThat(forgotten.get(ForgottenTopic.PARTITIONS)).containsExactly(0);
        assertThat(answered).containsExactly(Map.entry(2, List.of("0:k-wanted=wanted")));
        assertThat(sessions.session(id).orElseThrow().size()).isEqualTo(2);
    }

    @Test
    void aParkedIncrementalFetchIsWokenByAnAppendAndCarriesOnlyThatPartition() {
        KafkaFetcher consumer = new KafkaFetcher((short) 18, -1, "orders", 0, 1, 2);
        consumer.fetch(0);

        Exchange parked = consumer.send(30_000);
        assertThat(parked.response()).isNotDone();
        assertThat(fx.waiting.watching(fx.partition("orders", 1))).isEqualTo(1);
        fx.append("orders", 1, 1L, "late");

        Map<Integer, List<String>> answered = consumer.receive(parked);

        assertThat(answered).containsExactly(Map.entry(1, List.of("0:k-late=late")));
        assertThat(fx.waiting.watchedKeys()).isZero();
        // What it sent is recorded: the next fetch names partition 1 at its new position and gets nothing back.
        assertThat(consumer.fetch(0)).isEmpty();
        assertThat(requestedPartitions(consumer.lastRequest)).containsExactly(1);
    }

    @Test
    void aRequestResentAfterALostResponseGetsInvalidEpochAndTheClientStartsANewSession() {
        fx.append("orders", 0, 1L, "a");
        KafkaFetcher consumer = new KafkaFetcher((short) 18, -1, "orders", 0, 1, 2);
        consumer.fetch(0);
        int first = consumer.session.sessionId();

        consumer.send(0).response().join(); // its response is lost: the client does not move to the next epoch
        Map<Integer, List<String>> refused = consumer.fetch(0);

        assertThat(consumer.lastRequest.get(Request.SESSION_EPOCH)).isEqualTo(1);
        assertThat(consumer.lastError).isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH);
        assertThat(consumer.lastHandled).isFalse();
        assertThat(refused).isEmpty();

        // Kafka's client closes that session and asks for a new one in a full request.
        Map<Integer, List<String>> restarted = consumer.fetch(0);
        assertThat(consumer.lastRequest.get(Request.SESSION_ID)).isEqualTo(first);
        assertThat(consumer.lastRequest.get(Request.SESSION_EPOCH)).isZero();
        assertThat(consumer.lastHandled).isTrue();
        assertThat(restarted).containsOnlyKeys(0, 1, 2);
        assertThat(consumer.session.sessionId()).isPositive().isNotEqualTo(first);
        assertThat(sessions.session(first)).isEmpty();
    }

    @Test
    void aSessionEvictedMeanwhileIsNotFoundAndTheClientStartsOver() {
        sessions = new FetchSessionCache(1, 1, FetchSessionCache.KAFKA_EVICTION_MS, 10_000, clock::get);
        handler = new FetchHandler(fx, fx.partitions, fx.cluster, FETCH_MAX_BYTES, sessions);
        KafkaFetcher idle = new KafkaFetcher((short) 18, -1, "orders", 0);
        idle.fetch(0);
        clock.addAndGet(FetchSessionCache.KAFKA_EVICTION_MS + 1);
        KafkaFetcher newcomer = new KafkaFetcher((short) 18, -1, "orders", 1);
        newcomer.fetch(0);
        assertThat(newcomer.session.sessionId()).isPositive();

        fx.append("orders", 0, 1L, "x");
        assertThat(idle.fetch(0)).isEmpty();
        assertThat(idle.lastError).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND);

        assertThat(idle.fetch(0)).containsExactly(Map.entry(0, List.of("0:k-x=x")));
        assertThat(idle.lastRequest.get(Request.SESSION_EPOCH)).isZero();
    }

    @Test
    void aFollowerSessionSendsAHighWatermarkMoveWithoutRecords() {
        fx.createTopicWithLaggingFollower("replicated", 1);
        fx.append("replicated", 0, 1L, "a", "b");
        KafkaFetcher follower = new KafkaFetcher((short) 17, 2, "replicated", 0);

        assertThat(follower.fetch(0)).containsExactly(Map.entry(0, List.of("0:k-a=a", "1:k-b=b")));
        assertThat(follower.lastHighWatermarks).containsExactly(Map.entry(0, 0L));
        assertThat(sessions.session(follower.session.sessionId()).orElseThrow().privileged()).isTrue();

        // Fetching from offset 2 tells the leader the follower has both: the high watermark moves, no records come.
        assertThat(follower.fetch(0)).containsExactly(Map.entry(0, List.of()));
        assertThat(follower.lastHighWatermarks).containsExactly(Map.entry(0, 2L));

        assertThat(follower.fetch(0)).isEmpty();
    }

    @Test
    void aSessionMadeByNameCannotContinueByTopicId() {
        Struct full = FetchHandlerTest.fetchRequest(0, 1, "orders", 0, 0L).set(Request.SESSION_EPOCH, 0);
        int id = fx.callAndWait(handler, 12, full).get(Response.SESSION_ID);
        assertThat(id).isPositive();

        Struct incremental = FetchHandlerTest.baseRequest(0, 1).set(Request.SESSION_ID, id).set(Request.SESSION_EPOCH, 1);
        Struct refused = fx.callAndWait(handler, 13, incremental);

        assertThat(refused.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR.code());
        assertThat(refused.get(Response.SESSION_ID)).isZero();
        assertThat(refused.get(Response.RESPONSES)).isEmpty();
    }

    @Test
    void anUnknownTopicIdStaysInTheSessionAndIsAnsweredEveryTimeAsAnError() {
        UUID stranger = UUID.randomUUID();
        Struct full = FetchHandlerTest.baseRequest(0, 1).set(Request.SESSION_EPOCH, 0);
        FetchHandlerTest.addPartition(full.add(Request.TOPICS).set(FetchTopic.TOPIC_ID, stranger), 0, 0L);
        FetchHandlerTest.addPartition(full.add(Request.TOPICS).set(FetchTopic.TOPIC_ID, fx.topicId("orders").orElseThrow()),
                0, 0L);
        Struct first = fx.callAndWait(handler, 18, full);
        int id = first.get(Response.SESSION_ID);
        assertThat(FetchHandlerTest.partition(first, 0, 0).get(FetchApi.Response.FetchableTopicResponse.PartitionData.ERROR_CODE))
                .isEqualTo(ErrorCode.UNKNOWN_TOPIC_ID.code());

        // Errors are always answered (Kafka): the unknown id comes back each time, the quiet partition does not.
        Struct incremental = FetchHandlerTest.baseRequest(0, 1).set(Request.SESSION_ID, id).set(Request.SESSION_EPOCH, 1);
        Struct second = fx.callAndWait(handler, 18, incremental);
        assertThat(second.get(Response.RESPONSES)).hasSize(1);
        assertThat(second.get(Response.RESPONSES).get(0).get(FetchApi.Response.FetchableTopicResponse.TOPIC_ID))
                .isEqualTo(stranger);
        assertThat(FetchHandlerTest.partition(second, 0, 0).get(FetchApi.Response.FetchableTopicResponse.PartitionData.ERROR_CODE))
                .isEqualTo(ErrorCode.UNKNOWN_TOPIC_ID.code());
    }

    @Test
    void aTopicRecreatedUnderItsNameIsInconsistentInASessionUntilTheFetcherReplacesItsId(@TempDir Path newDir) {
        UUID old = fx.topicId("orders").orElseThrow();
        Struct full = FetchHandlerTest.baseRequest(0, 1).set(Request.SESSION_EPOCH, 0);
        FetchHandlerTest.addPartition(full.add(Request.TOPICS).set(FetchTopic.TOPIC_ID, old), 0, 0L);
        int id = fx.callAndWait(handler, 18, full).get(Response.SESSION_ID);

        UUID recreated = fx.recreateTopic("orders", 3, newDir);
        fx.append("orders", 0, 1L, "new-life");
        Struct incremental = FetchHandlerTest.baseRequest(0, 1).set(Request.SESSION_ID, id).set(Request.SESSION_EPOCH, 1);
        Struct stale = fx.callAndWait(handler, 18, incremental);
        assertThat(FetchHandlerTest.partition(stale, 0, 0).get(FetchApi.Response.FetchableTopicResponse.PartitionData.ERROR_CODE))
                .isEqualTo(ErrorCode.INCONSISTENT_TOPIC_ID.code());

        // What Kafka's client does after refreshing its metadata: forget the old id, add the new one.
        Struct replace = FetchHandlerTest.baseRequest(0, 1).set(Request.SESSION_ID, id).set(Request.SESSION_EPOCH, 2);
        FetchHandlerTest.addPartition(replace.add(Request.TOPICS).set(FetchTopic.TOPIC_ID, recreated), 0, 0L);
        replace.add(Request.FORGOTTEN_TOPICS_DATA).set(ForgottenTopic.TOPIC_ID, old).set(ForgottenTopic.PARTITIONS, List.of(0));
        Struct replaced = fx.callAndWait(handler, 18, replace);

        assertThat(replaced.get(Response.RESPONSES)).hasSize(1);
        assertThat(replaced.get(Response.RESPONSES).get(0).get(FetchApi.Response.FetchableTopicResponse.TOPIC_ID))
                .isEqualTo(recreated);
        assertThat(DataPathFixture.records(FetchHandlerTest.records(replaced, 0, 0))).containsExactly("0:k-new-life=new-life");
        assertThat(sessions.session(id).orElseThrow().size()).isEqualTo(1);
    }

    @Test
    void aFullFetchNamingAPartitionTwiceIsAnsweredOnceFromItsLastOffsetAndItsSessionFollowsTheFetcher() {
        for (String value : List.of("a", "b", "c", "d")) {
            fx.append("orders", 0, 1L, value); // one batch each: reads return whole batches
        }
        Struct full = FetchHandlerTest.baseRequest(0, 1).set(Request.SESSION_EPOCH, 0);
        Struct topic = full.add(Request.TOPICS).set(FetchTopic.TOPIC, "orders");
        FetchHandlerTest.addPartition(topic, 0, 1L);
        FetchHandlerTest.addPartition(topic, 1, 0L);
        FetchHandlerTest.addPartition(full.add(Request.TOPICS).set(FetchTopic.TOPIC, "orders"), 0, 2L);

        Struct first = fx.callAndWait(handler, 12, full);

        int id = first.get(Response.SESSION_ID);
        assertThat(id).isPositive();
        assertThat(first.get(Response.RESPONSES)).hasSize(1);
        assertThat(first.get(Response.RESPONSES).get(0).get(FetchApi.Response.FetchableTopicResponse.PARTITIONS))
                .extracting(p -> p.get(FetchApi.Response.FetchableTopicResponse.PartitionData.PARTITION_INDEX))
                .containsExactly(0, 1);
        assertThat(DataPathFixture.records(FetchHandlerTest.records(first, 0, 0))).containsExactly("2:k-c=c", "3:k-d=d");
        assertThat(sessions.session(id).orElseThrow().size()).isEqualTo(2);

        // The fetcher moves to 4 and more records come: the session reads partition 0 from there.
        fx.append("orders", 0, 1L, "e");
        Struct incremental = FetchHandlerTest.baseRequest(0, 1).set(Request.SESSION_ID, id).set(Request.SESSION_EPOCH, 1);
        FetchHandlerTest.addPartition(incremental.add(Request.TOPICS).set(FetchTopic.TOPIC, "orders"), 0, 4L);
        Struct second = fx.callAndWait(handler, 12, incremental);

        assertThat(second.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(second.get(Response.RESPONSES)).hasSize(1);
        assertThat(FetchHandlerTest.partition(second, 0, 0)
                .get(FetchApi.Response.FetchableTopicResponse.PartitionData.PARTITION_INDEX)).isZero();
        assertThat(DataPathFixture.records(FetchHandlerTest.records(second, 0, 0))).containsExactly("4:k-e=e");
    }

    @Test
    void aFullFetchOverTheCachesPartitionBudgetIsAnsweredWithoutASession() {
        sessions = new FetchSessionCache(1000, 1, FetchSessionCache.KAFKA_EVICTION_MS, 10_000, 2, clock::get);
        handler = new FetchHandler(fx, fx.partitions, fx.cluster, FETCH_MAX_BYTES, sessions);
        fx.append("orders", 2, 1L, "z");
        Struct full = FetchHandlerTest.baseRequest(0, 1).set(Request.SESSION_EPOCH, 0);
        Struct topic = full.add(Request.TOPICS).set(FetchTopic.TOPIC, "orders");
        for (int p = 0; p < 3; p++) {
            FetchHandlerTest.addPartition(topic, p, 0L);
        }

        Struct answer = fx.callAndWait(handler, 12, full);

        assertThat(answer.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(answer.get(Response.SESSION_ID)).isZero();
        assertThat(DataPathFixture.records(FetchHandlerTest.records(answer, 0, 2))).containsExactly("0:k-z=z");
        assertThat(sessions.size()).isZero();
        assertThat(sessions.totalPartitions()).isZero();
    }

    // ------------------------------------------------------------------ helpers

    static List<Integer> requestedPartitions(Struct request) {
        List<Integer> out = new ArrayList<>();
        for (Struct topic : request.get(Request.TOPICS)) {
            for (Struct p : topic.get(FetchTopic.PARTITIONS)) {
                out.add(p.get(FetchTopic.FetchPartition.PARTITION));
            }
        }
        return out;
    }

    record Exchange(CompletableFuture<Struct> response, int correlationId) {
    }

    /**
     * One fetcher's side: Kafka's FetchSessionHandler and the positions it fetches from (moved past every record
     * received, as a consumer's positions move).
     */
    final class KafkaFetcher {
        final FetchSessionHandler session = new FetchSessionHandler(new LogContext(), 1);
        final Map<TopicPartition, Long> positions = new LinkedHashMap<>();
        final short version;
        final int replicaId;
        final String topic;
        final Uuid topicId;
        int correlationId;
        Struct lastRequest;
        int lastRequestBytes;
        Errors lastError;
        boolean lastHandled;
        Map<Integer, Long> lastHighWatermarks;

        KafkaFetcher(short version, int replicaId, String topic, int... partitions) {
            this.version = version;
            this.replicaId = replicaId;
            this.topic = topic;
            UUID id = fx.topicId(topic).orElseThrow();
            this.topicId = new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
            for (int p : partitions) {
                positions.put(new TopicPartition(topic, p), 0L);
            }
        }

        void unassign(int partition) {
            positions.remove(new TopicPartition(topic, partition));
        }

        /** One fetch, answered; returns "offset:key=value" per answered partition, in response order. */
        Map<Integer, List<String>> fetch(int maxWaitMs) {
            return receive(send(maxWaitMs));
        }

        Exchange send(int maxWaitMs) {
            FetchSessionHandler.Builder builder = session.newBuilder();
            positions.forEach((tp, offset) -> builder.add(tp,
                    new FetchRequest.PartitionData(topicId, offset, -1L, 1 << 20, Optional.empty())));
            FetchSessionHandler.FetchRequestData data = builder.build();
            FetchRequest.Builder request = replicaId >= 0
                    ? FetchRequest.Builder.forReplica(version, replicaId, 1L, maxWaitMs, 1, data.toSend())
                    : FetchRequest.Builder.forConsumer(version, maxWaitMs, 1, data.toSend());
            request.metadata(data.metadata()).removed(data.toForget()).replaced(data.toReplace());
            ByteBuffer bytes = request.build(version)
                    .serializeWithHeader(new RequestHeader(ApiKeys.FETCH, version, "test-client", ++correlationId));
            lastRequestBytes = bytes.remaining();
            lastRequest = RequestDecoder.decode(Unpooled.wrappedBuffer(bytes)).body();
            return new Exchange(fx.call(handler, version, lastRequest), correlationId);
        }

        Map<Integer, List<String>> receive(Exchange exchange) {
            Struct response = exchange.response().orTimeout(10, TimeUnit.SECONDS).join();
            FetchResponse parsed;
            try {
                ByteBuffer frame = FetchHandlerTest.gather(ResponseEncoder.encode(ByteBufAllocator.DEFAULT, FetchApi.SPEC,
                        version, exchange.correlationId(), response));
                assertThat(frame.getInt()).isEqualTo(frame.remaining());
                assertThat(frame.getInt()).isEqualTo(exchange.correlationId());
                if (FetchApi.SPEC.isFlexible(version)) {
                    frame.get();
                }
                parsed = FetchResponse.parse(new ByteBufferAccessor(frame), version);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            lastError = parsed.error();
            // Kafka's client checks the response against its session (a full one must name every partition).
            lastHandled = session.handleResponse(parsed, version);
            Map<Integer, List<String>> out = new LinkedHashMap<>();
            lastHighWatermarks = new LinkedHashMap<>();
            if (!lastHandled) {
                return out;
            }
            parsed.responseData(session.sessionTopicNames(), version).forEach((tp, data) -> {
                assertThat(data.errorCode()).as("error of %s", tp).isEqualTo(Errors.NONE.code());
                ByteBuffer records = ((MemoryRecords) data.records()).buffer();
                out.put(tp.partition(), DataPathFixture.records(records.duplicate()));
                lastHighWatermarks.put(tp.partition(), data.highWatermark());
                advance(tp, data);
            });
            return out;
        }

        private void advance(TopicPartition tp, FetchResponseData.PartitionData data) {
            for (RecordBatch batch : ((MemoryRecords) data.records()).batches()) {
                positions.computeIfPresent(tp, (k, v) -> Math.max(v, batch.lastOffset() + 1));
            }
        }
    }
}
