package io.odradek.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.odradek.log.FileSlice;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.schema.WireWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** v2 batches built by Kafka's builder, converted down, and read back by Kafka's own magic 0/1 readers. */
class DownConvertedRecordsTest {
    private static final long T = 1_700_000_000_000L;

    record Msg(long offset, long timestamp, String key, String value) {
    }

    /** One message (or wrapper) of the converted set, as Kafka's batch iterator shows it. */
    record Entry(byte magic, CompressionType codec, long lastOffset, boolean valid) {
    }

    private static ByteBuffer v2(long baseOffset, Compression compression, TimestampType type, String... kv) {
        ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
        MemoryRecordsBuilder b = MemoryRecords.builder(buf, (byte) 2, compression, type, baseOffset,
                type == TimestampType.LOG_APPEND_TIME ? T + 500 : -1L);
        for (int i = 0; i < kv.length; i += 2) {
            b.appendWithOffset(baseOffset + i / 2, T + i, bytes(kv[i]), bytes(kv[i + 1]),
                    new org.apache.kafka.common.header.Header[] {new org.apache.kafka.common.header.internals.RecordHeader("h", new byte[] {1})});
        }
        return b.build().buffer();
    }

    private static ByteBuffer concat(ByteBuffer... parts) {
        int n = 0;
        for (ByteBuffer p : parts) {
            n += p.remaining();
        }
        ByteBuffer all = ByteBuffer.allocate(n);
        for (ByteBuffer p : parts) {
            all.put(p.duplicate());
        }
        return all.flip();
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static String string(ByteBuffer b) {
        if (b == null) {
            return null;
        }
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return new String(a, StandardCharsets.UTF_8);
    }

    private static byte[] written(DownConvertedRecords.Result result) {
        assertThat(result.error()).isEqualTo(ErrorCode.NONE);
        WireWriter w = new WireWriter(UnpooledByteBufAllocator.DEFAULT);
        result.records().writeTo(w);
        ByteBuf buf = w.buf();
        byte[] out = new byte[buf.readableBytes()];
        buf.readBytes(out);
        buf.release();
        assertThat(out).hasSize(result.records().sizeInBytes());
        return out;
    }

    private static List<Msg> messages(byte[] set) {
        List<Msg> out = new ArrayList<>();
        for (Record r : MemoryRecords.readableRecords(ByteBuffer.wrap(set)).records()) {
            out.add(new Msg(r.offset(), r.timestamp(), string(r.key()), string(r.value())));
        }
        return out;
    }

    private static List<Entry> entries(byte[] set) {
        List<Entry> out = new ArrayList<>();
        for (MutableRecordBatch b : MemoryRecords.readableRecords(ByteBuffer.wrap(set)).batches()) {
            out.add(new Entry(b.magic(), b.compressionType(), b.lastOffset(), b.isValid()));
        }
        return out;
    }

    @ParameterizedTest(name = "to magic {0}")
    @CsvSource({"0", "1"})
    void uncompressedBatchesBecomeOneMessagePerRecordFromTheFetchOffset(byte magic) {
        ByteBuffer batches = concat(v2(10, Compression.NONE, TimestampType.CREATE_TIME, "a", "1", null, "2", "c", null),
                v2(13, Compression.NONE, TimestampType.CREATE_TIME, "d", "4"));

        byte[] set = written(DownConvertedRecords.convert(batches, magic, 11));

        long ts1 = magic == 0 ? -1 : T + 2;
        long ts2 = magic == 0 ? -1 : T + 4;
        long ts3 = magic == 0 ? -1 : T;
        assertThat(messages(set)).containsExactly(new Msg(11, ts1, null, "2"), new Msg(12, ts2, "c", null),
                new Msg(13, ts3, "d", "4"));
        assertThat(entries(set)).containsExactly(new Entry(magic, CompressionType.NONE, 11, true),
                new Entry(magic, CompressionType.NONE, 12, true), new Entry(magic, CompressionType.NONE, 13, true));
    }

    @ParameterizedTest(name = "to magic {0}, {1}")
    @CsvSource({"0, gzip", "1, gzip", "0, snappy", "1, snappy", "0, lz4", "1, lz4"})
    void aCompressedBatchBecomesOneWrapperOfTheSameCodecWithEveryRecord(byte magic, String codec) {
        ByteBuffer batches = v2(20, Compression.of(codec).build(), TimestampType.CREATE_TIME, "a", "1", "b", "2", "c", "3");

        byte[] set = written(DownConvertedRecords.convert(batches, magic, 21));

        // Kafka keeps a compressed batch whole: the consumer skips the records below its fetch offset.
        long[] ts = magic == 0 ? new long[] {-1, -1, -1} : new long[] {T, T + 2, T + 4};
        assertThat(messages(set)).containsExactly(new Msg(20, ts[0], "a", "1"), new Msg(21, ts[1], "b", "2"),
                new Msg(22, ts[2], "c", "3"));
        assertThat(entries(set)).containsExactly(new Entry(magic, CompressionType.forName(codec), 22, true));
        if (magic == 1) {
            MutableRecordBatch wrapper = MemoryRecords.readableRecords(ByteBuffer.wrap(set)).batches().iterator().next();
            assertThat(wrapper.maxTimestamp()).isEqualTo(T + 4);
            assertThat(wrapper.timestampType()).isEqualTo(TimestampType.CREATE_TIME);
        }
    }

    @Test
    void aLogAppendTimeBatchStampsItsTimeOnEveryMessage() {
        ByteBuffer batches = concat(v2(0, Compression.NONE, TimestampType.LOG_APPEND_TIME, "a", "1"),
                v2(1, Compression.gzip().build(), TimestampType.LOG_APPEND_TIME, "b", "2"));

        byte[] set = written(DownConvertedRecords.convert(batches, (byte) 1, 0));

        assertThat(messages(set)).containsExactly(new Msg(0, T + 500, "a", "1"), new Msg(1, T + 500, "b", "2"));
        for (MutableRecordBatch b : MemoryRecords.readableRecords(ByteBuffer.wrap(set)).batches()) {
            assertThat(b.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
        }
    }

    @Test
    void controlBatchesAreDroppedAndTransactionalDataIsServed() {
        ByteBuffer txn = MemoryRecords.withTransactionalRecords(5L, Compression.NONE, 42L, (short) 0, 0, 0,
                new SimpleRecord(T, bytes("k"), bytes("in-txn"))).buffer();
        ByteBuffer marker = MemoryRecords.withEndTransactionMarker(6L, T, 0, 42L, (short) 0,
                new EndTransactionMarker(ControlRecordType.ABORT, 0)).buffer();
        ByteBuffer after = v2(7, Compression.NONE, TimestampType.CREATE_TIME, "x", "after");

        byte[] set = written(DownConvertedRecords.convert(concat(txn, marker, after), (byte) 1, 5));

        assertThat(messages(set)).extracting(Msg::offset, Msg::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(5L, "in-txn"), org.assertj.core.groups.Tuple.tuple(7L, "after"));
    }

    @Test
    void aZstdBatchFirstIsUnsupportedCompressionType() {
        ByteBuffer batches = v2(0, Compression.zstd().build(), TimestampType.CREATE_TIME, "a", "1");

        assertThat(DownConvertedRecords.convert(batches, (byte) 1, 0).error()).isEqualTo(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE);
    }

    @Test
    void aZstdBatchAfterOthersEndsTheDataBeforeIt() {
        ByteBuffer batches = concat(v2(0, Compression.NONE, TimestampType.CREATE_TIME, "a", "1"),
                v2(1, Compression.zstd().build(), TimestampType.CREATE_TIME, "b", "2"));

        assertThat(messages(written(DownConvertedRecords.convert(batches, (byte) 1, 0))))
                .extracting(Msg::offset).containsExactly(0L);
    }

    @Test
    void aPartialLastBatchIsDropped() {
        ByteBuffer whole = concat(v2(0, Compression.NONE, TimestampType.CREATE_TIME, "a", "1"),
                v2(1, Compression.gzip().build(), TimestampType.CREATE_TIME, "b", "2"));
        whole.limit(whole.limit() - 5);

        assertThat(messages(written(DownConvertedRecords.convert(whole, (byte) 0, 0))))
                .containsExactly(new Msg(0, -1, "a", "1"));
    }

    private static String[] smallRecords(int n) {
        String[] kv = new String[2 * n];
        for (int i = 0; i < n; i++) {
            kv[2 * i] = "key-" + i;
            kv[2 * i + 1] = "v";
        }
        return kv;
    }

    @Test
    void theFirstBatchIsConvertedWholeEvenWhenItGrowsPastTheBytesRead() {
        // magic 1 messages are larger than v2 records: 10 small records grow past the batch's own size.
        ByteBuffer batch = v2(0, Compression.NONE, TimestampType.CREATE_TIME, smallRecords(10));
        int v2Size = batch.remaining();

        byte[] set = written(DownConvertedRecords.convert(batch, (byte) 1, 0));

        assertThat(set.length).isGreaterThan(v2Size);
        assertThat(messages(set)).extracting(Msg::offset).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    }

    @Test
    void laterBatchesStopAtTheLastWholeMessageWithinTheBytesRead() {
        ByteBuffer batches = concat(v2(0, Compression.NONE, TimestampType.CREATE_TIME, "a", "1"),
                v2(1, Compression.NONE, TimestampType.CREATE_TIME, smallRecords(10)));
        int read = batches.remaining();

        byte[] set = written(DownConvertedRecords.convert(batches, (byte) 1, 0));

        assertThat(set.length).isLessThanOrEqualTo(read);
        List<Msg> got = messages(set);
        assertThat(got.size()).isBetween(2, 10);
        assertThat(got).extracting(Msg::offset).containsExactly(
                java.util.stream.LongStream.range(0, got.size()).boxed().toArray(Long[]::new));
    }

    @Test
    void fetchV0To2ReadOnlyUpToTheirLimitSoAnOversizedFirstBatchGivesNothing(@TempDir Path dir) throws Exception {
        ByteBuffer batch = v2(0, Compression.NONE, TimestampType.CREATE_TIME, "k", "v".repeat(200));
        Path file = dir.resolve("segment");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            ch.write(batch.duplicate(), 0);
            FileSlice slice = new FileSlice(ch, 0, batch.remaining(), 0);

            DownConvertedRecords.Result limited = DownConvertedRecords.convert(slice, (byte) 0, 0, 100);
            DownConvertedRecords.Result whole = DownConvertedRecords.convert(slice, (byte) 1, 0, Integer.MAX_VALUE);

            assertThat(written(limited)).isEmpty();
            assertThat(messages(written(whole))).containsExactly(new Msg(0, T, "k", "v".repeat(200)));
        }
    }

    private static ByteBuffer bigValues(long baseOffset, Compression compression, int records, int valueSize) {
        String[] kv = new String[2 * records];
        for (int i = 0; i < records; i++) {
            kv[2 * i] = "k" + i;
            kv[2 * i + 1] = "z".repeat(valueSize);
        }
        ByteBuffer buf = ByteBuffer.allocate(64 * 1024 + records * (valueSize + 64));
        MemoryRecordsBuilder b = MemoryRecords.builder(buf, (byte) 2, compression, TimestampType.CREATE_TIME, baseOffset);
        for (int i = 0; i < records; i++) {
            b.appendWithOffset(baseOffset + i, T, bytes(kv[2 * i]), bytes(kv[2 * i + 1]));
        }
        return b.build().buffer();
    }

    @Test
    void aHighlyCompressedBatchIsDecompressedOnlyAsFarAsTheBytesReadAfterItsFirstRecord() {
        // 10 x 10 KB of one letter gzip to a few hundred bytes: the bytes read do not pay for their expansion.
        ByteBuffer batch = bigValues(0, Compression.gzip().build(), 10, 10_000);
        assertThat(batch.remaining()).isLessThan(2_000);

        byte[] set = written(DownConvertedRecords.convert(batch, (byte) 1, 0));

        assertThat(messages(set)).extracting(Msg::offset).containsExactly(0L);
        assertThat(entries(set)).containsExactly(new Entry((byte) 1, CompressionType.GZIP, 0, true));
    }

    @Test
    void decompressionStopsAtTheLimitAndTheWrapperHoldsTheRecordsBeforeIt() {
        ByteBuffer batch = bigValues(0, Compression.gzip().build(), 10, 10_000);

        byte[] set = written(DownConvertedRecords.convert(batch, (byte) 0, 0, 25_000, 1 << 20));

        assertThat(messages(set)).extracting(Msg::offset).containsExactly(0L, 1L);
    }

    @Test
    void theFirstRecordAskedForGoesPastTheLimitAndRecordsBelowTheFetchOffsetThatDoNotFitAreLeftOut() {
        ByteBuffer batch = bigValues(0, Compression.lz4().build(), 10, 10_000);

        byte[] set = written(DownConvertedRecords.convert(batch, (byte) 1, 5, 15_000, 1 << 20));

        assertThat(messages(set)).extracting(Msg::offset).containsExactly(0L, 5L);
    }

    @Test
    void aFirstRecordLargerThanTheHardCapGivesAnEmptySet() {
        ByteBuffer batch = bigValues(0, Compression.gzip().build(), 1, 100_000);

        DownConvertedRecords.Result result = DownConvertedRecords.convert(batch, (byte) 1, 0, 1_000, 50_000);

        assertThat(written(result)).isEmpty();
    }

    @Test
    void aSliceThatCannotBeReadIsAStorageErrorForThePartition(@TempDir Path dir) throws Exception {
        ByteBuffer batch = v2(0, Compression.NONE, TimestampType.CREATE_TIME, "k", "v");
        FileChannel ch = FileChannel.open(dir.resolve("segment"), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ);
        ch.write(batch.duplicate(), 0);
        FileSlice slice = new FileSlice(ch, 0, batch.remaining(), 0);
        ch.close(); // as retention deleting the segment under the fetch

        DownConvertedRecords.Result result = DownConvertedRecords.forFetch((short) 3, "producer", slice, 0, 1000, 1000, 1000);

        assertThat(result.error()).isEqualTo(ErrorCode.KAFKA_STORAGE_ERROR);
        assertThat(result.records()).isNull();
    }

    @Test
    void fetchVersionsReadTheirMagic() {
        assertThat(DownConvertedRecords.magicFor((short) 0)).isEqualTo((byte) 0);
        assertThat(DownConvertedRecords.magicFor((short) 1)).isEqualTo((byte) 0);
        assertThat(DownConvertedRecords.magicFor((short) 2)).isEqualTo((byte) 1);
        assertThat(DownConvertedRecords.magicFor((short) 3)).isEqualTo((byte) 1);
    }

    @ParameterizedTest(name = "to magic {0}, {1}")
    @CsvSource({"0, none", "1, none", "0, gzip", "1, gzip", "0, snappy", "1, snappy", "0, lz4", "1, lz4"})
    void theConvertedSetIsByteForByteWhatKafkasBuilderWritesForThoseRecords(byte magic, String codec) {
        ByteBuffer batch = v2(40, Compression.of(codec).build(), TimestampType.CREATE_TIME, "a", "1", null, "2", "c", null);

        byte[] ours = written(DownConvertedRecords.convert(batch, magic, 40));

        // What Kafka 3.9's RecordsUtil.convertRecordBatch did: a builder of the target magic and the batch's codec.
        MemoryRecordsBuilder kafka = MemoryRecords.builder(ByteBuffer.allocate(4096), magic, Compression.of(codec).build(),
                TimestampType.CREATE_TIME, 40L);
        kafka.appendWithOffset(40, T, bytes("a"), bytes("1"));
        kafka.appendWithOffset(41, T + 2, null, bytes("2"));
        kafka.appendWithOffset(42, T + 4, bytes("c"), null);
        ByteBuffer expected = kafka.build().buffer();
        byte[] expectedBytes = new byte[expected.remaining()];
        expected.get(expectedBytes);
        assertThat(ours).isEqualTo(expectedBytes);
    }
}
