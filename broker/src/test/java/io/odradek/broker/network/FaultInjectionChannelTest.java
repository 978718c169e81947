package io.odradek.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.faults.Faults;
import io.odradek.broker.metrics.RequestMetrics;
import io.odradek.broker.quota.ClientQuotas;
import io.odradek.broker.quota.QuotaWindows;
import io.odradek.broker.quota.RequestThrottler;
import io.odradek.broker.security.ListenerSecurity;
import io.odradek.security.acl.Authorizer;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ListGroupsApi;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ListGroupsRequest;
import org.apache.kafka.common.requests.ListGroupsResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * issue 11 (faults): injected errors, delays and drops on one connection, driven with Kafka's own request classes
 * through an EmbeddedChannel (its clock frozen, so a delay passes only when the test advances it).
 */
class FaultInjectionChannelTest {
    private final Faults faults = new Faults();
    private final List<String> listGroupsServed = new ArrayList<>();
    /** The handler time the dispatcher reported for each answered request, in order. */
    private final List<Long> handlerNanos = new ArrayList<>();
    /** The records each produce handler call saw, copied while it ran. */
    private final List<byte[]> producedRecords = new ArrayList<>();
    private final OutboundFrames received = new OutboundFrames();
    private final List<Integer> correlations = new ArrayList<>();
    private EmbeddedChannel channel;
    private RequestMemoryPool pool;
    private int correlation;

    @BeforeEach
    void connect() {
        ApiRegistry registry = new ApiRegistry();
        registry.register(handler(ListGroupsApi.SPEC, (context, request) -> {
            listGroupsServed.add(context.header().clientId());
            if ("slow".equals(context.header().clientId())) {
                sleep(40);
            }
            return ListGroupsApi.Response.SCHEMA.newStruct();
        })).register(handler(ProduceApi.SPEC, (context, request) -> {
            Struct partition = request.get(ProduceApi.Request.TOPIC_DATA).get(0)
                    .get(ProduceApi.Request.TopicProduceData.PARTITION_DATA).get(0);
            MemoryRecords records = (MemoryRecords) partition.get(
                    ProduceApi.Request.TopicProduceData.PartitionProduceData.RECORDS);
            producedRecords.add(ByteBufUtil.getBytes(records.buffer()));
            return ProduceApi.Response.SCHEMA.newStruct();
        }));
        pool = new RequestMemoryPool(100 << 20, 1000);
        RequestFrameDecoder frames = new RequestFrameDecoder(100 << 20, pool, new AtomicInteger());
        channel = new EmbeddedChannel();
        channel.freezeTime();
        channel.pipeline().addLast(frames);
        channel.pipeline().addLast(new RequestChannelHandler(registry, pool, frames.gate(), 100, -1,
                new RateLimitedLog(System.getLogger("test"), 1000),
                new RequestThrottler(new ClientQuotas(QuotaWindows.KAFKA_DEFAULTS), System::currentTimeMillis),
                ListenerSecurity.plaintext("PLAINTEXT"), Authorizer.ALLOW_ALL,
                new RequestHooks(faults, new RequestMetrics() {
                    @Override
                    public void completed(short apiKey, short version, long totalNanos, long handler, int bytes) {
                        handlerNanos.add(handler);
                    }
                })));
    }

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
        received.release();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private interface Body {
        Struct answer(RequestContext context, Struct request);
    }

