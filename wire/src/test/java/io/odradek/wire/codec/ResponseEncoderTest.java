package io.odradek.wire.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;
import io.odradek.wire.api.ApiVersionsApi;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData;
import io.odradek.wire.api.MetadataApi;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.WireWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Response frames written by ours, read back by Kafka's header and message classes. */
class ResponseEncoderTest {
    private static final UnpooledByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    private static Struct metadataResponse() {
        Struct r = MetadataApi.Response.SCHEMA.newStruct();
        r.set(MetadataApi.Response.THROTTLE_TIME_MS, 0);
        r.set(MetadataApi.Response.CLUSTER_ID, "odradek-cluster");
        r.set(MetadataApi.Response.CONTROLLER_ID, 1);
        r.add(MetadataApi.Response.BROKERS)
                .set(MetadataApi.Response.MetadataResponseBroker.NODE_ID, 1)
                .set(MetadataApi.Response.MetadataResponseBroker.HOST, "localhost")
                .set(MetadataApi.Response.MetadataResponseBroker.PORT, 9092);
        return r;
    }

    /** The frame as one array (a single-buffer response). */
    private static ByteBuffer single(List<Object> parts) {
        assertThat(parts).hasSize(1);
        ByteBuf buf = (ByteBuf) parts.get(0);
        ByteBuffer bytes = ByteBuffer.wrap(ByteBufUtil.getBytes(buf));
        buf.release();
        return bytes;
    }

    @Test
    void flexibleVersionHasHeaderV1AndTheRightFrameLength() {
        ByteBuffer frame = single(ResponseEncoder.encode(ALLOC, MetadataApi.SPEC, (short) 12, 1234, metadataResponse()));

        assertThat(frame.getInt()).isEqualTo(frame.remaining());
        ByteBufferAccessor in = new ByteBufferAccessor(frame);
        assertThat(new ResponseHeaderData(in, (short) 1).correlationId()).isEqualTo(1234);
        MetadataResponseData body = new MetadataResponseData(in, (short) 12);
        assertThat(frame.remaining()).isZero();
        assertThat(body.clusterId()).isEqualTo("odradek-cluster");
        assertThat(body.brokers()).singleElement().satisfies(b -> {
            assertThat(b.nodeId()).isEqualTo(1);
            assertThat(b.host()).isEqualTo("localhost");
            assertThat(b.port()).isEqualTo(9092);
            assertThat(b.rack()).isNull();
        });
    }

    @Test
    void classicVersionHasHeaderV0() {
        ByteBuffer frame = single(ResponseEncoder.encode(ALLOC, MetadataApi.SPEC, (short) 8, 99, metadataResponse()));

        assertThat(frame.getInt()).isEqualTo(frame.remaining());
        ByteBufferAccessor in = new ByteBufferAccessor(frame);
        assertThat(new ResponseHeaderData(in, (short) 0).correlationId()).isEqualTo(99);
        MetadataResponseData body = new MetadataResponseData(in, (short) 8);
        assertThat(frame.remaining()).isZero();
        assertThat(body.controllerId()).isEqualTo(1);
    }

    @Test
    void apiVersionsResponseHeaderIsV0EvenInFlexibleVersions() {
        Struct r = ApiVersionsApi.Response.SCHEMA.newStruct();
        r.add(ApiVersionsApi.Response.API_KEYS)
                .set(ApiVersionsApi.Response.ApiVersion.API_KEY, (short) 18)
                .set(ApiVersionsApi.Response.ApiVersion.MIN_VERSION, (short) 0)
                .set(ApiVersionsApi.Response.ApiVersion.MAX_VERSION, (short) 5);
        r.set(ApiVersionsApi.Response.FINALIZED_FEATURES_EPOCH, 3L);

        ByteBuffer frame = single(ResponseEncoder.encode(ALLOC, ApiVersionsApi.SPEC, (short) 4, 7, r));

        assertThat(frame.getInt()).isEqualTo(frame.remaining());
        assertThat(frame.getInt()).isEqualTo(7); // correlation id, then the body at once: no tagged fields
        ApiVersionsResponseData body = new ApiVersionsResponseData(new ByteBufferAccessor(frame), (short) 4);
        assertThat(frame.remaining()).isZero();
        assertThat(body.apiKeys()).singleElement().satisfies(k -> assertThat(k.maxVersion()).isEqualTo((short) 5));
        assertThat(body.finalizedFeaturesEpoch()).isEqualTo(3L);
    }

