package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.api.RequestContext;
import io.odradek.broker.fetch.session.FetchSessionCache;
import io.odradek.broker.quota.ConsumerFetchQuota;
import io.odradek.broker.quota.ClientQuotas;
import io.odradek.broker.quota.QuotaWindows;
import io.odradek.broker.quota.RequestThrottler;
import io.odradek.replication.config.QuotaEntity;
import io.odradek.wire.api.FetchApi.Request;
import io.odradek.wire.api.FetchApi.Request.FetchTopic;
import io.odradek.wire.api.FetchApi.Response;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consumer over its byte rate, in a fetch session: the fetch handler checks the quota before the session
 * records what it sends, so the throttled answer is the session's own (its id kept, no partitions) and the
 * data it did not carry comes in the next incremental fetch, as with Kafka's getThrottledResponse.
 */
class FetchQuotaSessionTest {
    @TempDir
    Path dir;
    DataPathFixture fx;
    final AtomicLong clock = new AtomicLong(1_000_000L);
    final ClientQuotas quotas = new ClientQuotas(QuotaWindows.KAFKA_DEFAULTS);
    FetchHandler handler;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        FetchSessionCache sessions = new FetchSessionCache(1000, 8, FetchSessionCache.KAFKA_EVICTION_MS, 10_000, clock::get);
        handler = new FetchHandler(fx, fx.partitions, fx.cluster, IncrementalFetchTest.FETCH_MAX_BYTES, sessions)
                .withConsumerQuota(new RequestThrottler(quotas, clock::get).consumerFetchQuota());
        fx.createTopic("orders", 1);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private void consumerByteRate(double bytesPerSecond) {
        TreeMap<String, String> parts = new TreeMap<>();
        parts.put(QuotaEntity.CLIENT_ID, "test-client"); // the fixture's client id
        quotas.update(Map.of(new QuotaEntity(parts), Map.of("consumer_byte_rate", bytesPerSecond)));
    }

    private Struct incremental(int sessionId, int epoch) {
        return FetchHandlerTest.baseRequest(0, 1).set(Request.SESSION_ID, sessionId).set(Request.SESSION_EPOCH, epoch);
    }

    @Test
    void aThrottledIncrementalFetchKeepsItsSessionAndTheNextOneCarriesTheData() {
        consumerByteRate(1_000_000);
        fx.append("orders", 0, 1L, "a", "b");
        Struct full = FetchHandlerTest.fetchRequest(0, 1, "orders", 0, 0L).set(Request.SESSION_EPOCH, 0);
        Struct first = fx.callAndWait(handler, 12, full);
        int session = first.get(Response.SESSION_ID);
        assertThat(session).isPositive();
        assertThat(first.get(Response.THROTTLE_TIME_MS)).isZero();
        assertThat(FetchHandlerTest.records(first, 0, 0).sizeInBytes()).isPositive();

        // The consumer moves to offset 2; "c" arrives; its quota drops far below what it was sent.
        fx.append("orders", 0, 2L, "c");
        consumerByteRate(10);
        Struct moved = incremental(session, 1);
        FetchHandlerTest.addPartition(moved.add(Request.TOPICS).set(FetchTopic.TOPIC, "orders"), 0, 2L);
        Struct throttled = fx.callAndWait(handler, 12, moved);
        assertThat(throttled.get(Response.THROTTLE_TIME_MS)).isPositive();
        assertThat(throttled.get(Response.ERROR_CODE)).isZero();
        assertThat(throttled.get(Response.SESSION_ID)).isEqualTo(session);
        assertThat(throttled.get(Response.RESPONSES)).isEmpty();

        // Allowed again: the session still owes the consumer "c" and the new high watermark.
        consumerByteRate(1_000_000);
        Struct next = fx.callAndWait(handler, 12, incremental(session, 2));
        assertThat(next.get(Response.THROTTLE_TIME_MS)).isZero();
        assertThat(next.get(Response.SESSION_ID)).isEqualTo(session);
        assertThat(FetchHandlerTest.partition(next, 0, 0).get(PartitionData.HIGH_WATERMARK)).isEqualTo(3L);
        assertThat(FetchHandlerTest.records(next, 0, 0).sizeInBytes()).isPositive();
    }

    @Test
    void aThrottledFullFetchMakesNoSession() {
        consumerByteRate(10);
        fx.append("orders", 0, 1L, "a", "b");
        Struct full = FetchHandlerTest.fetchRequest(0, 1, "orders", 0, 0L).set(Request.SESSION_EPOCH, 0);
        Struct throttled = fx.callAndWait(handler, 12, full);
        assertThat(throttled.get(Response.THROTTLE_TIME_MS)).isPositive();
        assertThat(throttled.get(Response.SESSION_ID)).isZero();
        assertThat(throttled.get(Response.RESPONSES)).isEmpty();
    }

    /** quotafix: a hook that records what the handler asked of it, answering as configured. */
    private static final class RecordingQuota implements ConsumerFetchQuota {
        final boolean applies;
        final List<Struct> sized = new ArrayList<>();

        RecordingQuota(boolean applies) {
            this.applies = applies;
        }

        @Override
        public boolean applies(RequestContext context, Struct request) {
            return applies;
        }

        @Override
        public int throttleMs(RequestContext context, Struct request, Struct wouldSend) {
            sized.add(wouldSend);
            return 0;
        }
    }

    private FetchHandler handlerWith(ConsumerFetchQuota quota) {
        FetchSessionCache sessions = new FetchSessionCache(1000, 8, FetchSessionCache.KAFKA_EVICTION_MS, 10_000, clock::get);
        return new FetchHandler(fx, fx.partitions, fx.cluster, IncrementalFetchTest.FETCH_MAX_BYTES, sessions)
                .withConsumerQuota(quota);
    }

    @Test
    void withoutAnyQuotaTheHandlerBuildsNothingToMeasure() {
        RecordingQuota quota = new RecordingQuota(false);
        fx.append("orders", 0, 1L, "a", "b");
        Struct response = fx.callAndWait(handlerWith(quota), 12, FetchHandlerTest.fetchRequest(0, 1, "orders", 0, 0L));
        assertThat(FetchHandlerTest.records(response, 0, 0).sizeInBytes()).isPositive();
        assertThat(quota.sized).as("no would-be response built, sized or encoded").isEmpty();
    }

    @Test
    void anOldConsumersRecordsAreDownConvertedOnceWhenTheResponseIsSizedForItsQuota() {
        RecordingQuota quota = new RecordingQuota(true);
        fx.append("orders", 0, 1L, "a", "b");
        Struct response = fx.callAndWait(handlerWith(quota), 2, FetchHandlerTest.fetchRequest(0, 1, "orders", 0, 0L));
        assertThat(quota.sized).hasSize(1);
        // The records sent are the very ones sized: converted to magic 1 once, not again for the answer.
        assertThat(FetchHandlerTest.records(response, 0, 0))
                .isSameAs(FetchHandlerTest.records(quota.sized.get(0), 0, 0));
        assertThat(FetchHandlerTest.records(response, 0, 0).sizeInBytes()).isPositive();
    }
}