    private static ApiHandler handler(ApiSpec api, Body body) {
        return new ApiHandler() {
            @Override
            public ApiSpec api() {
                return api;
            }

            @Override
            public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
                return CompletableFuture.completedFuture(body.answer(context, request));
            }
        };
    }

    private RequestHeader send(AbstractRequest request, String clientId) {
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), clientId, ++correlation);
        ByteBuffer body = request.serializeWithHeader(header);
        ByteBuf frame = Unpooled.buffer(4 + body.remaining()).writeInt(body.remaining()).writeBytes(body);
        channel.writeInbound(frame);
        channel.runPendingTasks();
        return header;
    }

    /** The next whole frame the broker wrote, without its length prefix; null when there is none. */
    private ByteBuffer nextFrame() {
        return received.next(channel);
    }

    @SuppressWarnings("unchecked")
    private <T extends AbstractResponse> T response(RequestHeader header) {
        ByteBuffer frame = nextFrame();
        assertThat(frame).as("a response to " + header.apiKey()).isNotNull();
        correlations.add(frame.getInt(0));
        return (T) AbstractResponse.parseResponse(frame, header);
    }

    private void advance(long millis) {
        channel.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        channel.runPendingTasks();
    }

    private static ListGroupsRequest listGroups() {
        return new ListGroupsRequest.Builder(new ListGroupsRequestData()).build((short) 4);
    }

    private static final byte[] VALUE = "v-1".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private static ProduceRequest produce(String... topics) {
        return produce((short) 1, topics);
    }

    private static ProduceRequest produce(short acks, String... topics) {
        ProduceRequestData.TopicProduceDataCollection data = new ProduceRequestData.TopicProduceDataCollection();
        for (String topic : topics) {
            List<ProduceRequestData.PartitionProduceData> partitions = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                MemoryRecordsBuilder batch = org.apache.kafka.common.record.internal.MemoryRecords.builder(
                        ByteBuffer.allocate(256), RecordBatch.CURRENT_MAGIC_VALUE, Compression.NONE,
                        TimestampType.CREATE_TIME, 0L);
                batch.append(1000L, null, VALUE);
                partitions.add(new ProduceRequestData.PartitionProduceData().setIndex(p).setRecords(batch.build()));
            }
            data.add(new ProduceRequestData.TopicProduceData().setName(topic).setPartitionData(partitions));
        }
        return new ProduceRequest.Builder((short) 9, (short) 9,
                new ProduceRequestData().setAcks(acks).setTimeoutMs(1000).setTopicData(data)).build((short) 9);
    }

    private void assertMemoryGivenBack() {
        assertThat(pool.queuedRequests()).isZero();
        assertThat(pool.usedBytes()).isZero();
    }

    @Test
    void injectedErrorAnswersEveryProducePartitionWithoutProducing() {
        faults.failNext("Produce", null, 1, "NOT_LEADER_OR_FOLLOWER");
        ProduceResponse failed = response(send(produce("a", "b"), "app"));
        assertThat(failed.data().responses()).hasSize(2);
        failed.data().responses().forEach(topic -> {
            assertThat(topic.partitionResponses()).extracting(p -> p.index()).containsExactly(0, 1);
            assertThat(topic.partitionResponses()).allSatisfy(p -> {
                assertThat(p.errorCode()).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER.code());
                assertThat(p.baseOffset()).isEqualTo(-1L);
            });
        });
        assertThat(producedRecords).isEmpty();
        response(send(produce("a"), "app"));
        assertThat(producedRecords).hasSize(1);
        assertThat(faults.rules()).isEmpty();
        assertMemoryGivenBack();
    }

    @Test
    void errorRuleForOneClientLeavesOtherClientsAlone() {
        faults.failNext("ListGroups", "victim", 2, "COORDINATOR_NOT_AVAILABLE");
        ListGroupsResponse other = response(send(listGroups(), "bystander"));
        ListGroupsResponse hit = response(send(listGroups(), "victim"));
        assertThat(other.data().errorCode()).isZero();
        assertThat(hit.data().errorCode()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE.code());
        assertThat(listGroupsServed).containsExactly("bystander");
        assertThat(faults.rules()).singleElement().satisfies(r -> assertThat(r.remaining()).isEqualTo(1));
    }

    @Test
    void delayedRequestIsServedAfterItsDelayAndLaterRequestsWaitBehindIt() {
        faults.delayNext("ListGroups", null, 1, Duration.ofMillis(500));
        RequestHeader first = send(listGroups(), "first");
        RequestHeader second = send(listGroups(), "second");
        assertThat(nextFrame()).isNull();
        assertThat(listGroupsServed).isEmpty();
        advance(499);
        assertThat(nextFrame()).isNull();
        assertThat(listGroupsServed).isEmpty();
        advance(1);
        ListGroupsResponse a = response(first);
        ListGroupsResponse b = response(second);
        assertThat(a.data().errorCode()).isZero();
        assertThat(b.data().errorCode()).isZero();
        assertThat(listGroupsServed).containsExactly("first", "second");
        assertThat(correlations).containsExactly(first.correlationId(), second.correlationId());
        RequestHeader third = send(listGroups(), "third"); // nothing held any more: served at once
        response(third);
        assertThat(listGroupsServed).containsExactly("first", "second", "third");
        assertMemoryGivenBack();
    }

    @Test
    void errorAnsweredAtOnceStillWaitsBehindAnEarlierDelayedResponse() {
        faults.delayNext("ListGroups", null, 1, Duration.ofMillis(300))
                .failNext("Produce", null, 1, "REQUEST_TIMED_OUT");
        RequestHeader delayed = send(listGroups(), "app");
        RequestHeader failed = send(produce("a"), "app");
        assertThat(nextFrame()).as("the error may not overtake the delayed answer").isNull();
        advance(300);
        ListGroupsResponse first = response(delayed);
        ProduceResponse second = response(failed);
        assertThat(first.data().errorCode()).isZero();
        assertThat(second.data().responses()).singleElement().satisfies(t -> assertThat(t.partitionResponses())
                .extracting(p -> p.errorCode()).containsOnly(Errors.REQUEST_TIMED_OUT.code()));
        assertThat(correlations).containsExactly(delayed.correlationId(), failed.correlationId());
        assertThat(producedRecords).isEmpty();
        assertMemoryGivenBack();
    }

    @Test
    void delayedProduceStillSeesItsRecordsWhenItIsServed() {
        faults.delayNext("Produce", null, 1, Duration.ofMillis(200));
        RequestHeader header = send(produce("a"), "app");
        assertThat(pool.usedBytes()).isPositive();
        advance(200);
        response(header);
        assertThat(producedRecords).hasSize(1);
        org.apache.kafka.common.record.internal.MemoryRecords seen =
                org.apache.kafka.common.record.internal.MemoryRecords.readableRecords(ByteBuffer.wrap(producedRecords.get(0)));
        assertThat(seen.records()).singleElement().satisfies(r -> {
            byte[] value = new byte[r.valueSize()];
            r.value().get(value);
            assertThat(value).isEqualTo(VALUE);
        });
        assertMemoryGivenBack();
    }

    @Test
    void connectionClosedDuringADelayGivesTheRequestsMemoryBackAndNeverServesIt() {
        faults.delayNext("Produce", null, 1, Duration.ofSeconds(30));
        send(produce("a"), "app");
        send(listGroups(), "app");
        assertThat(pool.usedBytes()).isPositive();
        channel.close();
        channel.runPendingTasks();
        assertMemoryGivenBack();
        advance(30_000);
        assertThat(producedRecords).isEmpty();
        assertThat(listGroupsServed).isEmpty();
    }

    @Test
    void droppedRequestClosesTheConnectionAfterEarlierAnswersWithoutAnsweringIt() {
        faults.dropNext("ListGroups", null, 1);
        faults.delayNext("Produce", null, 1, Duration.ZERO); // a rule for another API stays
        RequestHeader served = send(produce("a"), "app");
        send(listGroups(), "app");
        response(served);
        assertThat(nextFrame()).isNull();
        assertThat(channel.isOpen()).isFalse();
        assertThat(listGroupsServed).isEmpty();
        assertMemoryGivenBack();
        assertThat(faults.rules()).isEmpty();
    }

    @Test
    void injectedErrorOnAnAcksZeroProduceClosesTheConnectionAfterEarlierAnswers() {
        faults.failNext("Produce", null, 1, "NOT_LEADER_OR_FOLLOWER");
        RequestHeader served = send(listGroups(), "app");
        send(produce((short) 0, "a"), "app");
        ListGroupsResponse answered = response(served);
        assertThat(answered.data().errorCode()).isZero();
        assertThat(nextFrame()).as("acks=0: no answer to the produce").isNull();
        assertThat(channel.isOpen()).as("closing is an acks=0 producer's only signal, as in Kafka").isFalse();
        assertThat(producedRecords).isEmpty();
        assertThat(faults.rules()).isEmpty();
        assertMemoryGivenBack();
    }

    @Test
    void aDelayedRequestsHandlerTimeIsItsHandlersNotItsQueueing() {
        faults.delayNext("ListGroups", null, 1, Duration.ofMillis(500));
        RequestHeader slow = send(listGroups(), "slow"); // its handler takes 40 ms, once the delay is over
        advance(500);
        ListGroupsResponse answered = response(slow);
        assertThat(answered.data().errorCode()).isZero();
        assertThat(handlerNanos).singleElement()
                .satisfies(nanos -> assertThat(nanos).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(40)));
    }
}
