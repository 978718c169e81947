package io.odradek.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse;
import io.odradek.wire.codec.Request;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What the dispatcher's report of each request turns into, under Kafka's RequestMetrics names. */
class RequestMetersTest {
    final BrokerMetrics metrics = BrokerMetrics.manual(System::nanoTime);
    final RequestMetrics requests = metrics.requests();

    long count(MetricName name) {
        Metric m = metrics.meters().get(name);
        assertThat(m).as(name.mbeanName()).isNotNull();
        return m instanceof Metric.Meter meter ? meter.count() : ((Metric.Histogram) m).count();
    }

    @Test
    void aProduceIsCountedByVersionWithItsTimesAndEveryPartitionsErrorCode() {
        Struct response = ProduceApi.Response.SCHEMA.newStruct();
        Struct topic = response.add(ProduceApi.Response.RESPONSES).set(TopicProduceResponse.NAME, "t");
        topic.add(TopicProduceResponse.PARTITION_RESPONSES).set(PartitionProduceResponse.ERROR_CODE, (short) 0);
        topic.add(TopicProduceResponse.PARTITION_RESPONSES).set(PartitionProduceResponse.ERROR_CODE, (short) 0);
        topic.add(TopicProduceResponse.PARTITION_RESPONSES)
                .set(PartitionProduceResponse.ERROR_CODE, ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
        Request produce = new Request(new RequestHeader((short) 0, (short) 11, 1, "c"), ProduceApi.SPEC,
                ProduceApi.Request.SCHEMA.newStruct());

        requests.completed(produce, response, TimeUnit.MILLISECONDS.toNanos(7), TimeUnit.MILLISECONDS.toNanos(2), 300);
        requests.completed(produce, null, TimeUnit.MILLISECONDS.toNanos(1), 0, 100); // acks=0: no response

        assertThat(count(RequestMeters.requestsName("Produce", (short) 11))).isEqualTo(2);
        RecentHistogram total = (RecentHistogram) metrics.meters().get(RequestMeters.name("TotalTimeMs", "Produce"));
        assertThat(total.max()).isEqualTo(7.0);
        assertThat(total.min()).isEqualTo(1.0);
        RecentHistogram local = (RecentHistogram) metrics.meters().get(RequestMeters.name("LocalTimeMs", "Produce"));
        assertThat(local.max()).isEqualTo(2.0);
        RecentHistogram bytes = (RecentHistogram) metrics.meters().get(RequestMeters.name("RequestBytes", "Produce"));
        assertThat(bytes.mean()).isEqualTo(200.0);
        assertThat(count(RequestMeters.errorsName("Produce", ErrorCode.NONE))).isEqualTo(2);
        assertThat(count(RequestMeters.errorsName("Produce", ErrorCode.NOT_LEADER_OR_FOLLOWER))).isEqualTo(1);
    }

    @Test
    void aFetchIsCountedAsFetchAndAsFetchConsumerOrFetchFollower() {
        Struct consumerFetch = FetchApi.Request.SCHEMA.newStruct().set(FetchApi.Request.REPLICA_ID, -1);
        Struct followerFetch = FetchApi.Request.SCHEMA.newStruct().set(FetchApi.Request.REPLICA_ID, 2);
        Struct answer = FetchApi.Response.SCHEMA.newStruct().set(FetchApi.Response.ERROR_CODE, (short) 0);
        requests.completed(new Request(new RequestHeader((short) 1, (short) 12, 1, "c"), FetchApi.SPEC, consumerFetch),
                answer, 1_000_000, 0, 80);
        requests.completed(new Request(new RequestHeader((short) 1, (short) 12, 2, "f"), FetchApi.SPEC, followerFetch),
                answer, 1_000_000, 0, 80);

        assertThat(count(RequestMeters.requestsName("Fetch", (short) 12))).isEqualTo(2);
        assertThat(count(RequestMeters.requestsName("FetchConsumer", (short) 12))).isEqualTo(1);
        assertThat(count(RequestMeters.requestsName("FetchFollower", (short) 12))).isEqualTo(1);
        assertThat(count(RequestMeters.name("TotalTimeMs", "FetchConsumer"))).isEqualTo(1);
        assertThat(count(RequestMeters.errorsName("Fetch", ErrorCode.NONE))).isEqualTo(2); // the top-level code (v7+)
    }

    @Test
    void anUnknownApiKeyIsIgnored() {
        requests.completed((short) 127, (short) 0, 1, 1, 1);
        assertThat(metrics.registry().metrics()).noneMatch(m -> m.name().group().equals("kafka.network"));
    }
}
