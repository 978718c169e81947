package io.odradek.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsFileRegionWriterTest {

    private static byte[] drain(EmbeddedChannel channel) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuf buf;
        while ((buf = channel.readOutbound()) != null) {
            assertThat(buf.readableBytes()).isLessThanOrEqualTo(TlsFileRegionWriter.CHUNK_BYTES);
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            buf.release();
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    @Test
    void regionBecomesChunksInOrderBetweenTheBuffersAroundIt(@TempDir Path dir) throws Exception {
        byte[] file = new byte[100_000];
        new Random(1).nextBytes(file);
        Path path = dir.resolve("segment.log");
        Files.write(path, file);
        EmbeddedChannel channel = new EmbeddedChannel(new TlsFileRegionWriter());
        channel.write(Unpooled.copiedBuffer("head", StandardCharsets.US_ASCII));
        channel.write(new DefaultFileRegion(path.toFile(), 10, 70_000));
        channel.write(Unpooled.copiedBuffer("tail", StandardCharsets.US_ASCII));
        channel.flush();

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.writeBytes("head".getBytes(StandardCharsets.US_ASCII));
        expected.write(file, 10, 70_000);
        expected.writeBytes("tail".getBytes(StandardCharsets.US_ASCII));
        assertThat(drain(channel)).isEqualTo(expected.toByteArray());
        channel.finishAndReleaseAll();
    }

    @Test
    void nothingIsReadFromTheFileWhileTheChannelIsUnwritable(@TempDir Path dir) throws Exception {
        byte[] file = new byte[50_000];
        new Random(2).nextBytes(file);
        Path path = dir.resolve("segment.log");
        Files.write(path, file);
        EmbeddedChannel channel = new EmbeddedChannel(new TlsFileRegionWriter());
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        channel.write(new DefaultFileRegion(path.toFile(), 0, file.length));
        channel.write(Unpooled.copiedBuffer("next response", StandardCharsets.US_ASCII));
        channel.flush();
        assertThat(drain(channel)).isEmpty();

        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, true); // the client read: go on
        channel.runPendingTasks();
        byte[] sent = drain(channel);
        assertThat(sent).hasSize(file.length + "next response".length());
        assertThat(java.util.Arrays.copyOf(sent, file.length)).isEqualTo(file);
        channel.finishAndReleaseAll();
    }

    @Test
    void buffersPassStraightThroughWhenNoRegionIsPending() {
        EmbeddedChannel channel = new EmbeddedChannel(new TlsFileRegionWriter());
        ByteBuf buf = Unpooled.copiedBuffer("response", StandardCharsets.US_ASCII);
        channel.writeAndFlush(buf);
        ByteBuf out = channel.readOutbound();
        assertThat(out).isSameAs(buf);
        buf.release();
        channel.finishAndReleaseAll();
    }
}
