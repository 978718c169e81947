package io.odradek.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ReferenceCountUtil;
import io.odradek.replication.config.QuotaEntity;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.ListGroupsApi;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.api.WriteTxnMarkersApi;
import io.odradek.wire.codec.Request;
import io.odradek.wire.codec.ResponseEncoder;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Which requests count against which quota, and what the response carries (a hand-moved clock). */
class RequestThrottlerTest {
    private static final String CLIENT = "app";
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final ClientQuotas quotas = new ClientQuotas(QuotaWindows.KAFKA_DEFAULTS);
    private final RequestThrottler throttler = new RequestThrottler(quotas, clock::get);
    private final Map<QuotaEntity, Map<String, Double>> configured = new HashMap<>();

    private void clientQuota(String key, double value) {
        TreeMap<String, String> parts = new TreeMap<>();
        parts.put(QuotaEntity.CLIENT_ID, CLIENT);
        configured.computeIfAbsent(new QuotaEntity(parts), e -> new HashMap<>()).put(key, value);
        quotas.update(configured);
    }

    private static Request request(ApiSpec api, int version, Struct body) {
        return new Request(new RequestHeader(api.key(), (short) version, 1, CLIENT), api, body);
    }

    private static Struct produce(short acks) {
        return ProduceApi.Request.SCHEMA.newStruct().set(ProduceApi.Request.ACKS, acks);
    }

    private static long millis(long ms) {
        return TimeUnit.MILLISECONDS.toNanos(ms);
    }

    @Test
    void produceCountsTheRequestBytesAndSetsTheThrottleInTheResponse() {
        clientQuota("producer_byte_rate", 1000);
        Struct response = ProduceApi.Response.SCHEMA.newStruct();
        RequestThrottler.Outcome o = throttler.afterHandle(request(ProduceApi.SPEC, 9, produce((short) 1)),
                ClientQuotas.ANONYMOUS, 3000, 0, response, null);
        assertThat(o.throttleMs()).isEqualTo(2000);
        assertThat(o.response()).isSameAs(response);
        assertThat(response.get(ProduceApi.Response.THROTTLE_TIME_MS)).isEqualTo(2000);
    }

    @Test
    void aVersionWithoutThrottleTimeIsStillThrottled() {
        clientQuota("producer_byte_rate", 1000);
        Struct response = ProduceApi.Response.SCHEMA.newStruct();
        RequestThrottler.Outcome o = throttler.afterHandle(request(ProduceApi.SPEC, 0, produce((short) 1)),
                ClientQuotas.ANONYMOUS, 3000, 0, response, null);
        assertThat(o.throttleMs()).isEqualTo(2000);
        assertThat(response.get(ProduceApi.Response.THROTTLE_TIME_MS)).isZero(); // v0 has no such field
    }

    @Test
    void acksZeroProduceIsNotCountedAgainstRequestTime() {
        clientQuota("request_percentage", 1);
        RequestThrottler.Outcome o = throttler.afterHandle(request(ProduceApi.SPEC, 9, produce((short) 0)),
                ClientQuotas.ANONYMOUS, 100, millis(500), null, null);
        assertThat(o.throttleMs()).isZero();
        assertThat(o.response()).isNull();
        // The same handling time on acks=1 is 50 % of a thread against 1 %: one window's throttle.
        assertThat(throttler.afterHandle(request(ProduceApi.SPEC, 9, produce((short) 1)), ClientQuotas.ANONYMOUS,
                100, millis(500), ProduceApi.Response.SCHEMA.newStruct(), null).throttleMs()).isEqualTo(1000);
    }

    @Test
    void followerFetchesAndTransactionMarkersAreExempt() {
        clientQuota("request_percentage", 1);
        clientQuota("consumer_byte_rate", 1);
        Struct follower = FetchApi.Request.SCHEMA.newStruct().set(FetchApi.Request.REPLICA_ID, 2);
        throttler.beforeHandle(request(FetchApi.SPEC, 12, follower), ClientQuotas.ANONYMOUS);
        assertThat(follower.get(FetchApi.Request.MAX_BYTES)).isEqualTo(Integer.MAX_VALUE);
        Struct fetchResponse = FetchApi.Response.SCHEMA.newStruct().set(FetchApi.Response.SESSION_ID, 5);
        RequestThrottler.Outcome o = throttler.afterHandle(request(FetchApi.SPEC, 12, follower), ClientQuotas.ANONYMOUS,
                100, millis(900), fetchResponse, null);
        assertThat(o.throttleMs()).isZero();
        assertThat(o.response()).isSameAs(fetchResponse);

        Struct markers = WriteTxnMarkersApi.Request.SCHEMA.newStruct();
        assertThat(throttler.afterHandle(request(WriteTxnMarkersApi.SPEC, 1, markers), ClientQuotas.ANONYMOUS, 100,
                millis(900), WriteTxnMarkersApi.Response.SCHEMA.newStruct(), null).throttleMs()).isZero();
    }

