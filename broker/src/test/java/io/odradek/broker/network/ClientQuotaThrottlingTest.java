package io.odradek.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.handlers.ApiVersionsHandler;
import io.odradek.broker.quota.ClientQuotas;
import io.odradek.broker.quota.TestQuotaStore;
import io.odradek.broker.quota.QuotaWindows;
import io.odradek.broker.quota.RequestThrottler;
import io.odradek.broker.api.BrokerFeatures;
import io.odradek.replication.config.QuotaEntity;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.HeartbeatApi;
import io.odradek.wire.api.ListGroupsApi;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Struct;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.HeartbeatRequest;
import org.apache.kafka.common.requests.HeartbeatResponse;
import org.apache.kafka.common.requests.ListGroupsRequest;
import org.apache.kafka.common.requests.ListGroupsResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client over its quota, seen on the wire: the response carries the throttle time, the connection is not
 * read again until the throttle is over (KIP-219), and a throttled fetch is answered empty. The handlers here
 * are stand-ins that answer at once, so only the quota path is under test.
 */
class ClientQuotaThrottlingTest {
    private static final String CLIENT = "throttled-app";

    private final TestQuotaStore store = new TestQuotaStore();
    private final AtomicInteger fetchMaxBytesSeen = new AtomicInteger();
    private KafkaServer server;
    private RawClient client;

