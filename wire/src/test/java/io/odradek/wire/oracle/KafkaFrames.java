package io.odradek.wire.oracle;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.protocol.types.RawTaggedField;

/** Request frames (without the length prefix) written by Kafka's own classes, as a client would send them. */
public final class KafkaFrames {
    private KafkaFrames() {
    }

    public static byte[] bytes(Message message, short version) {
        ByteBuffer buffer = MessageUtil.toByteBufferAccessor(message, version).buffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /** Header at {@code headerVersion} (with these unknown tagged fields if v2), then the body. */
    public static ByteBuf request(int apiKey, int version, int headerVersion, int correlationId, String clientId,
            Message body, RawTaggedField... headerTags) {
        RequestHeaderData header = new RequestHeaderData()
                .setRequestApiKey((short) apiKey)
                .setRequestApiVersion((short) version)
                .setCorrelationId(correlationId)
                .setClientId(clientId);
        for (RawTaggedField tag : headerTags) {
            header.unknownTaggedFields().add(tag);
        }
        return Unpooled.wrappedBuffer(bytes(header, (short) headerVersion), bytes(body, (short) version));
    }
}
