package io.odradek.log.legacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.LogAppendException;
import io.odradek.log.LogConfig;
import io.odradek.wire.ErrorCode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Message sets built by Kafka's own MemoryRecordsBuilder (magic 0/1), converted, and read back by Kafka's v2 reader. */
class LegacyUpConverterTest {
    private static final long NOW = 1_700_000_000_000L;

    /** What a record of the converted batch reads as, through Kafka's classes. */
    record Read(long offsetDelta, long timestamp, String key, String value) {
    }

    private static ByteBuffer kafkaSet(byte magic, Compression compression, TimestampType type, long baseOffset,
            String... keyValues) {
        ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
        MemoryRecordsBuilder b = MemoryRecords.builder(buf, magic, compression, type, baseOffset,
                type == TimestampType.LOG_APPEND_TIME ? NOW - 5 : -1L);
        for (int i = 0; i < keyValues.length; i += 2) {
            b.append(NOW - 1000 + i, bytes(keyValues[i]), bytes(keyValues[i + 1]));
        }
        return b.build().buffer();
    }

    private static ByteBuffer bytes(String s) {
        return s == null ? null : ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String string(ByteBuffer b) {
        if (b == null) {
            return null;
        }
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return new String(a, StandardCharsets.UTF_8);
    }

    private static MutableRecordBatch onlyBatch(ByteBuffer v2) {
        List<MutableRecordBatch> batches = new ArrayList<>();
        MemoryRecords.readableRecords(v2).batches().forEach(batches::add);
        assertThat(batches).hasSize(1);
        return batches.get(0);
    }

    private static List<Read> records(MutableRecordBatch batch) {
        List<Read> out = new ArrayList<>();
        for (Record r : batch) {
            out.add(new Read(r.offset() - batch.baseOffset(), r.timestamp(), string(r.key()), string(r.value())));
        }
        return out;
    }

    private static LogConfig config(String... kv) {
        java.util.Map<String, String> m = new java.util.HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return LogConfig.defaults().with(m);
    }

    @ParameterizedTest(name = "magic {0}, {1}")
    @CsvSource({"0, none", "1, none", "0, gzip", "1, gzip", "0, snappy", "1, snappy", "0, lz4", "1, lz4"})
    void kafkasMessageSetBecomesOneV2BatchWithTheSameRecords(byte magic, String codec) {
        ByteBuffer set = kafkaSet(magic, Compression.of(codec).build(), TimestampType.CREATE_TIME, 0L,
                "k1", "v1", null, "v2", "k3", null);

        ByteBuffer v2 = LegacyUpConverter.toBatch(set, LogConfig.defaults(), "t", 0, NOW);

        MutableRecordBatch batch = onlyBatch(v2);
        assertThat(batch.isValid()).isTrue();
        assertThat(batch.magic()).isEqualTo(RecordBatch.MAGIC_VALUE_V2);
        assertThat(batch.compressionType()).isEqualTo(CompressionType.forName(codec)); // "producer": the wrapper's codec
        assertThat(batch.producerId()).isEqualTo(-1L);
        assertThat(batch.timestampType()).isEqualTo(TimestampType.CREATE_TIME);
        long t0 = magic == 0 ? -1 : NOW - 1000;
        long t2 = magic == 0 ? -1 : NOW - 998;
        long t4 = magic == 0 ? -1 : NOW - 996;
        assertThat(records(batch)).containsExactly(
                new Read(0, t0, "k1", "v1"), new Read(1, t2, null, "v2"), new Read(2, t4, "k3", null));
        assertThat(batch.maxTimestamp()).isEqualTo(t4);
        assertThat(v2.position()).isZero();
        assertThat(set.position()).isZero(); // the request's bytes are only read
    }

    @ParameterizedTest(name = "topic compression.type={0}")
    @CsvSource({"uncompressed, none", "gzip, gzip", "snappy, snappy", "lz4, lz4", "zstd, zstd"})
    void theTopicsCompressionTypeDecidesTheBatchsCodec(String topicType, String expected) {
        ByteBuffer set = kafkaSet((byte) 1, Compression.gzip().build(), TimestampType.CREATE_TIME, 0L, "a", "1", "b", "2");

        MutableRecordBatch batch = onlyBatch(LegacyUpConverter.toBatch(set,
                config(LogConfig.COMPRESSION_TYPE, topicType), "t", 0, NOW));

        assertThat(batch.compressionType()).isEqualTo(CompressionType.forName(expected));
        assertThat(batch.isValid()).isTrue();
        assertThat(records(batch)).extracting(Read::value).containsExactly("1", "2");
    }

    @Test
    void aMagic1LogAppendTimeWrapperGivesItsTimeToEveryRecord() {
        // Kafka's builder writes LogAppendTime wrappers only for brokers; a producer sending one is refused on a
        // CreateTime topic only when the check does not apply, so a valid time passes as that time.
        ByteBuffer set = kafkaSet((byte) 1, Compression.gzip().build(), TimestampType.LOG_APPEND_TIME, 0L, "a", "1", "b", "2");

        MutableRecordBatch batch = onlyBatch(LegacyUpConverter.toBatch(set, LogConfig.defaults(), "t", 0, NOW));

        assertThat(records(batch)).extracting(Read::timestamp).containsExactly(NOW - 5, NOW - 5);
    }

    @Test
    void aLogAppendTimeMessageOnALogAppendTimeTopicIsAnInvalidTimestamp() {
        ByteBuffer set = kafkaSet((byte) 1, Compression.NONE, TimestampType.LOG_APPEND_TIME, 0L, "a", "1");

        assertThatThrownBy(() -> LegacyUpConverter.toBatch(set,
                config(LogConfig.MESSAGE_TIMESTAMP_TYPE, LogConfig.LOG_APPEND_TIME), "t", 0, NOW))
                .isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_TIMESTAMP));
    }

    @Test
    void aMagic1TimestampOutsideTheTopicsWindowIsAnInvalidTimestamp() {
        ByteBuffer set = kafkaSet((byte) 1, Compression.snappy().build(), TimestampType.CREATE_TIME, 0L, "a", "1");

        assertThatThrownBy(() -> LegacyUpConverter.toBatch(set,
                config(LogConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS, "10"), "t", 0, NOW))
                .isInstanceOfSatisfying(LogAppendException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_TIMESTAMP);
                    assertThat(e.recordErrors()).extracting(LogAppendException.RecordError::batchIndex).containsExactly(0);
                });
    }

    @Test
    void magic0HasNoTimestampToCheck() {
        ByteBuffer set = kafkaSet((byte) 0, Compression.NONE, TimestampType.CREATE_TIME, 0L, "a", "1");

        MutableRecordBatch batch = onlyBatch(LegacyUpConverter.toBatch(set,
                config(LogConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS, "0"), "t", 0, NOW));

        assertThat(records(batch)).containsExactly(new Read(0, -1, "a", "1"));
        assertThat(batch.maxTimestamp()).isEqualTo(-1L);
    }

    @Test
    void aKeylessMessageOnACompactedTopicIsAnInvalidRecord() {
        ByteBuffer set = kafkaSet((byte) 1, Compression.lz4().build(), TimestampType.CREATE_TIME, 0L, "a", "1", null, "2");

        assertThatThrownBy(() -> LegacyUpConverter.toBatch(set, config(LogConfig.CLEANUP_POLICY, "compact"), "t", 0, NOW))
                .isInstanceOfSatisfying(LogAppendException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_RECORD);
                    assertThat(e.recordErrors()).extracting(LogAppendException.RecordError::batchIndex).containsExactly(1);
                });
    }

    @Test
    void aFlippedBitInAnUncompressedMessageIsACorruptMessage() {
        ByteBuffer set = kafkaSet((byte) 1, Compression.NONE, TimestampType.CREATE_TIME, 0L, "a", "1", "b", "2");
        set.put(set.limit() - 1, (byte) (set.get(set.limit() - 1) ^ 1));

        assertThatThrownBy(() -> LegacyUpConverter.toBatch(set, LogConfig.defaults(), "t", 0, NOW))
                .isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.CORRUPT_MESSAGE));
    }

    @Test
    void aCorruptInnerMessageIsACorruptMessageEvenWhenTheWrapperChecksOut() throws Exception {
        // An uncompressed inner set with a bad CRC, wrapped in a valid gzip wrapper of our own making.
        ByteBuffer inner = kafkaSet((byte) 1, Compression.NONE, TimestampType.CREATE_TIME, 0L, "a", "1");
        inner.put(inner.limit() - 1, (byte) 'X');
        byte[] innerBytes = new byte[inner.remaining()];
        inner.get(innerBytes);
        java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(gz)) {
            out.write(innerBytes);
        }
        java.io.ByteArrayOutputStream set = new java.io.ByteArrayOutputStream();
        io.odradek.wire.batch.LegacyMessageSetWriter.write(set, 0, (byte) 1, 1, NOW, null, gz.toByteArray());

        assertThatThrownBy(() -> LegacyUpConverter.toBatch(ByteBuffer.wrap(set.toByteArray()), LogConfig.defaults(), "t", 0, NOW))
                .isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.CORRUPT_MESSAGE));
    }

    @Test
    void twoWrappersInOneSetAreAnInvalidRecord() {
        ByteBuffer one = kafkaSet((byte) 1, Compression.gzip().build(), TimestampType.CREATE_TIME, 0L, "a", "1");
        ByteBuffer two = ByteBuffer.allocate(one.remaining() * 2).put(one.duplicate()).put(one.duplicate()).flip();

        assertThatThrownBy(() -> LegacyUpConverter.toBatch(two, LogConfig.defaults(), "t", 0, NOW))
                .isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_RECORD));
    }

    @Test
    void mixedMagicsAreAnInvalidRecord() {
        ByteBuffer v0 = kafkaSet((byte) 0, Compression.NONE, TimestampType.CREATE_TIME, 0L, "a", "1");
        ByteBuffer v1 = kafkaSet((byte) 1, Compression.NONE, TimestampType.CREATE_TIME, 1L, "b", "2");
        ByteBuffer both = ByteBuffer.allocate(v0.remaining() + v1.remaining()).put(v0).put(v1).flip();

        assertThatThrownBy(() -> LegacyUpConverter.toBatch(both, LogConfig.defaults(), "t", 0, NOW))
                .isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_RECORD));
    }

    @Test
    void aPartialMessageAtTheEndIsDroppedAsKafkaTrimsIt() {
        ByteBuffer set = kafkaSet((byte) 1, Compression.NONE, TimestampType.CREATE_TIME, 0L, "a", "1", "b", "2");
        set.limit(set.limit() - 3);

        MutableRecordBatch batch = onlyBatch(LegacyUpConverter.toBatch(set, LogConfig.defaults(), "t", 0, NOW));

        assertThat(records(batch)).extracting(Read::key).containsExactly("a");
    }

    @Test
    void aMessageLargerThanMaxMessageBytesIsTooLarge() {
        ByteBuffer set = kafkaSet((byte) 1, Compression.NONE, TimestampType.CREATE_TIME, 0L, "a", "x".repeat(500));

        assertThatThrownBy(() -> LegacyUpConverter.toBatch(set, config(LogConfig.MAX_MESSAGE_BYTES, "300"), "t", 0, NOW))
                .isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.MESSAGE_TOO_LARGE));
    }

    @Test
    void aWrapperDecompressingPastTheLimitIsRefusedBeforeItIsAllRead() {
        String[] kv = new String[2 * 200];
        for (int i = 0; i < 200; i++) {
            kv[2 * i] = "k" + i;
            kv[2 * i + 1] = "0".repeat(1000);
        }
        ByteBuffer set = kafkaSet((byte) 1, Compression.gzip().build(), TimestampType.CREATE_TIME, 0L, kv);
        assertThat(set.remaining()).isLessThan(10_000); // 200 kB of zeros, gzipped

        assertThatThrownBy(() -> LegacyUpConverter.toBatch(set,
                config(LogConfig.MAX_DECOMPRESSED_MESSAGE_BYTES, "50000", LogConfig.COMPRESSION_TYPE, "gzip"), "t", 0, NOW))
                .isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_RECORD));
        // and uncompressed, the converted batch may not pass max.message.bytes
        assertThatThrownBy(() -> LegacyUpConverter.toBatch(set,
                config(LogConfig.MAX_MESSAGE_BYTES, "20000", LogConfig.COMPRESSION_TYPE, "uncompressed"), "t", 0, NOW))
                .isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.MESSAGE_TOO_LARGE));
    }

    @Test
    void aMagic0Lz4WrapperWithTheOldHeaderChecksumIsRead() {
        // Kafka's builder writes magic 0 lz4 frames with the pre-0.10 ("broken") header checksum.
        ByteBuffer set = kafkaSet((byte) 0, Compression.lz4().build(), TimestampType.CREATE_TIME, 0L, "a", "1");

        assertThat(records(onlyBatch(LegacyUpConverter.toBatch(set, LogConfig.defaults(), "t", 0, NOW))))
                .containsExactly(new Read(0, -1, "a", "1"));
    }

    @Test
    void aMagic1Lz4WrapperWithTheOldHeaderChecksumIsAnInvalidRecord() throws Exception {
        java.io.ByteArrayOutputStream inner = new java.io.ByteArrayOutputStream();
        io.odradek.wire.batch.LegacyMessageSetWriter.write(inner, 0, (byte) 1, 0, NOW, bytes("a").array(), bytes("1").array());
        java.io.ByteArrayOutputStream frame = new java.io.ByteArrayOutputStream();
        try (java.io.OutputStream out = io.odradek.wire.batch.LegacyLz4Frames.output(frame, true)) { // magic 0's checksum
            out.write(inner.toByteArray());
        }
        java.io.ByteArrayOutputStream set = new java.io.ByteArrayOutputStream();
        io.odradek.wire.batch.LegacyMessageSetWriter.write(set, 0, (byte) 1, 3, NOW, null, frame.toByteArray());

        assertThatThrownBy(() -> LegacyUpConverter.toBatch(ByteBuffer.wrap(set.toByteArray()), LogConfig.defaults(), "t", 0, NOW))
                .isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_RECORD));
    }

    @Test
    void ourLegacyWriterMatchesKafkasBytesForUncompressedSets() throws Exception {
        for (byte magic = 0; magic <= 1; magic++) {
            ByteBuffer kafka = kafkaSet(magic, Compression.NONE, TimestampType.CREATE_TIME, 7L, "k", "v", null, "w");
            java.io.ByteArrayOutputStream ours = new java.io.ByteArrayOutputStream();
            io.odradek.wire.batch.LegacyMessageSetWriter.write(ours, 7, magic, 0, NOW - 1000, bytes("k").array(), bytes("v").array());
            io.odradek.wire.batch.LegacyMessageSetWriter.write(ours, 8, magic, 0, NOW - 998, null, bytes("w").array());
            byte[] expected = new byte[kafka.remaining()];
            kafka.get(expected);
            assertThat(ours.toByteArray()).isEqualTo(expected);
        }
    }

    private static ByteBuffer wrapper(byte magic, long offset, int attributes, byte[] value) throws Exception {
        java.io.ByteArrayOutputStream set = new java.io.ByteArrayOutputStream();
        io.odradek.wire.batch.LegacyMessageSetWriter.write(set, offset, magic, attributes, NOW, null, value);
        return ByteBuffer.wrap(set.toByteArray());
    }

    private static byte[] gzip(byte[] bytes) throws Exception {
        java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(gz)) {
            out.write(bytes);
        }
        return gz.toByteArray();
    }

    private static ErrorCode refusal(ByteBuffer set) {
        try {
            LegacyUpConverter.toBatch(set, LogConfig.defaults(), "t", 0, NOW);
        } catch (LogAppendException e) {
            return e.errorCode();
        }
        return ErrorCode.NONE;
    }

    /** A magic 0 gzip wrapper holding one message whose value is {@code valueSize} zero bytes. */
    private static ByteBuffer gzipBomb(int valueSize) throws Exception {
        java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(gz)) {
            io.odradek.wire.batch.LegacyMessageSetWriter.write(out, 0, (byte) 0, 0, -1, bytes("k").array(),
                    new byte[valueSize]);
        }
        return wrapper((byte) 0, 0, 1, gz.toByteArray());
    }

    @Test
    void aGzipBombIsMessageTooLargeOnceItDecompressesPastSixteenTimesMaxMessageBytes() throws Exception {
        LogConfig config = config(LogConfig.MAX_MESSAGE_BYTES, "100000"); // 1.6 MB may come out of one set
        ByteBuffer bomb = gzipBomb(2_000_000);
        assertThat(bomb.remaining()).isLessThan(10_000);

        assertThatThrownBy(() -> LegacyUpConverter.toBatch(bomb, config, "t", 0, NOW))
                .isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.MESSAGE_TOO_LARGE));
        // within the bound the same kind of set is stored, its value whole
        MutableRecordBatch stored = onlyBatch(LegacyUpConverter.toBatch(gzipBomb(1_000_000), config, "t", 0, NOW));
        Record only = stored.iterator().next();
        assertThat(only.valueSize()).isEqualTo(1_000_000);
        assertThat(stored.compressionType()).isEqualTo(org.apache.kafka.common.record.internal.CompressionType.GZIP);
        assertThat(stored.sizeInBytes()).isLessThan(100_000);
    }

    @Test
    void aRawSnappyValueClaimingGigabytesIsAnInvalidRecordWithoutBeingAllocated() throws Exception {
        // Sarama sends raw snappy (no xerial header): this block's length varint claims ~2 GB for 6 bytes.
        byte[] raw = {(byte) 0xf0, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07, 0x00};

        ByteBuffer set = wrapper((byte) 0, 0, 2, raw);

        long before = allocatedByThisThread();
        assertThat(refusal(set)).isEqualTo(ErrorCode.INVALID_RECORD);
        assertThat(allocatedByThisThread() - before).isLessThan(16L << 20);
    }

    /** Heap bytes this thread has allocated so far (HotSpot's per-thread counter). */
    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void aFramedSnappyChunkClaimingMoreThanTheInputIsAnInvalidRecordWithoutBeingAllocated() throws Exception {
        java.io.ByteArrayOutputStream framed = new java.io.ByteArrayOutputStream();
        try (org.xerial.snappy.SnappyOutputStream out = new org.xerial.snappy.SnappyOutputStream(framed)) {
            out.write(1);
        }
        byte[] header = java.util.Arrays.copyOf(framed.toByteArray(), 16);
        byte[] lying = ByteBuffer.allocate(24).put(header).putInt(500_000_000).putInt(0).array();

        ByteBuffer set = wrapper((byte) 1, 0, 2, lying);

        long before = allocatedByThisThread();
        assertThat(refusal(set)).isEqualTo(ErrorCode.INVALID_RECORD);
        assertThat(allocatedByThisThread() - before).isLessThan(16L << 20);
    }

    @Test
    void aRawSnappyWrapperAsSaramaSendsItIsRead() throws Exception {
        java.io.ByteArrayOutputStream inner = new java.io.ByteArrayOutputStream();
        io.odradek.wire.batch.LegacyMessageSetWriter.write(inner, 0, (byte) 0, 0, -1, bytes("a").array(), bytes("1").array());
        io.odradek.wire.batch.LegacyMessageSetWriter.write(inner, 1, (byte) 0, 0, -1, bytes("b").array(), bytes("2").array());
        ByteBuffer set = wrapper((byte) 0, 1, 2, org.xerial.snappy.Snappy.compress(inner.toByteArray()));

        assertThat(records(onlyBatch(LegacyUpConverter.toBatch(set, LogConfig.defaults(), "t", 0, NOW))))
                .containsExactly(new Read(0, -1, "a", "1"), new Read(1, -1, "b", "2"));
    }

    @Test
    void malformedWrappersAreInvalidRecordsAsInKafka() throws Exception {
        java.io.ByteArrayOutputStream inner = new java.io.ByteArrayOutputStream();
        io.odradek.wire.batch.LegacyMessageSetWriter.write(inner, 0, (byte) 1, 0, NOW, null, bytes("x").array());
        io.odradek.wire.batch.LegacyMessageSetWriter.write(inner, 1, (byte) 1, 0, NOW, null, bytes("y").array());
        byte[] twoInner = gzip(inner.toByteArray());

        assertThat(refusal(wrapper((byte) 1, 1, 1, twoInner))).isEqualTo(ErrorCode.NONE);
        assertThat(refusal(wrapper((byte) 1, 0, 1, twoInner))).isEqualTo(ErrorCode.NONE); // librdkafka's wrapper offset 0
        assertThat(refusal(wrapper((byte) 1, 5, 1, twoInner))).isEqualTo(ErrorCode.NONE);
        // a wrapper offset below its last relative inner offset, and not 0
        java.io.ByteArrayOutputStream far = new java.io.ByteArrayOutputStream();
        io.odradek.wire.batch.LegacyMessageSetWriter.write(far, 0, (byte) 1, 0, NOW, null, bytes("x").array());
        io.odradek.wire.batch.LegacyMessageSetWriter.write(far, 7, (byte) 1, 0, NOW, null, bytes("y").array());
        assertThat(refusal(wrapper((byte) 1, 3, 1, gzip(far.toByteArray())))).isEqualTo(ErrorCode.INVALID_RECORD);
        assertThat(refusal(wrapper((byte) 1, 1, 1, null))).isEqualTo(ErrorCode.INVALID_RECORD); // null value
        assertThat(refusal(wrapper((byte) 1, 1, 1, gzip(new byte[0])))).isEqualTo(ErrorCode.INVALID_RECORD); // no inner
        assertThat(refusal(wrapper((byte) 1, 1, 4, twoInner))).isEqualTo(ErrorCode.INVALID_RECORD); // zstd
        assertThat(refusal(wrapper((byte) 1, 1, 5, twoInner))).isEqualTo(ErrorCode.INVALID_RECORD); // codec 5
        assertThat(refusal(wrapper((byte) 1, 1, 1, new byte[] {1, 2, 3}))).isEqualTo(ErrorCode.INVALID_RECORD); // not gzip
        // an inner message that is itself compressed
        java.io.ByteArrayOutputStream nested = new java.io.ByteArrayOutputStream();
        io.odradek.wire.batch.LegacyMessageSetWriter.write(nested, 0, (byte) 1, 1, NOW, null, twoInner);
        assertThat(refusal(wrapper((byte) 1, 0, 1, gzip(nested.toByteArray())))).isEqualTo(ErrorCode.INVALID_RECORD);
    }

    @Test
    void anInnerMessageOfAnotherMagicIsAnInvalidRecord() throws Exception {
        java.io.ByteArrayOutputStream inner = new java.io.ByteArrayOutputStream();
        io.odradek.wire.batch.LegacyMessageSetWriter.write(inner, 0, (byte) 0, 0, -1, null, bytes("x").array());

        assertThat(refusal(wrapper((byte) 1, 0, 1, gzip(inner.toByteArray())))).isEqualTo(ErrorCode.INVALID_RECORD);
    }

    @Test
    void aKeySizeThatDoesNotFitItsMessageIsACorruptMessage() throws Exception {
        ByteBuffer set = kafkaSet((byte) 0, Compression.NONE, TimestampType.CREATE_TIME, 0L, "key", "value");
        set.putInt(12 + 6, 1000); // key size, then the CRC made right again so only the framing is wrong
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(set.array(), 16, set.limit() - 16);
        set.putInt(12, (int) crc.getValue());

        assertThat(refusal(set)).isEqualTo(ErrorCode.CORRUPT_MESSAGE);
    }

    @ParameterizedTest(name = "magic {0} to {1}")
    @CsvSource({"0, uncompressed", "1, uncompressed", "1, gzip", "0, snappy", "1, lz4", "1, zstd"})
    void theBatchIsByteForByteWhatKafkasBuilderWritesForThoseRecords(byte magic, String topicType) {
        ByteBuffer set = kafkaSet(magic, Compression.NONE, TimestampType.CREATE_TIME, 0L, "k1", "v1", null, "v2", "k3", null);

        ByteBuffer ours = LegacyUpConverter.toBatch(set, config(LogConfig.COMPRESSION_TYPE, topicType), "t", 0, NOW);

        // What Kafka 3.9's LogValidator built (base offset and leader epoch are stamped by the log in both).
        String codec = topicType.equals("uncompressed") ? "none" : topicType;
        MemoryRecordsBuilder kafka = MemoryRecords.builder(ByteBuffer.allocate(4096), RecordBatch.MAGIC_VALUE_V2,
                Compression.of(codec).build(), TimestampType.CREATE_TIME, 0L, NOW, -1L, (short) -1, -1, false,
                RecordBatch.NO_PARTITION_LEADER_EPOCH);
        long t = magic == 0 ? -1 : NOW - 1000;
        kafka.appendWithOffset(0, t, bytes("k1"), bytes("v1"));
        kafka.appendWithOffset(1, magic == 0 ? -1 : NOW - 998, null, bytes("v2"));
        kafka.appendWithOffset(2, magic == 0 ? -1 : NOW - 996, bytes("k3"), null);
        ByteBuffer expected = kafka.build().buffer();
        assertThat(ours).isEqualTo(expected);
    }
}
