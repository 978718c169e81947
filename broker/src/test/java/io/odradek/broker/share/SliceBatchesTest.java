package io.odradek.broker.share;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.share.partition.LogBatch;
import io.odradek.log.FileSlice;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SliceBatchesTest {
    @TempDir
    Path dir;

    @Test
    void findsEachWholeBatchFromItsHeaderAndLeavesOutOneCutOffByTheSlice() throws Exception {
        ByteBuffer first = batch(10, "a", "b", "c");
        ByteBuffer second = batch(13, "d");
        ByteBuffer third = batch(14, "e", "f");
        try (FileChannel file = file(first, second, third)) {
            int whole = first.remaining() + second.remaining();
            FileSlice slice = new FileSlice(file, 0, whole + third.remaining() - 5, 10);

            SliceBatches batches = SliceBatches.of(slice);

            assertThat(batches.batches()).containsExactly(new LogBatch(10, 12), new LogBatch(13, 13));
            FileSlice secondOnly = batches.trimTo(13, 13);
            assertThat(secondOnly.position()).isEqualTo(first.remaining());
            assertThat(secondOnly.size()).isEqualTo(second.remaining());
            assertThat(secondOnly.firstOffset()).isEqualTo(13);
            FileSlice both = batches.trimTo(11, 13);
            assertThat(both.position()).isZero();
            assertThat(both.size()).isEqualTo(whole);
            assertThat(both.upperBoundOffset()).isEqualTo(14);
        }
    }

    @Test
    void headersAreReadOnlyUntilTheBatchesCoverMaxRecordsFromTheNextFetchOffset() throws Exception {
        ByteBuffer first = batch(10, "a", "b", "c");
        ByteBuffer second = batch(13, "d");
        ByteBuffer third = batch(14, "e", "f");
        try (FileChannel file = file(first, second, third)) {
            FileSlice slice = new FileSlice(file, 0, first.remaining() + second.remaining() + third.remaining(), 10);

            assertThat(SliceBatches.of(slice, 11, 3).batches()).containsExactly(new LogBatch(10, 12), new LogBatch(13, 13));
            assertThat(SliceBatches.of(slice, 10, 2).batches()).containsExactly(new LogBatch(10, 12));
            assertThat(SliceBatches.of(slice, 10, 500).batches()).hasSize(3);
        }
    }

    private FileChannel file(ByteBuffer... batches) throws Exception {
        FileChannel file = FileChannel.open(dir.resolve("segment.log"), StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE);
        for (ByteBuffer b : batches) {
            file.write(b.duplicate());
        }
        return file;
    }

    private static ByteBuffer batch(long baseOffset, String... values) {
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(1024), RecordBatch.MAGIC_VALUE_V2,
                Compression.NONE, TimestampType.CREATE_TIME, baseOffset);
        for (String v : values) {
            b.append(new SimpleRecord(1L, null, v.getBytes(StandardCharsets.UTF_8)));
        }
        return b.build().buffer();
    }
}
