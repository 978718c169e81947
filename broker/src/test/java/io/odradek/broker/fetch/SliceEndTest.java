package io.odradek.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.log.FileSlice;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SliceEndTest {
    @TempDir
    Path dir;
    PartitionLog log;
    int batchSize;

    @BeforeEach
    void setUp() {
        log = PartitionLog.open(dir, "t", 0, LogConfig.defaults(), PartitionLog.Options.defaults());
        long now = System.currentTimeMillis();
        log.append(batch(now, "a", "b"), 0);       // 0-1
        log.append(batch(now, "c"), 0);            // 2
        batchSize = batch(now, "d", "e", "f").remaining();
        log.append(batch(now, "d", "e", "f"), 0);  // 3-5
    }

    @AfterEach
    void tearDown() {
        log.close();
    }

    @Test
    void theOffsetAfterTheLastBatchOfTheSlice() {
        assertThat(SliceEnd.nextOffset(log.read(0, 1 << 20), -1L)).isEqualTo(6L);
        assertThat(SliceEnd.nextOffset(log.read(2, 1), -1L)).isEqualTo(3L); // one whole batch
        assertThat(SliceEnd.nextOffset(log.read(1, 1), -1L)).isEqualTo(2L); // the batch holding offset 1
    }

    @Test
    void aBatchCutShortCountsWhenItsHeaderIsInTheSlice() {
        FileSlice whole = log.read(0, 1 << 20);
        FileSlice cut = new FileSlice(whole.channel(), whole.position(), whole.size() - batchSize + 30, 0L);
        assertThat(SliceEnd.nextOffset(cut, -1L)).isEqualTo(6L);
        FileSlice headerCut = new FileSlice(whole.channel(), whole.position(), whole.size() - batchSize + 10, 0L);
        assertThat(SliceEnd.nextOffset(headerCut, -1L)).isEqualTo(3L);
    }

    @Test
    void anEmptySliceEndsAtItsFirstOffset() {
        assertThat(SliceEnd.nextOffset(log.read(6, 1 << 20), -1L)).isEqualTo(6L);
    }

    private static ByteBuffer batch(long timestamp, String... values) {
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(1024), RecordBatch.MAGIC_VALUE_V2,
                Compression.NONE, TimestampType.CREATE_TIME, 0L, timestamp, RecordBatch.NO_PRODUCER_ID,
                RecordBatch.NO_PRODUCER_EPOCH, RecordBatch.NO_SEQUENCE, false, RecordBatch.NO_PARTITION_LEADER_EPOCH);
        for (String v : values) {
            b.append(new SimpleRecord(timestamp, null, v.getBytes(StandardCharsets.UTF_8)));
        }
        return b.build().buffer();
    }
}
