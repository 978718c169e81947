package io.odradek.wire.header;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.odradek.wire.oracle.KafkaFrames;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.junit.jupiter.api.Test;

/** Request headers written by Kafka's {@code RequestHeaderData}, read by ours up to their last byte. */
class RequestHeaderTest {

    private static ByteBuf kafkaHeader(int headerVersion, String clientId, RawTaggedField... tags) {
        RequestHeaderData header = new RequestHeaderData()
                .setRequestApiKey((short) 3).setRequestApiVersion((short) 12).setCorrelationId(-5).setClientId(clientId);
        for (RawTaggedField tag : tags) {
            header.unknownTaggedFields().add(tag);
        }
        ByteBuf buf = Unpooled.wrappedBuffer(KafkaFrames.bytes(header, (short) headerVersion));
        buf.skipBytes(4); // key and version: the decoder reads them first
        return buf;
    }

    @Test
    void v1CarriesTheClientIdAsAClassicString() {
        ByteBuf in = kafkaHeader(1, "rdkafka/2.0 é字");

        RequestHeader header = RequestHeader.readRest(in, (short) 3, (short) 12, (short) 1);

        assertThat(header).isEqualTo(new RequestHeader((short) 3, (short) 12, -5, "rdkafka/2.0 é字"));
        assertThat(in.readableBytes()).isZero();
    }

    @Test
    void v1ClientIdMayBeNull() {
        ByteBuf in = kafkaHeader(1, null);

        assertThat(RequestHeader.readRest(in, (short) 3, (short) 12, (short) 1).clientId()).isNull();
        assertThat(in.readableBytes()).isZero();
    }

    @Test
    void v2KeepsTheClassicClientIdAndSkipsTaggedFields() {
        ByteBuf in = kafkaHeader(2, "console-consumer",
                new RawTaggedField(0, new byte[] {42}), new RawTaggedField(1000, new byte[300]));

        RequestHeader header = RequestHeader.readRest(in, (short) 3, (short) 12, (short) 2);

        assertThat(header).isEqualTo(new RequestHeader((short) 3, (short) 12, -5, "console-consumer"));
        assertThat(in.readableBytes()).isZero();
    }
}
