package io.odradek.wire.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.kafka.common.compress.Lz4BlockInputStream;
import org.apache.kafka.common.compress.Lz4BlockOutputStream;
import org.apache.kafka.common.utils.internals.BufferSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Our LZ4 frames against Kafka's own Lz4BlockOutputStream / Lz4BlockInputStream, both ways, with the magic-0 quirk. */
class LegacyLz4FramesTest {
    /** 200 KiB: several 64 KiB blocks, half compressible, half random (stored blocks). */
    private static byte[] content() {
        byte[] data = new byte[200 * 1024];
        new Random(7).nextBytes(data);
        for (int i = 0; i < data.length / 2; i++) {
            data[i] = (byte) (i % 13);
        }
        return data;
    }

    private static byte[] ours(byte[] data, boolean magic0) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        try (OutputStream out = LegacyLz4Frames.output(frame, magic0)) {
            int split = Math.min(1000, data.length - 1);
            out.write(data, 0, split); // bulk and single-byte writes both
            out.write(data[split]);
            out.write(data, split + 1, data.length - split - 1);
        }
        return frame.toByteArray();
    }

    private static byte[] kafkas(byte[] data, boolean magic0) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        try (OutputStream out = new Lz4BlockOutputStream(frame, 9, magic0)) {
            out.write(data);
        }
        return frame.toByteArray();
    }

    @ParameterizedTest(name = "magic 0: {0}")
    @ValueSource(booleans = {true, false})
    void kafkaReadsOurFrames(boolean magic0) throws IOException {
        byte[] data = content();
        try (InputStream in = new Lz4BlockInputStream(ByteBuffer.wrap(ours(data, magic0)), BufferSupplier.NO_CACHING, magic0)) {
            assertThat(in.readAllBytes()).isEqualTo(data);
        }
    }

    @ParameterizedTest(name = "magic 0: {0}")
    @ValueSource(booleans = {true, false})
    void weReadKafkasFrames(boolean magic0) throws IOException {
        byte[] data = content();
        try (InputStream in = LegacyLz4Frames.input(ByteBuffer.wrap(kafkas(data, magic0)), magic0)) {
            assertThat(in.readAllBytes()).isEqualTo(data);
        }
    }

    @ParameterizedTest(name = "magic 0: {0}")
    @ValueSource(booleans = {true, false})
    void ourHeaderChecksumIsKafkasByteForByte(boolean magic0) throws IOException {
        byte[] data = {1, 2, 3};
        assertThat(ours(data, magic0)).startsWith(java.util.Arrays.copyOf(kafkas(data, magic0), 7));
    }

    @ParameterizedTest(name = "magic 0: {0}")
    @ValueSource(booleans = {true, false})
    void theOldHeaderChecksumPassesOnlyForMagic0(boolean magic0) throws IOException {
        byte[] oldStyle = kafkas(new byte[] {1, 2, 3}, true);
        if (magic0) {
            try (InputStream in = LegacyLz4Frames.input(ByteBuffer.wrap(oldStyle), true)) {
                assertThat(in.readAllBytes()).containsExactly(1, 2, 3);
            }
        } else {
            assertThatThrownBy(() -> LegacyLz4Frames.input(ByteBuffer.wrap(oldStyle), false))
                    .isInstanceOf(IOException.class).hasMessageContaining("descriptor");
        }
    }
}
