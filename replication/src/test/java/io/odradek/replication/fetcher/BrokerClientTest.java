package io.odradek.replication.fetcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.odradek.wire.api.ApiVersionsApi;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.batch.RecordBatchBuilder;
import io.odradek.wire.codec.Request;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BrokerClientTest {
    private static final UUID TOPIC_ID = UUID.fromString("0b0e8a3c-1d2e-4f5a-9b8c-7d6e5f4a3b2c");
    private TinyBroker broker;
    private BrokerClient client;

    @AfterEach
    void tearDown() throws IOException {
        if (client != null) {
            client.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static Struct apiVersionsAnswer(Request request) {
        Struct body = ApiVersionsApi.Response.SCHEMA.newStruct().set(ApiVersionsApi.Response.ERROR_CODE, (short) 0);
        body.add(ApiVersionsApi.Response.API_KEYS)
                .set(ApiVersionsApi.Response.ApiVersion.API_KEY, (short) 1)
                .set(ApiVersionsApi.Response.ApiVersion.MIN_VERSION, (short) 4)
                .set(ApiVersionsApi.Response.ApiVersion.MAX_VERSION, (short) 18);
        return body;
    }

    @Test
    void anApiVersionsRequestRoundTripsWithHeaderClientIdAndCorrelationIds() throws IOException {
        broker = new TinyBroker(BrokerClientTest::apiVersionsAnswer);
        client = new BrokerClient(broker.host(), broker.port(), "broker-2-test", 5_000, 5_000);
        Struct request = ApiVersionsApi.Request.SCHEMA.newStruct()
                .set(ApiVersionsApi.Request.CLIENT_SOFTWARE_NAME, "odradek")
                .set(ApiVersionsApi.Request.CLIENT_SOFTWARE_VERSION, "1");

        Struct first = client.send(ApiVersionsApi.SPEC, (short) 3, request);
        Struct second = client.send(ApiVersionsApi.SPEC, (short) 3, request);

        for (Struct answer : List.of(first, second)) {
            assertThat(answer.get(ApiVersionsApi.Response.ERROR_CODE)).isZero();
            Struct fetch = answer.get(ApiVersionsApi.Response.API_KEYS).get(0);
            assertThat(List.of(fetch.get(ApiVersionsApi.Response.ApiVersion.API_KEY),
                    fetch.get(ApiVersionsApi.Response.ApiVersion.MIN_VERSION),
                    fetch.get(ApiVersionsApi.Response.ApiVersion.MAX_VERSION))).containsExactly((short) 1, (short) 4, (short) 18);
        }
        assertThat(broker.received).extracting(r -> r.header().clientId()).containsExactly("broker-2-test", "broker-2-test");
        assertThat(broker.received).extracting(r -> r.header().correlationId()).containsExactly(0, 1);
        assertThat(broker.received.get(0).body().get(ApiVersionsApi.Request.CLIENT_SOFTWARE_NAME)).isEqualTo("odradek");
    }

    @Test
    void aReplicaFetchRoundTripsReplicaStateRecordsAndDivergingEpoch() throws IOException {
        ByteBuffer batch = new RecordBatchBuilder(1_000L)
                .append("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8)).build();
        byte[] batchBytes = new byte[batch.remaining()];
        batch.duplicate().get(batchBytes);
        broker = new TinyBroker(request -> {
            Struct body = FetchApi.Response.SCHEMA.newStruct();
            Struct topic = body.add(FetchApi.Response.RESPONSES).set(FetchApi.Response.FetchableTopicResponse.TOPIC_ID, TOPIC_ID);
            Struct p = topic.add(FetchApi.Response.FetchableTopicResponse.PARTITIONS)
                    .set(FetchApi.Response.FetchableTopicResponse.PartitionData.PARTITION_INDEX, 3)
                    .set(FetchApi.Response.FetchableTopicResponse.PartitionData.HIGH_WATERMARK, 7L)
                    .set(FetchApi.Response.FetchableTopicResponse.PartitionData.LOG_START_OFFSET, 2L)
                    .set(FetchApi.Response.FetchableTopicResponse.PartitionData.RECORDS,
                            new MemoryRecords(Unpooled.wrappedBuffer(batchBytes)));
            p.set(FetchApi.Response.FetchableTopicResponse.PartitionData.DIVERGING_EPOCH,
                    FetchApi.Response.FetchableTopicResponse.PartitionData.EpochEndOffset.SCHEMA.newStruct()
                            .set(FetchApi.Response.FetchableTopicResponse.PartitionData.EpochEndOffset.EPOCH, 4)
                            .set(FetchApi.Response.FetchableTopicResponse.PartitionData.EpochEndOffset.END_OFFSET, 5L));
            return body;
        });
        client = new BrokerClient(broker.host(), broker.port(), "fetcher", 5_000, 5_000);
        Struct request = FetchApi.Request.SCHEMA.newStruct()
                .set(FetchApi.Request.REPLICA_STATE, FetchApi.Request.ReplicaState.SCHEMA.newStruct()
                        .set(FetchApi.Request.ReplicaState.REPLICA_ID, 2)
                        .set(FetchApi.Request.ReplicaState.REPLICA_EPOCH, 42L))
                .set(FetchApi.Request.MAX_WAIT_MS, 500)
                .set(FetchApi.Request.MIN_BYTES, 1);
        request.add(FetchApi.Request.TOPICS).set(FetchApi.Request.FetchTopic.TOPIC_ID, TOPIC_ID)
                .add(FetchApi.Request.FetchTopic.PARTITIONS)
                .set(FetchApi.Request.FetchTopic.FetchPartition.PARTITION, 3)
                .set(FetchApi.Request.FetchTopic.FetchPartition.FETCH_OFFSET, 6L)
                .set(FetchApi.Request.FetchTopic.FetchPartition.LAST_FETCHED_EPOCH, 5)
                .set(FetchApi.Request.FetchTopic.FetchPartition.CURRENT_LEADER_EPOCH, 6)
                .set(FetchApi.Request.FetchTopic.FetchPartition.PARTITION_MAX_BYTES, 1 << 20);

        Struct response = client.send(FetchApi.SPEC, (short) 16, request);

        Struct seen = broker.received.get(0).body();
        assertThat(broker.received.get(0).version()).isEqualTo((short) 16);
        assertThat(seen.get(FetchApi.Request.REPLICA_STATE).get(FetchApi.Request.ReplicaState.REPLICA_ID)).isEqualTo(2);
        assertThat(seen.get(FetchApi.Request.REPLICA_STATE).get(FetchApi.Request.ReplicaState.REPLICA_EPOCH)).isEqualTo(42L);
        Struct seenPartition = seen.get(FetchApi.Request.TOPICS).get(0).get(FetchApi.Request.FetchTopic.PARTITIONS).get(0);
        assertThat(seen.get(FetchApi.Request.TOPICS).get(0).get(FetchApi.Request.FetchTopic.TOPIC_ID)).isEqualTo(TOPIC_ID);
        assertThat(seenPartition.get(FetchApi.Request.FetchTopic.FetchPartition.FETCH_OFFSET)).isEqualTo(6L);
        assertThat(seenPartition.get(FetchApi.Request.FetchTopic.FetchPartition.LAST_FETCHED_EPOCH)).isEqualTo(5);

        Struct topic = response.get(FetchApi.Response.RESPONSES).get(0);
        assertThat(topic.get(FetchApi.Response.FetchableTopicResponse.TOPIC_ID)).isEqualTo(TOPIC_ID);
        Struct p = topic.get(FetchApi.Response.FetchableTopicResponse.PARTITIONS).get(0);
        assertThat(p.get(FetchApi.Response.FetchableTopicResponse.PartitionData.PARTITION_INDEX)).isEqualTo(3);
        assertThat(p.get(FetchApi.Response.FetchableTopicResponse.PartitionData.HIGH_WATERMARK)).isEqualTo(7L);
        assertThat(p.get(FetchApi.Response.FetchableTopicResponse.PartitionData.LOG_START_OFFSET)).isEqualTo(2L);
        Struct diverging = p.get(FetchApi.Response.FetchableTopicResponse.PartitionData.DIVERGING_EPOCH);
        assertThat(diverging.get(FetchApi.Response.FetchableTopicResponse.PartitionData.EpochEndOffset.EPOCH)).isEqualTo(4);
        assertThat(diverging.get(FetchApi.Response.FetchableTopicResponse.PartitionData.EpochEndOffset.END_OFFSET)).isEqualTo(5L);
        Records records = p.get(FetchApi.Response.FetchableTopicResponse.PartitionData.RECORDS);
        assertThat(ByteBufUtil.getBytes(((MemoryRecords) records).buffer())).isEqualTo(batchBytes);
        assertThat(ReplicaFetcher.wholeBatches(records).remaining()).isEqualTo(batchBytes.length);
    }

    @Test
    void aDroppedConnectionFailsTheRequestAndTheNextOneReconnects() throws IOException {
        broker = new TinyBroker(request -> null);
        client = new BrokerClient(broker.host(), broker.port(), "c", 5_000, 5_000);
        Struct request = ApiVersionsApi.Request.SCHEMA.newStruct();
        assertThatThrownBy(() -> client.send(ApiVersionsApi.SPEC, (short) 3, request)).isInstanceOf(IOException.class);
        assertThat(client.isConnected()).isFalse();

        broker.handler(BrokerClientTest::apiVersionsAnswer);
        assertThat(client.send(ApiVersionsApi.SPEC, (short) 3, request).get(ApiVersionsApi.Response.ERROR_CODE)).isZero();
        assertThat(client.isConnected()).isTrue();
    }

    @Test
    void closingFromAnotherThreadFailsASendBlockedOnASilentBrokerAtOnce() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            // A leader that accepts the connection and never answers; the read timeout is far away.
            client = new BrokerClient("127.0.0.1", silent.getLocalPort(), "broker-2-test", 5_000, 600_000);
            Struct request = ApiVersionsApi.Request.SCHEMA.newStruct()
                    .set(ApiVersionsApi.Request.CLIENT_SOFTWARE_NAME, "odradek")
                    .set(ApiVersionsApi.Request.CLIENT_SOFTWARE_VERSION, "1");
            CompletableFuture<Struct> sending = CompletableFuture.supplyAsync(() -> {
                try {
                    return client.send(ApiVersionsApi.SPEC, (short) 3, request);
                } catch (IOException e) {
                    throw new CompletionException(e);
                }
            });
            try (Socket accepted = silent.accept()) {
                while (!client.isConnected()) {
                    Thread.onSpinWait();
                }
                // close() does not queue behind the blocked send's monitor: it returns, and the send fails.
                CompletableFuture.runAsync(client::close).get(10, TimeUnit.SECONDS);
                assertThatThrownBy(() -> sending.get(10, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(IOException.class);
                assertThat(client.isConnected()).isFalse();
                assertThat(accepted.isConnected()).isTrue();
            }
        }
    }

    @Test
    void aHugeLengthPrefixFromThePeerIsAnIOExceptionNotAnAllocation() throws Exception {
        try (ServerSocket liar = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            client = new BrokerClient("127.0.0.1", liar.getLocalPort(), "broker-2-test", 5_000, 10_000);
            CompletableFuture<Struct> sending = CompletableFuture.supplyAsync(() -> {
                try {
                    return client.send(ApiVersionsApi.SPEC, (short) 3, ApiVersionsApi.Request.SCHEMA.newStruct());
                } catch (IOException e) {
                    throw new CompletionException(e);
                }
            });
            try (Socket accepted = liar.accept()) {
                accepted.getOutputStream().write(ByteBuffer.allocate(8).putInt(0x7fffffff).putInt(0).array());
                assertThatThrownBy(() -> sending.get(10, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(IOException.class)
                        .hasMessageContaining("response frame of 2147483647 bytes")
                        .hasMessageContaining("larger than the " + BrokerClient.MAX_RESPONSE_BYTES);
            }
            assertThat(client.isConnected()).isFalse();
        }
    }

    @Test
    void aRefusedConnectionIsAnIOException() throws IOException {
        broker = new TinyBroker(request -> null);
        int port = broker.port();
        broker.close();
        broker = null;
        client = new BrokerClient("127.0.0.1", port, "c", 1_000, 1_000);
        assertThatThrownBy(() -> client.send(ApiVersionsApi.SPEC, (short) 3, ApiVersionsApi.Request.SCHEMA.newStruct()))
                .isInstanceOf(IOException.class);
    }

    @Test
    void thePoolKeepsOneClientPerBrokerUntilItsEndpointChanges() throws IOException {
        broker = new TinyBroker(BrokerClientTest::apiVersionsAnswer);
        try (BrokerClients pool = new BrokerClients("markers", 1_000, 1_000)) {
            BrokerClient first = pool.get(3, broker.host(), broker.port());
            assertThat(pool.get(3, broker.host(), broker.port())).isSameAs(first);
            assertThat(first.send(ApiVersionsApi.SPEC, (short) 3, ApiVersionsApi.Request.SCHEMA.newStruct())
                    .get(ApiVersionsApi.Response.ERROR_CODE)).isZero();

            BrokerClient moved = pool.get(3, broker.host(), broker.port() + 1);
            assertThat(moved).isNotSameAs(first);
            assertThat(moved.port()).isEqualTo(broker.port() + 1);
            assertThatThrownBy(() -> first.send(ApiVersionsApi.SPEC, (short) 3, ApiVersionsApi.Request.SCHEMA.newStruct()))
                    .isInstanceOf(IOException.class).hasMessageContaining("closed");
        }
    }
}