    /** Records that are a slice of a file, as a fetch response serves them. */
    private record FileRecords(Path file, long position, int size) implements Records {
        @Override
        public int sizeInBytes() {
            return size;
        }

        @Override
        public void writeTo(WireWriter out) {
            out.appendRegion(new DefaultFileRegion(file.toFile(), position, size));
        }
    }

    @Test
    void fileRecordsBecomeAFileRegionBetweenTwoBuffers(@TempDir Path dir) throws IOException {
        byte[] segment = new byte[4096];
        for (int i = 0; i < segment.length; i++) {
            segment[i] = (byte) (i * 31);
        }
        Path file = Files.write(dir.resolve("00000000000000000000.log"), segment);
        Struct r = FetchApi.Response.SCHEMA.newStruct();
        Struct partition = r.add(FetchApi.Response.RESPONSES)
                .set(FetchableTopicResponse.TOPIC, "orders")
                .add(FetchableTopicResponse.PARTITIONS)
                .set(PartitionData.PARTITION_INDEX, 3)
                .set(PartitionData.HIGH_WATERMARK, 500L)
                .set(PartitionData.RECORDS, new FileRecords(file, 100, 1000));

        List<Object> parts = ResponseEncoder.encode(ALLOC, FetchApi.SPEC, (short) 12, 8, r);

        assertThat(parts).hasSize(3);
        assertThat(parts.get(0)).isInstanceOf(ByteBuf.class);
        assertThat(parts.get(1)).isInstanceOf(FileRegion.class);
        assertThat(parts.get(2)).isInstanceOf(ByteBuf.class);
        ByteBuf head = (ByteBuf) parts.get(0);
        FileRegion region = (FileRegion) parts.get(1);
        ByteBuf tail = (ByteBuf) parts.get(2);
        assertThat(region.position()).isEqualTo(100);
        assertThat(region.count()).isEqualTo(1000);
        long total = head.readableBytes() + region.count() + tail.readableBytes();
        assertThat((long) head.getInt(0)).isEqualTo(total - 4);

        // What the socket would carry, read back by Kafka.
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.write(ByteBufUtil.getBytes(head));
        wire.write(segment, 100, 1000);
        wire.write(ByteBufUtil.getBytes(tail));
        ByteBuffer frame = ByteBuffer.wrap(wire.toByteArray());
        frame.getInt();
        ByteBufferAccessor in = new ByteBufferAccessor(frame);
        assertThat(new ResponseHeaderData(in, (short) 1).correlationId()).isEqualTo(8);
        FetchResponseData body = new FetchResponseData(in, (short) 12);
        assertThat(frame.remaining()).isZero();
        FetchResponseData.PartitionData kafkaPartition = body.responses().get(0).partitions().get(0);
        assertThat(kafkaPartition.partitionIndex()).isEqualTo(3);
        assertThat(kafkaPartition.highWatermark()).isEqualTo(500L);
        ByteBuffer records = ((org.apache.kafka.common.record.internal.MemoryRecords) kafkaPartition.records()).buffer();
        byte[] recordBytes = new byte[records.remaining()];
        records.get(recordBytes);
        assertThat(recordBytes).isEqualTo(java.util.Arrays.copyOfRange(segment, 100, 1100));
        assertThat(partition.get(PartitionData.RECORDS).sizeInBytes()).isEqualTo(1000);

        head.release();
        region.release();
        tail.release();
    }
}