    @AfterEach
    void stop() throws IOException {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void start() throws Exception {
        ApiRegistry registry = new ApiRegistry();
        registry.register(new ApiVersionsHandler(registry, BrokerFeatures.kafka44(0)));
        // As the produce handler: no answer to acks=0.
        registry.register(stub(ProduceApi.SPEC, r -> r.get(ProduceApi.Request.ACKS) == 0 ? null
                : ProduceApi.Response.SCHEMA.newStruct()));
        registry.register(stub(FetchApi.SPEC, r -> {
            fetchMaxBytesSeen.set(r.get(FetchApi.Request.MAX_BYTES));
            Struct response = FetchApi.Response.SCHEMA.newStruct().set(FetchApi.Response.SESSION_ID, 77);
            Struct topic = response.add(FetchApi.Response.RESPONSES).set(FetchApi.Response.FetchableTopicResponse.TOPIC, "t");
            topic.add(FetchApi.Response.FetchableTopicResponse.PARTITIONS)
                    .set(FetchApi.Response.FetchableTopicResponse.PartitionData.HIGH_WATERMARK, 10L)
                    .set(FetchApi.Response.FetchableTopicResponse.PartitionData.RECORDS,
                            new MemoryRecords(Unpooled.wrappedBuffer(new byte[5000])));
            return response;
        }));
        // Answered later, off the event loop, as a coordinator's answer is.
        registry.register(new ApiHandler() {
            @Override
            public ApiSpec api() {
                return HeartbeatApi.SPEC;
            }

            @Override
            public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
                return CompletableFuture.supplyAsync(HeartbeatApi.Response.SCHEMA::newStruct,
                        CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS));
            }
        });
        // A request that keeps the event loop busy for 20 ms, for request_percentage.
        registry.register(stub(ListGroupsApi.SPEC, r -> {
            long until = System.nanoTime() + 20_000_000L;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            return ListGroupsApi.Response.SCHEMA.newStruct();
        }));
        RequestThrottler throttler = new RequestThrottler(ClientQuotas.following(store, QuotaWindows.KAFKA_DEFAULTS),
                System::currentTimeMillis);
        server = KafkaServer.bind(new InetSocketAddress("127.0.0.1", 0), registry, NetworkSettings.defaults(100 << 20),
                throttler);
        client = new RawClient(server.address().getPort());
    }

    private static ApiHandler stub(ApiSpec spec, java.util.function.Function<Struct, Struct> answer) {
        return new ApiHandler() {
            @Override
            public ApiSpec api() {
                return spec;
            }

            @Override
            public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
                return CompletableFuture.completedFuture(answer.apply(request));
            }
        };
    }

    private void clientQuota(String key, double value) {
        TreeMap<String, String> parts = new TreeMap<>();
        parts.put(QuotaEntity.CLIENT_ID, CLIENT);
        store.alterQuotas(Map.of(new QuotaEntity(parts), Map.of(key, value))).join();
    }

    private static byte[] produce(int correlationId, short acks, int valueBytes) {
        return produce(CLIENT, correlationId, acks, valueBytes);
    }

    private static byte[] produce(String clientId, int correlationId, short acks, int valueBytes) {
        ProduceRequestData data = new ProduceRequestData().setAcks(acks).setTimeoutMs(1000);
        ProduceRequestData.TopicProduceData topic = new ProduceRequestData.TopicProduceData().setName("t");
        topic.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(
                org.apache.kafka.common.record.internal.MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(new byte[valueBytes]))));
        data.topicData().add(topic);
        return RawClient.frame(new ProduceRequest(data, (short) 9), clientId, correlationId);
    }

    private static byte[] fetch(int correlationId) {
        FetchRequestData data = new FetchRequestData().setMaxWaitMs(0).setMinBytes(1).setMaxBytes(50 << 20)
                .setReplicaId(-1).setSessionEpoch(-1);
        data.topics().add(new FetchRequestData.FetchTopic().setTopic("t").setPartitions(List.of(
                new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(0).setPartitionMaxBytes(1 << 20))));
        return RawClient.frame(new FetchRequest(data, (short) 12), CLIENT, correlationId);
    }

    private AbstractResponse read(ApiKeys api, short version, int correlationId) throws IOException {
        ByteBuffer frame = client.readFrame();
        return AbstractResponse.parseResponse(frame, new RequestHeader(api, version, CLIENT, correlationId));
    }

    @Test
    void produceOverItsQuotaIsToldTheThrottleAndNotReadUntilItEnds() throws Exception {
        start();
        clientQuota("producer_byte_rate", 2000);
        client.send(produce(1, (short) 1, 5000));
        ProduceResponse first = (ProduceResponse) read(ApiKeys.PRODUCE, (short) 9, 1);
        long answered = System.nanoTime();
        // About 5100 bytes in a one-second window against 2000 B/s: (5100 - 2000) / 2000 s.
        assertThat(first.throttleTimeMs()).isBetween(1500, 1700);

        assertThat(client.apiVersions(2)).isZero();
        long waitedMs = (System.nanoTime() - answered) / 1_000_000;
        assertThat(waitedMs).isGreaterThanOrEqualTo(first.throttleTimeMs() - 100L);
    }

    @Test
    void produceWithinItsQuotaIsNotThrottled() throws Exception {
        start();
        clientQuota("producer_byte_rate", 1_000_000);
        client.send(produce(1, (short) 1, 5000));
        assertThat(((ProduceResponse) read(ApiKeys.PRODUCE, (short) 9, 1)).throttleTimeMs()).isZero();
    }

    @Test
    void acksZeroProduceGetsNoAnswerButTheConnectionIsStillMuted() throws Exception {
        start();
        clientQuota("producer_byte_rate", 2000);
        long sent = System.nanoTime();
        client.send(produce(1, (short) 0, 5000));
        assertThat(client.apiVersions(2)).isZero(); // the first frame back answers the ApiVersions
        long waitedMs = (System.nanoTime() - sent) / 1_000_000;
        assertThat(waitedMs).isGreaterThanOrEqualTo(1400);
    }

    @Test
    void fetchOverItsQuotaIsAnsweredEmptyWithTheThrottleTime() throws Exception {
        start();
        clientQuota("consumer_byte_rate", 1000);
        client.send(fetch(1));
        FetchResponse r = (FetchResponse) read(ApiKeys.FETCH, (short) 12, 1);
        // max_bytes bounded by one window of the quota.
        assertThat(fetchMaxBytesSeen.get()).isEqualTo(1000);
        // The stand-in answered 5000 record bytes: over 1000 B/s, so nothing is sent and the bytes not counted.
        assertThat(r.data().responses()).isEmpty();
        assertThat(r.data().sessionId()).isZero();
        assertThat(r.throttleTimeMs()).isBetween(4000, 4200);
    }

    @Test
    void fetchWithoutQuotaIsAnsweredInFull() throws Exception {
        start();
        client.send(fetch(1));
        FetchResponse r = (FetchResponse) read(ApiKeys.FETCH, (short) 12, 1);
        assertThat(fetchMaxBytesSeen.get()).isEqualTo(50 << 20);
        assertThat(r.throttleTimeMs()).isZero();
        assertThat(r.data().sessionId()).isEqualTo(77);
        assertThat(r.data().responses()).singleElement().satisfies(t ->
                assertThat(t.partitions().get(0).records().sizeInBytes()).isEqualTo(5000));
    }

    @Test
    void anyRequestOverRequestPercentageCarriesTheThrottleInItsResponse() throws Exception {
        start();
        clientQuota("request_percentage", 1); // a hundredth of a thread: 10 ms of handling a second
        client.send(RawClient.frame(new ListGroupsRequest.Builder(new ListGroupsRequestData()).build((short) 4), CLIENT, 1));
        ListGroupsResponse r = (ListGroupsResponse) read(ApiKeys.LIST_GROUPS, (short) 4, 1);
        // 20 ms of handling in a one-second window is 2 %: twice the quota, so one window's throttle (Kafka's cap).
        assertThat(r.throttleTimeMs()).isBetween(900, 1000);
    }

    @Test
    void clientWithoutClientIdIsAnsweredAtOnceWhileClientIdQuotasExist() throws Exception {
        start();
        clientQuota("producer_byte_rate", 2000);
        clientQuota("request_percentage", 1);
        // The header's client id is a null string: quotas take it as "", which no client-id quota names.
        client.send(produce(null, 1, (short) 1, 5000));
        ProduceResponse produced = (ProduceResponse) read(ApiKeys.PRODUCE, (short) 9, 1);
        assertThat(produced.data().responses()).isEmpty();
        assertThat(produced.throttleTimeMs()).isZero();
    }

    @Test
    void clientWithoutClientIdGetsItsLaterAnswerWhileClientIdQuotasExist() throws Exception {
        start();
        clientQuota("request_percentage", 1);
        // Answered off the event loop: the response is written by a task the handler's completion schedules.
        client.send(RawClient.frame(new HeartbeatRequest.Builder(new HeartbeatRequestData().setGroupId("g")
                .setGenerationId(1).setMemberId("m")).build((short) 4), null, 2));
        HeartbeatResponse beat = (HeartbeatResponse) read(ApiKeys.HEARTBEAT, (short) 4, 2);
        assertThat(beat.error().code()).isZero();
        assertThat(beat.throttleTimeMs()).isZero();
    }
}
