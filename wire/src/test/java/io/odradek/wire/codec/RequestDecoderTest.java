package io.odradek.wire.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.odradek.wire.api.ApiVersionsApi;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.MetadataApi;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.oracle.KafkaFrames;
import io.odradek.wire.schema.MalformedMessageException;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.Test;

/** Frames written by Kafka's own request classes, decoded by ours. */
class RequestDecoderTest {
    private static final byte[] RECORDS = "not really a batch, but the codec never looks".getBytes(StandardCharsets.UTF_8);

    private static ProduceRequestData produce() {
        return new ProduceRequestData()
                .setTransactionalId(null)
                .setAcks((short) -1)
                .setTimeoutMs(30_000)
                .setTopicData(new ProduceRequestData.TopicProduceDataCollection(List.of(
                        new ProduceRequestData.TopicProduceData()
                                .setName("orders")
                                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData()
                                        .setIndex(2)
                                        .setRecords(MemoryRecords.readableRecords(ByteBuffer.wrap(RECORDS))))))));
    }

    private static MetadataRequestData metadata(String... topics) {
        return new MetadataRequestData().setTopics(java.util.Arrays.stream(topics)
                .map(t -> new MetadataRequestData.MetadataRequestTopic().setName(t)).toList());
    }

    @Test
    void flexibleRequestHasHeaderV2WhoseTaggedFieldsAreSkipped() {
        ByteBuf frame = KafkaFrames.request(0, 9, 2, 77, "odradek-test", produce(),
                new RawTaggedField(3, new byte[] {1, 2, 3}), new RawTaggedField(40, new byte[200]));

        Request request = RequestDecoder.decode(frame);

        assertThat(request.api()).isEqualTo(ProduceApi.SPEC);
        assertThat(request.header().apiKey()).isEqualTo((short) 0);
        assertThat(request.version()).isEqualTo((short) 9);
        assertThat(request.header().correlationId()).isEqualTo(77);
        assertThat(request.header().clientId()).isEqualTo("odradek-test");
        Struct body = request.body();
        assertThat(body.get(ProduceApi.Request.ACKS)).isEqualTo((short) -1);
        assertThat(body.get(ProduceApi.Request.TIMEOUT_MS)).isEqualTo(30_000);
        assertThat(body.get(ProduceApi.Request.TRANSACTIONAL_ID)).isNull();
        Struct topic = body.get(ProduceApi.Request.TOPIC_DATA).get(0);
        assertThat(topic.get(ProduceApi.Request.TopicProduceData.NAME)).isEqualTo("orders");
        Struct partition = topic.get(ProduceApi.Request.TopicProduceData.PARTITION_DATA).get(0);
        assertThat(partition.get(ProduceApi.Request.TopicProduceData.PartitionProduceData.INDEX)).isEqualTo(2);
        io.odradek.wire.schema.MemoryRecords records = (io.odradek.wire.schema.MemoryRecords)
                partition.get(ProduceApi.Request.TopicProduceData.PartitionProduceData.RECORDS);
        assertThat(ByteBufUtil.getBytes(records.buffer())).isEqualTo(RECORDS);
        assertThat(frame.readableBytes()).isZero();
    }

    @Test
    void classicRequestHasHeaderV1WithNullableClientId() {
        Request named = RequestDecoder.decode(KafkaFrames.request(3, 8, 1, 5, "kafkajs", metadata("a", "b")));
        Request anonymous = RequestDecoder.decode(KafkaFrames.request(3, 8, 1, 6, null, metadata()));

        assertThat(named.header().clientId()).isEqualTo("kafkajs");
        assertThat(named.body().get(MetadataApi.Request.TOPICS))
                .extracting(t -> t.get(MetadataApi.Request.MetadataRequestTopic.NAME))
                .containsExactly("a", "b");
        assertThat(anonymous.header().clientId()).isNull();
        assertThat(anonymous.header().correlationId()).isEqualTo(6);
        assertThat(anonymous.body().get(MetadataApi.Request.TOPICS)).isEmpty();
    }

    @Test
    void unknownApiKeyIsUnsupported() {
        for (int key : new int[] {4, 56, 1000, -1}) {
            ByteBuf frame = Unpooled.buffer().writeShort(key).writeShort(0).writeInt(1).writeShort(-1);
            assertThatThrownBy(() -> RequestDecoder.decode(frame))
                    .isInstanceOf(UnsupportedRequestException.class)
                    .hasMessageContaining("unknown API key " + key);
        }
    }

    @Test
    void versionOutsideTheRangeIsUnsupported() {
        // Produce v14 does not exist yet; every table now starts at v0 (Kafka 3.9's minimums), so below is negative.
        for (int version : new int[] {14, -1}) {
            ByteBuf frame = Unpooled.buffer().writeShort(0).writeShort(version).writeInt(1).writeShort(-1).writeInt(0);
            assertThatThrownBy(() -> RequestDecoder.decode(frame))
                    .isInstanceOf(UnsupportedRequestException.class)
                    .hasMessageContaining("unsupported version " + version + " of Produce");
        }
    }

    @Test
    void apiVersionsNewerThanOursIsDecodedWithoutBody() {
        // A future client's body may have fields we do not know; only the v2 header is read.
        ByteBuf frame = Unpooled.wrappedBuffer(
                KafkaFrames.request(18, 5, 2, 41, "future-client", new ApiVersionsRequestData()
                        .setClientSoftwareName("java").setClientSoftwareVersion("9.0")),
                Unpooled.wrappedBuffer(new byte[] {9, 9, 9}));
        frame.setShort(2, 7);

        Request request = RequestDecoder.decode(frame);

        assertThat(request.api()).isEqualTo(ApiVersionsApi.SPEC);
        assertThat(request.body()).isNull();
        assertThat(request.version()).isEqualTo((short) 7);
        assertThat(request.header().correlationId()).isEqualTo(41);
        assertThat(request.header().clientId()).isEqualTo("future-client");
    }

    @Test
    void everyTruncationOfAFrameIsMalformed() {
        List<ByteBuf> frames = List.of(
                KafkaFrames.request(0, 9, 2, 1, "c", produce(), new RawTaggedField(1, new byte[] {7})),
                KafkaFrames.request(0, 8, 1, 1, "c", produce()),
                KafkaFrames.request(1, 13, 2, 1, "c", new FetchRequestData()
                        .setMaxWaitMs(500)
                        .setClusterId("cluster")
                        .setTopics(List.of(new FetchRequestData.FetchTopic()
                                .setTopicId(Uuid.randomUuid())
                                .setPartitions(List.of(new FetchRequestData.FetchPartition()
                                        .setPartition(0).setFetchOffset(42)))))),
                KafkaFrames.request(3, 12, 2, 1, "c", metadata("x", "y")));
        for (ByteBuf frame : frames) {
            byte[] whole = ByteBufUtil.getBytes(frame);
            assertThat(RequestDecoder.decode(Unpooled.wrappedBuffer(whole)).body()).isNotNull();
            for (int length = 0; length < whole.length; length++) {
                ByteBuf truncated = Unpooled.wrappedBuffer(whole, 0, length);
                assertThatThrownBy(() -> RequestDecoder.decode(truncated))
                        .as("frame cut to %d of %d bytes", length, whole.length)
                        .isInstanceOf(MalformedMessageException.class);
            }
        }
    }

    @Test
    void arrayCountBeyondTheBytesLeftIsMalformed() {
        // Metadata v4: a topic count of 2^31-1 with four bytes behind it must not allocate that many slots.
        ByteBuf classic = Unpooled.buffer().writeShort(3).writeShort(4).writeInt(1).writeShort(-1)
                .writeInt(Integer.MAX_VALUE).writeInt(0);
        assertThatThrownBy(() -> RequestDecoder.decode(classic))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("2147483647");

        // Metadata v12: the compact count 0x7ffffff0 - 1, as an unsigned varint.
        ByteBuf compact = Unpooled.buffer().writeShort(3).writeShort(12).writeInt(1).writeShort(-1).writeByte(0)
                .writeBytes(new byte[] {(byte) 0xf0, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07}).writeInt(0);
        assertThatThrownBy(() -> RequestDecoder.decode(compact))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("2147483631");
    }

    @Test
    void stringLengthBeyondTheBytesLeftIsMalformed() {
        ByteBuf frame = Unpooled.buffer().writeShort(3).writeShort(4).writeInt(1).writeShort(-1)
                .writeInt(1).writeShort(5000).writeBytes("abc".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> RequestDecoder.decode(frame))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("5000");
    }

    @Test
    void nullWhereTheVersionForbidsItIsMalformed() {
        // Metadata topics may be null (all topics) from v1 only; topic names from v10 only.
        ByteBuf nullTopics = Unpooled.buffer().writeShort(3).writeShort(0).writeInt(1).writeShort(-1).writeInt(-1);
        assertThatThrownBy(() -> RequestDecoder.decode(nullTopics))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("Topics");
        ByteBuf nullName = Unpooled.buffer().writeShort(3).writeShort(4).writeInt(1).writeShort(-1)
                .writeInt(1).writeShort(-1).writeByte(1);
        assertThatThrownBy(() -> RequestDecoder.decode(nullName))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("Name");
    }

    @Test
    void nullElementOfAStringArrayIsMalformed() {
        // DeleteTopics v3: topic_names is a []string; Kafka has no nullable array elements.
        ByteBuf frame = Unpooled.buffer().writeShort(20).writeShort(3).writeInt(1).writeShort(-1)
                .writeInt(2).writeShort(1).writeByte('a').writeShort(-1).writeInt(1000);
        assertThatThrownBy(() -> RequestDecoder.decode(frame))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("null element");
    }

    @Test
    void overlongVarintIsMalformed() {
        ByteBuf frame = Unpooled.buffer().writeShort(3).writeShort(12).writeInt(1).writeShort(-1).writeByte(0)
                .writeBytes(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01});
        assertThatThrownBy(() -> RequestDecoder.decode(frame)).isInstanceOf(MalformedMessageException.class);
    }

    @Test
    void fetchV12ByNameAndV13ByTopicId() {
        Uuid id = Uuid.randomUuid();
        FetchRequestData data = new FetchRequestData().setTopics(List.of(new FetchRequestData.FetchTopic()
                .setTopic("orders").setTopicId(id)
                .setPartitions(List.of(new FetchRequestData.FetchPartition().setPartition(1).setFetchOffset(7)))));

        Struct v12 = RequestDecoder.decode(KafkaFrames.request(1, 12, 2, 1, "c", data)).body()
                .get(FetchApi.Request.TOPICS).get(0);
        Struct v13 = RequestDecoder.decode(KafkaFrames.request(1, 13, 2, 1, "c", data)).body()
                .get(FetchApi.Request.TOPICS).get(0);

        assertThat(v12.get(FetchApi.Request.FetchTopic.TOPIC)).isEqualTo("orders");
        assertThat(v12.get(FetchApi.Request.FetchTopic.TOPIC_ID)).isEqualTo(new java.util.UUID(0, 0));
        assertThat(v13.get(FetchApi.Request.FetchTopic.TOPIC)).isEmpty();
        assertThat(v13.get(FetchApi.Request.FetchTopic.TOPIC_ID))
                .isEqualTo(new java.util.UUID(id.getMostSignificantBits(), id.getLeastSignificantBits()));
        assertThat(v13.get(FetchApi.Request.FetchTopic.PARTITIONS).get(0)
                .get(FetchApi.Request.FetchTopic.FetchPartition.FETCH_OFFSET)).isEqualTo(7L);
    }
}