    @Test
    void aFetchOverItsRequestQuotaIsAnsweredEmptyToo() {
        clientQuota("request_percentage", 1);
        Struct fetch = FetchApi.Request.SCHEMA.newStruct();
        throttler.beforeHandle(request(FetchApi.SPEC, 12, fetch), ClientQuotas.ANONYMOUS);
        assertThat(fetch.get(FetchApi.Request.MAX_BYTES)).isEqualTo(Integer.MAX_VALUE); // no byte quota: not bounded
        Struct response = FetchApi.Response.SCHEMA.newStruct().set(FetchApi.Response.SESSION_ID, 5);
        response.add(FetchApi.Response.RESPONSES).set(FetchApi.Response.FetchableTopicResponse.TOPIC, "t");
        RequestThrottler.Outcome o = throttler.afterHandle(request(FetchApi.SPEC, 12, fetch), ClientQuotas.ANONYMOUS,
                100, millis(30), response, null);
        assertThat(o.throttleMs()).isEqualTo(1000);
        assertThat(o.response().get(FetchApi.Response.RESPONSES)).isEmpty();
        assertThat(o.response().get(FetchApi.Response.SESSION_ID)).isZero();
        assertThat(o.response().get(FetchApi.Response.THROTTLE_TIME_MS)).isEqualTo(1000);
    }

    @Test
    void aThrottledFetchsBytesAreNotCounted() {
        clientQuota("consumer_byte_rate", 100);
        Struct fetch = FetchApi.Request.SCHEMA.newStruct().set(FetchApi.Request.MIN_BYTES, 500);
        throttler.beforeHandle(request(FetchApi.SPEC, 12, fetch), ClientQuotas.ANONYMOUS);
        assertThat(fetch.get(FetchApi.Request.MAX_BYTES)).isEqualTo(100);
        assertThat(fetch.get(FetchApi.Request.MIN_BYTES)).isEqualTo(100);
        Struct big = FetchApi.Response.SCHEMA.newStruct();
        big.add(FetchApi.Response.RESPONSES).set(FetchApi.Response.FetchableTopicResponse.TOPIC, "a-topic-name-long-enough".repeat(10));
        assertThat(throttler.afterHandle(request(FetchApi.SPEC, 12, fetch), ClientQuotas.ANONYMOUS, 100, 0, big, null)
                .throttleMs()).isPositive();
        // Taken back: an empty answer (a few dozen bytes) right after is within 100 B/s.
        RequestThrottler.Outcome small = throttler.afterHandle(request(FetchApi.SPEC, 12, fetch), ClientQuotas.ANONYMOUS,
                100, 0, FetchApi.Response.SCHEMA.newStruct(), null);
        assertThat(small.throttleMs()).isZero();
        assertThat(small.response().get(FetchApi.Response.RESPONSES)).isEmpty();
    }

    @Test
    void otherApisCountHandlingTimeOnly() {
        clientQuota("producer_byte_rate", 1);
        assertThat(throttler.afterHandle(request(ListGroupsApi.SPEC, 4, ListGroupsApi.Request.SCHEMA.newStruct()),
                ClientQuotas.ANONYMOUS, 1_000_000, millis(900), ListGroupsApi.Response.SCHEMA.newStruct(), null).throttleMs())
                .isZero();
        assertThat(List.of(quotas.enabled(QuotaKind.REQUEST), quotas.enabled(QuotaKind.FETCH))).containsOnly(false);
    }

    @Test
    void withoutAnyQuotaNothingIsMeasuredOrTouched() {
        Struct fetch = FetchApi.Request.SCHEMA.newStruct();
        Request request = request(FetchApi.SPEC, 0, fetch);
        assertThat(throttler.beforeHandle(request, ClientQuotas.ANONYMOUS)).isNull();
        assertThat(fetch.get(FetchApi.Request.MAX_BYTES)).isEqualTo(Integer.MAX_VALUE);
        Struct response = FetchApi.Response.SCHEMA.newStruct().set(FetchApi.Response.SESSION_ID, 5);
        RequestThrottler.Outcome o = throttler.afterHandle(request, ClientQuotas.ANONYMOUS, 100, millis(900), response,
                null);
        assertThat(o.throttleMs()).isZero();
        assertThat(o.response()).isSameAs(response);
        assertThat(response.get(FetchApi.Response.SESSION_ID)).isEqualTo(5);
    }

    @Test
    void aFetchResponseIsSizedAsEncodedWithoutItsRecordsBeingWritten() {
        Struct response = FetchApi.Response.SCHEMA.newStruct().set(FetchApi.Response.SESSION_ID, 5);
        Records records = new MemoryRecords(Unpooled.wrappedBuffer(new byte[5000]));
        Struct partition = response.add(FetchApi.Response.RESPONSES)
                .set(FetchApi.Response.FetchableTopicResponse.TOPIC, "orders")
                .add(FetchApi.Response.FetchableTopicResponse.PARTITIONS)
                .set(FetchApi.Response.FetchableTopicResponse.PartitionData.RECORDS, records);
        for (short version : new short[] {0, 4, 12, 16}) {
            long encoded = 0;
            for (Object part : ResponseEncoder.encode(UnpooledByteBufAllocator.DEFAULT, FetchApi.SPEC, version, 9,
                    response)) {
                encoded += ((ByteBuf) part).readableBytes();
                ReferenceCountUtil.release(part);
            }
            assertThat(FetchResponseSize.of(version, 9, response)).as("v" + version).isEqualTo(encoded - 4);
            assertThat(partition.get(FetchApi.Response.FetchableTopicResponse.PartitionData.RECORDS)).isSameAs(records);
        }
    }
}
