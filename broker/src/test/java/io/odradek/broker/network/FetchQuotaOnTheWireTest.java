package io.odradek.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.Broker;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ListGroupsRequest;
import org.apache.kafka.common.requests.ListGroupsResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * quotafix: a throttled consumer through the whole broker (dispatcher, real fetch handler and sessions, quotas
 * set with AlterClientQuotas): a throttled fetch keeps its fetch session whichever quota throttles it, and the
 * connection is muted for the throttle whatever the response version carries.
 */
class FetchQuotaOnTheWireTest {
    private static final String CONSUMER = "quota-consumer";
    private static final String TOPIC = "orders";

    @TempDir
    Path logDir;
    final LoopbackBroker loopback = new LoopbackBroker();
    Broker broker;
    Admin admin;
    RawClient consumer;

    @BeforeEach
    void start() throws Exception {
        broker = loopback.start(logDir, Map.of());
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.port());
        admin = Admin.create(props);
        admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
        consumer = loopback.connect(0);
    }

    @AfterEach
    void stop() throws Exception {
        if (admin != null) {
            admin.close();
        }
        loopback.close();
    }

    private void consumerQuota(String key, Double value) throws Exception {
        Map<String, String> entity = new HashMap<>();
        entity.put(ClientQuotaEntity.CLIENT_ID, CONSUMER);
        admin.alterClientQuotas(List.of(new ClientQuotaAlteration(new ClientQuotaEntity(entity),
                List.of(new ClientQuotaAlteration.Op(key, value))))).all().get();
    }

    /** Appends records with acks=1 from another client (not the throttled one). */
    private void produce(String... values) throws Exception {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(values[i].getBytes(StandardCharsets.UTF_8));
        }
        ProduceRequestData data = new ProduceRequestData().setAcks((short) 1).setTimeoutMs(5000);
        ProduceRequestData.TopicProduceData topic = new ProduceRequestData.TopicProduceData().setName(TOPIC);
        topic.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(0)
                .setRecords(MemoryRecords.withRecords(Compression.NONE, records)));
        data.topicData().add(topic);
        RawClient producer = loopback.connect(0);
        producer.send(RawClient.frame(new ProduceRequest(data, (short) 9), "producer", 1));
        ProduceResponse r = (ProduceResponse) AbstractResponse.parseResponse(producer.readFrame(),
                new RequestHeader(ApiKeys.PRODUCE, (short) 9, "producer", 1));
        assertThat(r.data().responses().iterator().next().partitionResponses().get(0).errorCode()).isZero();
    }

    /** Fetch v12 of partition 0 at {@code offset}: a full request (epoch 0) or an incremental one. */
    private FetchResponse fetch(int correlationId, int sessionId, int epoch, long offset) throws IOException {
        FetchRequestData data = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(1)
                .setMaxBytes(1 << 20).setSessionId(sessionId).setSessionEpoch(epoch);
        data.topics().add(new FetchRequestData.FetchTopic().setTopic(TOPIC).setPartitions(List.of(
                new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(offset)
                        .setPartitionMaxBytes(1 << 20))));
        consumer.send(RawClient.frame(new FetchRequest(data, (short) 12), CONSUMER, correlationId));
        return (FetchResponse) AbstractResponse.parseResponse(consumer.readFrame(),
                new RequestHeader(ApiKeys.FETCH, (short) 12, CONSUMER, correlationId));
    }

    private static long highWatermark(FetchResponse r) {
        return r.data().responses().get(0).partitions().get(0).highWatermark();
    }

    private static int recordBytes(FetchResponse r) {
        return r.data().responses().get(0).partitions().get(0).records().sizeInBytes();
    }

    /** A session created unthrottled, holding offset 2 after "a" and "b". */
    private int openSession() throws Exception {
        produce("a", "b");
        FetchResponse first = fetch(1, 0, 0, 0L);
        assertThat(first.throttleTimeMs()).isZero();
        assertThat(first.data().sessionId()).isPositive();
        assertThat(recordBytes(first)).isPositive();
        return first.data().sessionId();
    }

    @Test
    void aConsumerOverItsByteRateKeepsItsFetchSessionAndIsMuted() throws Exception {
        int session = openSession();
        produce("c");
        consumerQuota("consumer_byte_rate", 50.0); // below one record batch

        FetchResponse throttled = fetch(2, session, 1, 2L);
        assertThat(throttled.throttleTimeMs()).isPositive();
        assertThat(throttled.error().code()).isZero();
        assertThat(throttled.data().sessionId()).isEqualTo(session);
        assertThat(throttled.data().responses()).isEmpty();
        assertThat(broker.network().mutedConnections()).as("muted for the throttle").isEqualTo(1);

        // Quota gone: once the mute is over, the same session's next fetch carries what the throttled one did not.
        consumerQuota("consumer_byte_rate", null);
        FetchResponse next = fetch(3, session, 2, 2L);
        assertThat(next.throttleTimeMs()).isZero();
        assertThat(next.data().sessionId()).isEqualTo(session);
        assertThat(highWatermark(next)).isEqualTo(3L);
        assertThat(recordBytes(next)).isPositive();
    }

    @Test
    void aConsumerOverItsRequestQuotaAloneKeepsItsFetchSession() throws Exception {
        int session = openSession();
        produce("c");
        consumerQuota("request_percentage", 0.0001); // any handling time at all is over it

        FetchResponse throttled = fetch(2, session, 1, 2L);
        assertThat(throttled.throttleTimeMs()).isBetween(1, 1000); // request throttles are at most one window
        assertThat(throttled.error().code()).isZero();
        assertThat(throttled.data().sessionId()).as("the session's own throttled answer").isEqualTo(session);
        assertThat(throttled.data().responses()).isEmpty();
        assertThat(broker.network().mutedConnections()).isEqualTo(1);

        consumerQuota("request_percentage", null);
        FetchResponse next = fetch(3, session, 2, 2L);
        assertThat(next.error().code()).isZero();
        assertThat(next.data().sessionId()).isEqualTo(session);
        assertThat(highWatermark(next)).isEqualTo(3L);
        assertThat(recordBytes(next)).isPositive();
    }

    /** Fetch v0 by hand (Kafka 4's client classes start at v4): partition 0 of the topic from offset 0. */
    private static byte[] fetchV0(int correlationId) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeShort(ApiKeys.FETCH.id);
        out.writeShort(0);
        out.writeInt(correlationId);
        out.writeShort(CONSUMER.length());
        out.writeBytes(CONSUMER);
        out.writeInt(-1); // replica_id: a consumer
        out.writeInt(0); // max_wait_ms
        out.writeInt(1); // min_bytes
        out.writeInt(1); // one topic
        out.writeShort(TOPIC.length());
        out.writeBytes(TOPIC);
        out.writeInt(1); // one partition
        out.writeInt(0);
        out.writeLong(0L);
        out.writeInt(1 << 20);
        byte[] body = bytes.toByteArray();
        return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }

    @Test
    void aV0FetchOverTheByteRateIsAnsweredEmptyAndMutedThoughV0CannotCarryTheThrottle() throws Exception {
        produce("a", "b");
        // Fetch v0 has no KIP-74: its read is cut at the quota's one-window bound, so the first fetch fits the
        // quota and the second one, the same again within the window, goes over it.
        consumerQuota("consumer_byte_rate", 150.0);
        consumer.send(fetchV0(7));
        ByteBuffer first = consumer.readFrame();
        assertThat(first.getInt()).isEqualTo(7);
        assertThat(first.getInt()).as("the first fetch is answered in full").isEqualTo(1);
        assertThat(broker.network().mutedConnections()).isZero();

        consumer.send(fetchV0(8));
        ByteBuffer second = consumer.readFrame();
        assertThat(second.getInt()).isEqualTo(8);
        assertThat(second.getInt()).as("no topics in the throttled answer").isZero();
        assertThat(second.remaining()).isZero();
        assertThat(broker.network().mutedConnections()).as("muted for the throttle").isEqualTo(1);
    }

    @Test
    void aV0FetchWithoutQuotasGetsItsRecordsAndIsNotMuted() throws Exception {
        produce("a", "b");
        consumer.send(fetchV0(7));
        ByteBuffer frame = consumer.readFrame();
        assertThat(frame.getInt()).isEqualTo(7);
        assertThat(frame.getInt()).isEqualTo(1); // the topic
        frame.position(frame.position() + 2 + TOPIC.length());
        assertThat(frame.getInt()).isEqualTo(1); // its partition
        assertThat(frame.getInt()).isZero();
        assertThat(frame.getShort()).isZero();
        assertThat(frame.getLong()).isEqualTo(2L); // high watermark
        assertThat(frame.getInt()).as("a magic 0 message set of a and b").isPositive();
        assertThat(broker.network().mutedConnections()).isZero();
    }

    @Test
    void aRequestOverRequestPercentageIsMutedEvenInAVersionWithoutThrottleTime() throws Exception {
        consumerQuota("request_percentage", 0.0001);
        // ListGroups v0 has no ThrottleTimeMs (v1 added it); Kafka mutes the channel regardless.
        consumer.send(RawClient.frame(new ListGroupsRequest.Builder(new ListGroupsRequestData()).build((short) 0),
                CONSUMER, 5));
        ListGroupsResponse r = (ListGroupsResponse) AbstractResponse.parseResponse(consumer.readFrame(),
                new RequestHeader(ApiKeys.LIST_GROUPS, (short) 0, CONSUMER, 5));
        assertThat(r.data().errorCode()).isZero();
        assertThat(r.throttleTimeMs()).isZero(); // not on the wire in v0
        assertThat(broker.network().mutedConnections()).as("muted for the throttle").isEqualTo(1);
    }
}
