package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.codec.Request;
import io.odradek.wire.codec.RequestDecoder;
import io.odradek.wire.codec.ResponseEncoder;
import io.odradek.wire.schema.Struct;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A request and its answer as they cross the network, for old protocol versions whose bytes the tests write
 * and read by hand (Kafka 4.4's classes on the test classpath no longer speak them): the request frame is
 * decoded by our {@link RequestDecoder}, the response encoded by our {@link ResponseEncoder}, and the test
 * reads the body bytes a client would.
 */
final class WireRoundTrip {
    private static final int CORRELATION_ID = 4242;

    private WireRoundTrip() {
    }

    /** Our decoder's reading of a frame: request header v1 (v2 if flexible) with a client id, then {@code body}. */
    static Struct decodeRequest(ApiSpec api, int version, byte[] body) {
        byte[] clientId = "old-client".getBytes(StandardCharsets.UTF_8);
        ByteBuf frame = Unpooled.buffer().writeShort(api.key()).writeShort(version).writeInt(CORRELATION_ID)
                .writeShort(clientId.length).writeBytes(clientId);
        if (api.isFlexible((short) version)) {
            frame.writeByte(0); // no tagged fields in the header
        }
        frame.writeBytes(body);
        Request request = RequestDecoder.decode(frame);
        assertThat(request.api()).isEqualTo(api);
        assertThat(request.version()).isEqualTo((short) version);
        assertThat(frame.readableBytes()).as("bytes our decoder left unread").isZero();
        return request.body();
    }

    /** The body of the response frame our encoder writes, positioned after the response header. */
    static ByteBuffer responseBody(ApiSpec api, int version, Struct response) {
        List<Object> parts = ResponseEncoder.encode(UnpooledByteBufAllocator.DEFAULT, api, (short) version,
                CORRELATION_ID, response);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            ByteBuf buf = (ByteBuf) part;
            try {
                buf.readBytes(out, buf.readableBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                buf.release();
            }
        }
        ByteBuffer frame = ByteBuffer.wrap(out.toByteArray());
        assertThat(frame.getInt()).as("frame length").isEqualTo(frame.remaining());
        assertThat(frame.getInt()).as("correlation id").isEqualTo(CORRELATION_ID);
        if (api.responseHeaderVersion((short) version) == 1) {
            assertThat(frame.get()).as("header tagged fields").isZero();
        }
        return frame;
    }

    static String string(ByteBuffer in) {
        byte[] bytes = new byte[in.getShort()];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The big-endian, non-flexible encodings an old client writes. */
    static final class Body {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final DataOutputStream out = new DataOutputStream(bytes);

        Body int8(int v) {
            return write(() -> out.writeByte(v));
        }

        Body int16(int v) {
            return write(() -> out.writeShort(v));
        }

        Body int32(int v) {
            return write(() -> out.writeInt(v));
        }

        Body int64(long v) {
            return write(() -> out.writeLong(v));
        }

        Body bool(boolean v) {
            return write(() -> out.writeBoolean(v));
        }

        Body string(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            return write(() -> {
                out.writeShort(utf8.length);
                out.write(utf8);
            });
        }

        /** An array of int32s: its length, then each. */
        Body int32s(int... values) {
            int32(values.length);
            for (int v : values) {
                int32(v);
            }
            return this;
        }

        byte[] toArray() {
            return bytes.toByteArray();
        }

        private Body write(IoAction action) {
            try {
                action.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        private interface IoAction {
            void run() throws IOException;
        }
    }

    /** Every int64 of an int32-counted array. */
    static List<Long> int64s(ByteBuffer in) {
        int n = in.getInt();
        List<Long> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(in.getLong());
        }
        return out;
    }
}
