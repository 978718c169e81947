package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Malformed and hostile bytes on a plain socket: the broker closes that connection (or, for a bad batch,
 * answers with the partition error), and a second, well-behaved client connected alongside keeps working.
 */
class RawSocketTest {
    private static final int MAX_REQUEST_BYTES = 1024 * 1024;

    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withConfig(Map.of(
            "socket.request.max.bytes", Integer.toString(MAX_REQUEST_BYTES)));

    private RawConnection bystander;

    @BeforeEach
    void connectAWellBehavedClient() throws IOException {
        bystander = new RawConnection(BROKER.port());
        assertThat(bystander.apiVersions()).isEqualTo(Errors.NONE.code());
    }

    @AfterEach
    void wellBehavedClientsStillGetAnswers() throws IOException {
        try (RawConnection fresh = new RawConnection(BROKER.port())) {
            assertThat(bystander.apiVersions()).as("the client connected before").isEqualTo(Errors.NONE.code());
            assertThat(fresh.apiVersions()).as("a client connecting after").isEqualTo(Errors.NONE.code());
        } finally {
            bystander.close();
        }
    }

    @Test
    void frameWithANegativeLengthClosesTheConnection() throws IOException {
        try (RawConnection bad = new RawConnection(BROKER.port())) {
            bad.sendRaw(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xf0, 0, 18, 0, 3});
            assertThat(bad.closedByBroker()).isTrue();
        }
    }

    @Test
    void frameLongerThanSocketRequestMaxBytesIsRefusedBeforeItArrives() throws IOException {
        try (RawConnection bad = new RawConnection(BROKER.port())) {
            // Claims 64 MB but sends only the first kilobyte: the broker must not wait for (or buffer) the rest.
            ByteBuffer start = ByteBuffer.allocate(4 + 1024).putInt(64 * 1024 * 1024).putShort((short) 0)
                    .putShort((short) 9);
            bad.sendRaw(start.array());
            assertThat(bad.closedByBroker()).isTrue();
        }
    }

    @Test
    void frameJustOverTheLimitIsRefused() throws IOException {
        try (RawConnection bad = new RawConnection(BROKER.port())) {
            bad.sendRaw(ByteBuffer.allocate(4).putInt(MAX_REQUEST_BYTES + 1).array());
            assertThat(bad.closedByBroker()).isTrue();
        }
    }

    @Test
    void frameTooShortForARequestHeaderClosesTheConnection() throws IOException {
        try (RawConnection bad = new RawConnection(BROKER.port())) {
            bad.sendFrame(new byte[] {0, 18, 0}); // api key and half a version
            assertThat(bad.closedByBroker()).isTrue();
        }
    }

    @Test
    void headerWhoseClientIdRunsPastTheFrameClosesTheConnection() throws IOException {
        try (RawConnection bad = new RawConnection(BROKER.port())) {
            ByteBuffer frame = ByteBuffer.allocate(12).putShort((short) 18).putShort((short) 2).putInt(7)
                    .putShort((short) 100).put("ab".getBytes(StandardCharsets.US_ASCII));
            bad.sendFrame(frame.array());
            assertThat(bad.closedByBroker()).isTrue();
        }
    }

    @Test
    void unknownApiKeyClosesTheConnection() throws IOException {
        try (RawConnection bad = new RawConnection(BROKER.port())) {
            bad.sendFrame(header((short) 9999, (short) 0, false).toByteArray());
            assertThat(bad.closedByBroker()).isTrue();
        }
    }

    @Test
    void unsupportedVersionOfAnotherApiClosesTheConnection() throws IOException {
        try (RawConnection bad = new RawConnection(BROKER.port())) {
            bad.sendFrame(header(ApiKeys.METADATA.id, (short) 999, true).toByteArray());
            assertThat(bad.closedByBroker()).isTrue();
        }
    }

    @Test
    void apiVersionsFromTheFutureGetsAVersionZeroAnswerWithUnsupportedVersionAndOurApis() throws IOException {
        try (RawConnection client = new RawConnection(BROKER.port())) {
            int correlationId = RawConnection.nextCorrelationId();
            ByteArrayOutputStream request = header(ApiKeys.API_VERSIONS.id, (short) 127, true, correlationId);
            request.write(new byte[] {5, 'n', 'e', 'x', 't', 2, '9', 0}); // a body we cannot know; tagged fields
            client.sendFrame(request.toByteArray());

            ByteBuffer answer = ByteBuffer.wrap(client.readFrame());
            assertThat(answer.getInt()).as("correlation id (response header v0)").isEqualTo(correlationId);
            ApiVersionsResponseData v0 = new ApiVersionsResponseData(new ByteBufferAccessor(answer), (short) 0);
            assertThat(answer.remaining()).as("bytes after the v0 body").isZero();
            assertThat(v0.errorCode()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());

            ApiVersionsResponseData regular = client.roundTrip(new ApiVersionsRequest.Builder().build((short) 3),
                    ApiVersionsResponse.class).data();
            assertThat(ranges(v0)).isEqualTo(ranges(regular)).contains("18:0-5");
        }
    }

    @Test
    void produceOfABatchWithAFlippedCrcFailsWithCorruptMessageAndAppendsNothing() throws IOException {
        String topic = "raw-produce";
        BROKER.createTopic(topic, 1);
        try (RawConnection client = new RawConnection(BROKER.port())) {
            ByteBuffer corrupt = batch("bad-1", "bad-2", "bad-3");
            int crcPosition = 17; // base offset 8, length 4, leader epoch 4, magic 1
            corrupt.put(crcPosition, (byte) (corrupt.get(crcPosition) ^ 0x01));

            ProduceResponseData.PartitionProduceResponse rejected = client.produce(topic, 0, corrupt);
            assertThat(Errors.forCode(rejected.errorCode())).isEqualTo(Errors.CORRUPT_MESSAGE);

            ProduceResponseData.PartitionProduceResponse accepted = client.produce(topic, 0, batch("good-1", "good-2"));
            assertThat(Errors.forCode(accepted.errorCode())).isEqualTo(Errors.NONE);
            assertThat(accepted.baseOffset()).isZero();
        }
        List<ConsumerRecord<String, String>> records = Clients.readAll(Clients.consumer(BROKER, Map.of()),
                Clients.partitions(topic, 1), Duration.ofSeconds(30));
        assertThat(records).extracting(ConsumerRecord::value).containsExactly("good-1", "good-2");
    }

    /** One uncompressed v2 batch, as a producer without idempotence would write it. */
    private static ByteBuffer batch(String... values) {
        SimpleRecord[] records = java.util.Arrays.stream(values)
                .map(v -> new SimpleRecord(v.getBytes(StandardCharsets.UTF_8))).toArray(SimpleRecord[]::new);
        MemoryRecords memory = MemoryRecords.withRecords(Compression.NONE, records);
        ByteBuffer copy = ByteBuffer.allocate(memory.sizeInBytes());
        copy.put(memory.buffer().duplicate()).flip();
        return copy;
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrderEvenWhenTheFirstWaits() throws IOException {
        String topic = "pipelined";
        BROKER.createTopic(topic, 1);
        try (RawConnection client = new RawConnection(BROKER.port())) {
            // A fetch on an empty partition waits up to max_wait_ms; the requests behind it answer at once,
            // but their responses must still follow its own.
            int maxWaitMs = 1_000;
            RequestHeader fetch = client.send(FetchRequest.Builder.forConsumer((short) 12, maxWaitMs, 1,
                    Map.of(new TopicPartition(topic, 0), new FetchRequest.PartitionData(Uuid.ZERO_UUID, 0, 0,
                            1024 * 1024, Optional.empty()))).build((short) 12));
            RequestHeader versions = client.send(new ApiVersionsRequest.Builder().build((short) 3));
            RequestHeader metadata = client.send(new MetadataRequest.Builder(List.of(topic), false).build((short) 12));
            long sent = System.nanoTime();

            FetchResponse fetched = client.receive(fetch, FetchResponse.class);
            long waitedMs = (System.nanoTime() - sent) / 1_000_000;
            ApiVersionsResponse apis = client.receive(versions, ApiVersionsResponse.class);
            MetadataResponse described = client.receive(metadata, MetadataResponse.class);

            assertThat(fetched.error()).isEqualTo(Errors.NONE);
            assertThat(fetched.data().responses()).flatExtracting(t -> t.partitions())
                    .extracting(p -> p.errorCode() + " hw " + p.highWatermark()).containsExactly("0 hw 0");
            assertThat(waitedMs).as("the fetch waited for data").isGreaterThanOrEqualTo(maxWaitMs - 100);
            assertThat(apis.data().errorCode()).isZero();
            assertThat(described.topicMetadata()).extracting(t -> t.topic() + " " + t.error())
                    .containsExactly(topic + " NONE");
        }
    }

    private static Set<String> ranges(ApiVersionsResponseData data) {
        return data.apiKeys().stream()
                .map(k -> k.apiKey() + ":" + k.minVersion() + "-" + k.maxVersion()).collect(Collectors.toSet());
    }

    private static ByteArrayOutputStream header(short apiKey, short version, boolean flexible) throws IOException {
        return header(apiKey, version, flexible, RawConnection.nextCorrelationId());
    }

    /** A request header by hand: v2 (with an empty tagged-field section) when flexible, else v1. */
    private static ByteArrayOutputStream header(short apiKey, short version, boolean flexible, int correlationId)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeShort(apiKey);
        out.writeShort(version);
        out.writeInt(correlationId);
        out.writeShort(3);
        out.writeBytes("raw");
        if (flexible) {
            out.writeByte(0);
        }
        out.flush();
        return bytes;
    }
}
