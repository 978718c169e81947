package io.odradek.wire.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class RecordBatchHeaderTest {

    private static MemoryRecords idempotentBatch(long baseOffset, int baseSequence, Compression compression,
                                                 TimestampType timestampType, boolean transactional) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(1024), RecordBatch.MAGIC_VALUE_V2,
                compression, timestampType, baseOffset, 1_000L, 4242L, (short) 7, baseSequence, transactional, 5);
        builder.append(new SimpleRecord(1_000L, "k0".getBytes(), "v0".getBytes()));
        builder.append(new SimpleRecord(3_000L, "k1".getBytes(), "v1".getBytes()));
        builder.append(new SimpleRecord(2_000L, "k2".getBytes(), "v2".getBytes()));
        return builder.build();
    }

    private static void assertSameAsKafka(RecordBatchHeader header, DefaultRecordBatch kafka) {
        assertThat(header.baseOffset()).isEqualTo(kafka.baseOffset());
        assertThat(header.lastOffset()).isEqualTo(kafka.lastOffset());
        assertThat(header.lastOffsetDelta()).isEqualTo((int) (kafka.lastOffset() - kafka.baseOffset()));
        assertThat(header.totalSize()).isEqualTo(kafka.sizeInBytes());
        assertThat(header.partitionLeaderEpoch()).isEqualTo(kafka.partitionLeaderEpoch());
        assertThat(header.magic()).isEqualTo(kafka.magic());
        assertThat(header.crc()).isEqualTo(kafka.checksum());
        assertThat(header.compressionType()).isEqualTo(kafka.compressionType().id);
        assertThat(header.isLogAppendTime()).isEqualTo(kafka.timestampType() == TimestampType.LOG_APPEND_TIME);
        assertThat(header.isTransactional()).isEqualTo(kafka.isTransactional());
        assertThat(header.isControlBatch()).isEqualTo(kafka.isControlBatch());
        assertThat(header.hasDeleteHorizonMs()).isEqualTo(kafka.deleteHorizonMs().isPresent());
        assertThat(header.baseTimestamp()).isEqualTo(kafka.baseTimestamp());
        assertThat(header.maxTimestamp()).isEqualTo(kafka.maxTimestamp());
        assertThat(header.producerId()).isEqualTo(kafka.producerId());
        assertThat(header.producerEpoch()).isEqualTo(kafka.producerEpoch());
        assertThat(header.baseSequence()).isEqualTo(kafka.baseSequence());
        assertThat(header.lastSequence()).isEqualTo(kafka.lastSequence());
        assertThat(header.recordsCount()).isEqualTo(kafka.countOrNull());
        assertThat(header.computeCrc()).isEqualTo(kafka.checksum());
        assertThat(header.isValidCrc()).isTrue();
    }

    @Test
    void everyGetterMatchesKafkasOwnReading() {
        MemoryRecords records = idempotentBatch(100L, 17, Compression.NONE, TimestampType.CREATE_TIME, false);
        DefaultRecordBatch kafka = (DefaultRecordBatch) records.batches().iterator().next();

        assertSameAsKafka(new RecordBatchHeader(records.buffer(), 0), kafka);
        assertThat(new RecordBatchHeader(records.buffer(), 0).maxTimestamp()).isEqualTo(3_000L);
    }

    @Test
    void compressedTransactionalLogAppendTimeBatchMatchesKafka() {
        MemoryRecords records = idempotentBatch(0L, 0, Compression.gzip().build(), TimestampType.LOG_APPEND_TIME, true);
        DefaultRecordBatch kafka = (DefaultRecordBatch) records.batches().iterator().next();

        RecordBatchHeader header = new RecordBatchHeader(records.buffer(), 0);
        assertSameAsKafka(header, kafka);
        assertThat(header.compressionType()).isEqualTo(1);
        assertThat(header.isTransactional()).isTrue();
    }

    @Test
    void viewAtANonZeroPositionLeavesTheBufferPositionAlone() {
        MemoryRecords records = idempotentBatch(5L, 0, Compression.NONE, TimestampType.CREATE_TIME, false);
        int size = records.sizeInBytes();
        ByteBuffer buffer = ByteBuffer.allocate(size + 30);
        buffer.position(30);
        buffer.put(records.buffer().duplicate());
        buffer.position(3);

        RecordBatchHeader header = new RecordBatchHeader(buffer, 30);
        assertThat(header.isValidCrc()).isTrue();
        assertThat(header.baseOffset()).isEqualTo(5L);
        assertThat(buffer.position()).isEqualTo(3);
        assertThat(buffer.limit()).isEqualTo(size + 30);
    }

    @Test
    void lastSequenceWrapsAroundLikeKafka() {
        MemoryRecords records = idempotentBatch(0L, Integer.MAX_VALUE - 1, Compression.NONE,
                TimestampType.CREATE_TIME, false);
        DefaultRecordBatch kafka = (DefaultRecordBatch) records.batches().iterator().next();

        RecordBatchHeader header = new RecordBatchHeader(records.buffer(), 0);
        assertThat(header.lastSequence()).isEqualTo(kafka.lastSequence()).isEqualTo(0);
    }

    @Test
    void stampingOffsetAndEpochKeepsTheBatchValidForKafka() {
        MemoryRecords records = idempotentBatch(0L, 0, Compression.NONE, TimestampType.CREATE_TIME, false);
        RecordBatchHeader header = new RecordBatchHeader(records.buffer(), 0);

        header.setBaseOffset(123_456_789_012L);
        header.setPartitionLeaderEpoch(9);

        MemoryRecords reread = MemoryRecords.readableRecords(records.buffer().duplicate());
        DefaultRecordBatch kafka = (DefaultRecordBatch) reread.batches().iterator().next();
        kafka.ensureValid();
        assertThat(kafka.baseOffset()).isEqualTo(123_456_789_012L);
        assertThat(kafka.lastOffset()).isEqualTo(123_456_789_014L);
        assertThat(kafka.partitionLeaderEpoch()).isEqualTo(9);
        assertThat(header.isValidCrc()).isTrue();
    }

    @Test
    void flippedByteInTheRecordsFailsTheCrc() {
        MemoryRecords records = idempotentBatch(0L, 0, Compression.NONE, TimestampType.CREATE_TIME, false);
        ByteBuffer buffer = records.buffer();
        int last = buffer.limit() - 1;
        buffer.put(last, (byte) (buffer.get(last) ^ 0x01));

        assertThat(new RecordBatchHeader(buffer, 0).isValidCrc()).isFalse();
    }

    @Test
    void wrapWalksConsecutiveBatches() {
        ByteBuffer buffer = ByteBuffer.allocate(2048);
        MemoryRecords first = idempotentBatch(0L, 0, Compression.NONE, TimestampType.CREATE_TIME, false);
        MemoryRecords second = idempotentBatch(3L, 3, Compression.NONE, TimestampType.CREATE_TIME, false);
        buffer.put(first.buffer().duplicate()).put(second.buffer().duplicate()).flip();

        RecordBatchHeader header = new RecordBatchHeader(buffer, 0);
        assertThat(header.baseSequence()).isEqualTo(0);
        header.wrap(buffer, header.totalSize());
        assertThat(header.baseOffset()).isEqualTo(3L);
        assertThat(header.baseSequence()).isEqualTo(3);
        assertThat(header.position() + header.totalSize()).isEqualTo(buffer.limit());
    }

    @Test
    void logAppendTimeStampingKeepsTheBatchValidForKafka() {
        MemoryRecords records = idempotentBatch(0L, 0, Compression.NONE, TimestampType.CREATE_TIME, false);
        new RecordBatchHeader(records.buffer(), 0).setLogAppendTime(9_999L);

        DefaultRecordBatch kafka = (DefaultRecordBatch) MemoryRecords.readableRecords(records.buffer().duplicate())
                .batches().iterator().next();
        kafka.ensureValid();
        assertThat(kafka.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
        assertThat(kafka.maxTimestamp()).isEqualTo(9_999L);
    }
}
