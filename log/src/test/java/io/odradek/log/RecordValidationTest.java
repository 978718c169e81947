package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.Batches.offsetsAndValues;
import static io.odradek.log.LogFixture.config;
import static io.odradek.log.LogFixture.readSlice;
import static io.odradek.log.LogFixture.snapshotFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.odradek.log.LogAppendException.RecordError;
import io.odradek.log.LogFixture.ManualClock;
import io.odradek.log.RawBatch.Body;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.RecordBatchHeader;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every record of a produced batch is walked before the append (Kafka's LogValidator): each malformed
 * batch here has a correct CRC, is refused with Kafka's error code, and leaves the log as it was: the
 * same files, the same log end, the next good batch at the next offset, and Kafka's reader still reads
 * everything.
 */
class RecordValidationTest {
    static final long NOW = 1_700_000_000_000L;

    @TempDir
    Path logDir;

    final ManualClock clock = new ManualClock(NOW);

    static RawBatch raw() {
        return new RawBatch().baseTimestamp(NOW);
    }

    /** Appends "ok", then {@code bad}; asserts it is refused and changed nothing; returns the refusal. */
    LogAppendException rejected(ByteBuffer bad, LogConfig cfg) throws Exception {
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, cfg, PartitionLog.Options.defaults().withClock(clock))) {
            log.append(batch(NOW, "ok"), 0);
            log.flush();
            Map<String, byte[]> before = snapshotFiles(logDir.resolve("t-0"));

            LogAppendException e = catchThrowableOfType(LogAppendException.class, () -> log.append(bad, 0));

            assertThat(e).as("the append was refused").isNotNull();
            assertThat(log.logEndOffset()).isEqualTo(1L);
            Map<String, byte[]> after = snapshotFiles(logDir.resolve("t-0"));
            assertThat(after.keySet()).isEqualTo(before.keySet());
            after.forEach((name, content) -> assertThat(content).as(name).isEqualTo(before.get(name)));
            assertThat(log.append(batch(NOW, "next"), 0).baseOffset()).isEqualTo(1L);
            assertThat(offsetsAndValues(readSlice(log.read(0L, 1 << 20)))).containsExactly("0:ok", "1:next");
            return e;
        }
    }

    LogAppendException rejected(ByteBuffer bad) throws Exception {
        return rejected(bad, LogConfig.defaults());
    }

    /** Appends {@code good} to a fresh log and returns what Kafka's reader reads back. */
    java.util.List<String> accepted(ByteBuffer good, LogConfig cfg) {
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, cfg, PartitionLog.Options.defaults().withClock(clock))) {
            log.append(good, 0);
            return offsetsAndValues(readSlice(log.read(0L, 1 << 20)));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static void assertInvalidRecord(LogAppendException e, String messagePart) {
        assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_RECORD);
        assertThat(e.getMessage()).contains(messagePart);
        assertThat(e.recordErrors()).isEmpty();
    }

    // ------------------------------------------------------------------ counts and framing

    @Test
    void countOfTwoBillionWithOneRecordIsRefusedAndDoesNotMoveTheLogEnd() throws Exception {
        ByteBuffer bad = raw().record("k", "v").count(Integer.MAX_VALUE).build();
        assertInvalidRecord(rejected(bad), "premature EOF");
    }

    @Test
    void countSmallerThanTheRecordsPresentIsRefused() throws Exception {
        ByteBuffer bad = raw().record("k", "a").record("k", "b").count(1).build();
        assertInvalidRecord(rejected(bad), "records still remaining");
    }

    @Test
    void trailingBytesAfterTheLastRecordAreRefused() throws Exception {
        ByteBuffer bad = raw().record("k", "a").raw((byte) 0, (byte) 0).count(1).build();
        assertInvalidRecord(rejected(bad), "records still remaining");
    }

    @Test
    void lastOffsetDeltaDisagreeingWithTheCountIsRefused() throws Exception {
        ByteBuffer bad = raw().record("k", "a").record("k", "b").count(2).lastOffsetDelta(5).build();
        assertInvalidRecord(rejected(bad), "Inconsistent batch offset range");
    }

    @Test
    void negativeLastOffsetDeltaIsAnInvalidOffsetRange() throws Exception {
        ByteBuffer bad = raw().record("k", "a").count(1).lastOffsetDelta(-1).build();
        assertInvalidRecord(rejected(bad), "invalid offset range");
    }

    @Test
    void offsetDeltasOutOfSequenceAreRefused() throws Exception {
        ByteBuffer bad = raw().record(0, 0, RawBatch.bytes("k"), RawBatch.bytes("a"))
                .record(0, 7, RawBatch.bytes("k"), RawBatch.bytes("b")).build();
        assertInvalidRecord(rejected(bad), "Record 1 has offset delta 7");
    }

    @Test
    void negativeRecordLengthIsRefused() throws Exception {
        ByteBuffer bad = raw().rawRecord(-3, new Body()).count(1).build();
        assertInvalidRecord(rejected(bad), "Invalid record size: -3 is negative");
    }

    @Test
    void recordLengthPastTheBatchIsRefused() throws Exception {
        ByteBuffer bad = raw().rawRecord(500, Body.start(0).field(null).field(RawBatch.bytes("v")).varint(0)).build();
        assertInvalidRecord(rejected(bad), "expected 500 bytes in record payload");
    }

    @Test
    void recordLongerThanItsFieldsIsRefused() throws Exception {
        Body body = Body.start(0).field(null).field(RawBatch.bytes("v")).varint(0).b(0).b(0);
        ByteBuffer bad = raw().rawRecord(body).build();
        assertInvalidRecord(rejected(bad), "expected to read 9 bytes in record payload, but instead read 7");
    }

    @Test
    void negativeKeyLengthBelowMinusOneIsRefused() throws Exception {
        ByteBuffer bad = raw().rawRecord(Body.start(0).varint(-2).field(RawBatch.bytes("v")).varint(0)).build();
        assertInvalidRecord(rejected(bad), "Record 0 has invalid key length -2");
    }

    @Test
    void keyLengthOverrunningTheRecordIsRefused() throws Exception {
        ByteBuffer bad = raw().record("k", "a")
                .rawRecord(Body.start(1).varint(1000).bytes(RawBatch.bytes("kk")).field(null).varint(0)).build();
        assertInvalidRecord(rejected(bad), "Record 1 has key length 1000");
    }

    @Test
    void negativeValueLengthIsRefused() throws Exception {
        ByteBuffer bad = raw().rawRecord(Body.start(0).field(RawBatch.bytes("k")).varint(-7).varint(0)).build();
        assertInvalidRecord(rejected(bad), "Record 0 has invalid value length -7");
    }

    @Test
    void valueLengthOverrunningTheRecordIsRefused() throws Exception {
        ByteBuffer bad = raw().rawRecord(Body.start(0).field(RawBatch.bytes("k")).varint(64).bytes(new byte[3])
                .varint(0)).build();
        assertInvalidRecord(rejected(bad), "Record 0 has value length 64");
    }

    @Test
    void negativeHeaderCountIsRefused() throws Exception {
        ByteBuffer bad = raw().rawRecord(Body.start(0).field(null).field(null).varint(-1)).build();
        assertInvalidRecord(rejected(bad), "Found invalid number of record headers -1");
    }

    @Test
    void nullHeaderKeyIsRefused() throws Exception {
        ByteBuffer bad = raw().rawRecord(Body.start(0).field(null).field(null).varint(1).varint(-1).field(null)).build();
        assertInvalidRecord(rejected(bad), "Invalid negative header key size -1");
    }

    @Test
    void headerValueOverrunningTheRecordIsRefused() throws Exception {
        ByteBuffer bad = raw().rawRecord(Body.start(0).field(null).field(null).varint(1).field(RawBatch.bytes("h"))
                .varint(40).b(1)).build();
        assertInvalidRecord(rejected(bad), "Record 0 has header value length 40");
    }

    @Test
    void garbagePayloadIsRefused() throws Exception {
        byte[] garbage = new byte[64];
        new java.util.Random(6).nextBytes(garbage);
        ByteBuffer bad = raw().raw(garbage).count(3).build();
        assertThat(rejected(bad).errorCode()).isEqualTo(ErrorCode.INVALID_RECORD);
    }

    @Test
    void unterminatedVarintIsRefused() throws Exception {
        ByteBuffer bad = raw().raw((byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0x01)
                .count(1).build();
        assertInvalidRecord(rejected(bad), "varint longer than 5 bytes");
    }

    @Test
    void wellFormedRecordsWithHeadersNullKeysAndTombstonesAreAccepted() {
        ByteBuffer good = raw()
                .rawRecord(Body.start(0).field(null).field(RawBatch.bytes("a")).varint(2)
                        .field(RawBatch.bytes("h1")).field(null).field(RawBatch.bytes("h2")).field(RawBatch.bytes("x")))
                .rawRecord(Body.start(1).field(RawBatch.bytes("k")).field(RawBatch.bytes("b")).varint(0))
                .build();
        assertThat(accepted(good, LogConfig.defaults())).containsExactly("0:a", "1:b");
    }

    // ------------------------------------------------------------------ attributes

    @Test
    void compressionCodecSevenIsRefused() throws Exception {
        assertInvalidRecord(rejected(raw().record("k", "v").attributes(7).build()), "Unknown compression type id: 7");
    }

    @Test
    void gzipFlagOnAPlainPayloadIsRefused() throws Exception {
        assertInvalidRecord(rejected(raw().record("k", "v").attributes(1).build()), "Failed to decompress record stream (gzip)");
    }

    @Test
    void controlFlagFromAClientIsRefused() throws Exception {
        assertInvalidRecord(rejected(raw().record("k", "v").attributes(0x20).build()),
                "Clients are not allowed to write control records");
    }

    @Test
    void transactionalFlagWithoutAProducerIdIsRefused() throws Exception {
        assertInvalidRecord(rejected(raw().record("k", "v").attributes(0x10).build()),
                "Transactional record batch without a producer id");
    }

    @Test
    void producerIdWithoutASequenceIsRefused() throws Exception {
        assertInvalidRecord(rejected(raw().record("k", "v").producer(42L, -1).build()),
                "Invalid sequence number -1 in record batch with producerId 42");
    }

    @Test
    void crcStillComesFirstAsCorruptMessage() throws Exception {
        ByteBuffer bad = raw().record("k", "v").count(Integer.MAX_VALUE).build();
        bad.put(bad.limit() - 1, (byte) 0x55);
        assertThat(rejected(bad).errorCode()).isEqualTo(ErrorCode.CORRUPT_MESSAGE);
    }

    @Test
    void brokerWrittenControlBatchesPassWhenNotFromAClient() {
        ByteBuffer marker = raw().record("k", "v").attributes(0x30).producer(5L, 0).build();
        assertThat(BatchValidator.validate(marker, LogConfig.defaults(), "t", 0, NOW, false)).isEqualTo(1);
        assertInvalidRecord(catchThrowableOfType(LogAppendException.class,
                () -> BatchValidator.validate(marker, LogConfig.defaults(), "t", 0, NOW)), "control records");
    }

    @Test
    void kafkaBuiltBatchesStillPass() {
        assertThat(accepted(Batches.concat(batch(NOW, "a", "b"), Batches.idempotent(7L, (short) 0, 0, NOW, "c")),
                LogConfig.defaults())).containsExactly("0:a", "1:b", "2:c");
    }

    // ------------------------------------------------------------------ compressed batches (1 gzip, 2 snappy, 3 lz4, 4 zstd)

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void kafkaCompressedBatchesOfEveryCodecAreAcceptedAndStoredAsSent(int codec) {
        Compression compression = switch (codec) {
            case 1 -> Compression.gzip().build();
            case 2 -> Compression.snappy().build();
            case 3 -> Compression.lz4().build();
            default -> Compression.zstd().build();
        };
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(4096), RecordBatch.MAGIC_VALUE_V2,
                compression, TimestampType.CREATE_TIME, 0L, NOW, 9L, (short) 0, 0, false, -1);
        for (int i = 0; i < 50; i++) {
            b.append(new SimpleRecord(NOW + i, RawBatch.bytes("key-" + i), RawBatch.bytes("value-" + i),
                    new Header[] {new RecordHeader("h", RawBatch.bytes("x"))}));
        }
        ByteBuffer sent = b.build().buffer();
        byte[] compressedRecords = Batches.bytes(sent.duplicate().position(RecordBatchHeader.HEADER_SIZE));
        long sentCrc = new RecordBatchHeader(sent, 0).crc();

        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, LogConfig.defaults(),
                PartitionLog.Options.defaults().withClock(clock))) {
            log.append(sent, 0);
            ByteBuffer stored = readSlice(log.read(0L, 1 << 20));
            assertThat(Batches.bytes(stored.duplicate().position(RecordBatchHeader.HEADER_SIZE)))
                    .as("never recompressed").isEqualTo(compressedRecords);
            RecordBatchHeader storedHeader = new RecordBatchHeader(stored, 0);
            assertThat(storedHeader.maxTimestamp()).isEqualTo(NOW + 49);
            assertThat(storedHeader.crc()).as("a Kafka producer's max timestamp needs no correction").isEqualTo(sentCrc);
            assertThat(offsetsAndValues(stored)).hasSize(50).startsWith("0:value-0").endsWith("49:value-49");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void compressedCountLargerThanTheRecordsPresentIsRefused(int codec) throws Exception {
        ByteBuffer bad = raw().record("k", "a").count(Integer.MAX_VALUE).compressed(codec).build();
        assertInvalidRecord(rejected(bad), "premature EOF");
    }

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void compressedCountSmallerThanTheRecordsPresentIsRefused(int codec) throws Exception {
        ByteBuffer bad = raw().record("k", "a").record("k", "b").count(1).compressed(codec).build();
        assertInvalidRecord(rejected(bad), "records still remaining");
    }

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void compressedNegativeKeyLengthIsRefused(int codec) throws Exception {
        ByteBuffer bad = raw().record("k", "a").rawRecord(Body.start(1).varint(-9).field(null).varint(0))
                .compressed(codec).build();
        assertInvalidRecord(rejected(bad), "Record 1 has invalid key length -9");
    }

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void compressedValueOverrunningItsRecordIsRefused(int codec) throws Exception {
        ByteBuffer bad = raw().rawRecord(Body.start(0).field(null).varint(90).bytes(new byte[4]).varint(0))
                .record("k", "b").compressed(codec).build();
        assertInvalidRecord(rejected(bad), "Record 0 has value length 90");
    }

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void compressedOffsetDeltasOutOfSequenceAreRefused(int codec) throws Exception {
        ByteBuffer bad = raw().record(0, 0, null, RawBatch.bytes("a")).record(0, 0, null, RawBatch.bytes("b"))
                .compressed(codec).build();
        assertInvalidRecord(rejected(bad), "Record 1 has offset delta 0");
    }

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void garbageThatDoesNotDecompressIsRefused(int codec) throws Exception {
        byte[] garbage = new byte[200];
        new java.util.Random(codec).nextBytes(garbage);
        ByteBuffer bad = raw().raw(garbage).count(2).attributes(codec).build();
        assertThat(rejected(bad).errorCode()).isEqualTo(ErrorCode.INVALID_RECORD);
    }

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void truncatedCompressedStreamIsRefused(int codec) throws Exception {
        RawBatch b = raw();
        for (int i = 0; i < 40; i++) {
            b.record("key-" + i, "some value that is " + i);
        }
        byte[] whole = RawBatch.compress(codec, recordsOf(b));
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length / 2);
        ByteBuffer bad = raw().raw(cut).count(40).attributes(codec).build();
        assertThat(rejected(bad).errorCode()).isEqualTo(ErrorCode.INVALID_RECORD);
    }

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void recordLargerThanMaxDecompressedMessageBytesIsRefusedBeforeItIsRead(int codec) throws Exception {
        // 8 MiB of zeros compresses to a few KiB: a small request that would make the broker inflate megabytes.
        ByteBuffer bomb = raw().record(0, 0, null, new byte[8 << 20]).compressed(codec).build();
        assertThat(bomb.remaining()).isLessThan(1 << 20);
        LogAppendException e = rejected(bomb, config(Map.of(LogConfig.MAX_DECOMPRESSED_MESSAGE_BYTES, "65536")));
        assertInvalidRecord(e, "exceeds the configured maximum record size of 65536");
    }

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void megabytesAfterTheDeclaredRecordsAreRefusedWithoutInflatingThem(int codec) throws Exception {
        byte[] records = recordsOf(raw().record("k", "a"));
        byte[] padded = java.util.Arrays.copyOf(records, records.length + (16 << 20));
        ByteBuffer bomb = raw().raw(RawBatch.compress(codec, padded)).count(1).attributes(codec).build();
        assertInvalidRecord(rejected(bomb), "records still remaining");
    }

    @Test
    void lz4FramesWithChecksumsContentSizeAndSeveralBlocksAreWalked() throws Exception {
        RawBatch b = raw();
        java.util.Random random = new java.util.Random(3);
        for (int i = 0; i < 40; i++) {
            byte[] value = new byte[3000]; // incompressible: some blocks are stored as they are
            random.nextBytes(value);
            b.record(0, i, RawBatch.bytes("key-" + i), value);
        }
        byte[] plain = recordsOf(b);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (net.jpountz.lz4.LZ4FrameOutputStream lz4 = new net.jpountz.lz4.LZ4FrameOutputStream(out,
                net.jpountz.lz4.LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB, plain.length,
                net.jpountz.lz4.LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE,
                net.jpountz.lz4.LZ4FrameOutputStream.FLG.Bits.BLOCK_CHECKSUM,
                net.jpountz.lz4.LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM,
                net.jpountz.lz4.LZ4FrameOutputStream.FLG.Bits.CONTENT_SIZE)) {
            lz4.write(plain);
        }
        ByteBuffer good = raw().raw(out.toByteArray()).count(40).attributes(3).build();
        assertThat(BatchValidator.validate(good, LogConfig.defaults(), "t", 0, NOW)).isEqualTo(1);

        ByteBuffer oneShort = raw().raw(out.toByteArray()).count(41).attributes(3).build();
        assertInvalidRecord(rejected(oneShort), "premature EOF");
    }

    @Test
    void kafkaLz4BatchOfIncompressibleValuesIsAccepted() {
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(1 << 18), RecordBatch.MAGIC_VALUE_V2,
                Compression.lz4().build(), TimestampType.CREATE_TIME, 0L, NOW, -1L, (short) -1, -1, false, -1);
        java.util.Random random = new java.util.Random(4);
        for (int i = 0; i < 30; i++) {
            byte[] value = new byte[4000];
            random.nextBytes(value);
            value[0] = (byte) 'v';
            b.append(new SimpleRecord(NOW, RawBatch.bytes("k" + i), value));
        }
        assertThat(accepted(b.build().buffer(), LogConfig.defaults())).hasSize(30);
    }

    @ParameterizedTest(name = "codec {0}")
    @ValueSource(ints = {0, 1, 2, 3, 4})
    void batchesInDirectBuffersAsNettyHandsThemOverAreWalkedToo(int codec) {
        RawBatch b = raw();
        for (int i = 0; i < 20; i++) {
            b.record("key-" + i, "value " + i + " ".repeat(i * 50));
        }
        ByteBuffer heap = codec == 0 ? b.build() : b.compressed(codec).build();
        ByteBuffer direct = ByteBuffer.allocateDirect(heap.remaining() + 7).position(7);
        direct.put(heap.duplicate()).position(7);
        assertThat(BatchValidator.validate(direct, LogConfig.defaults(), "t", 0, NOW)).isEqualTo(1);

        direct.putInt(7 + RecordBatchHeader.LAST_OFFSET_DELTA_OFFSET, 20).putInt(7 + RecordBatchHeader.RECORDS_COUNT_OFFSET, 21);
        ByteBuffer view = direct.duplicate();
        view.putInt(7 + RecordBatchHeader.CRC_OFFSET, (int) new RecordBatchHeader(view, 7).computeCrc());
        LogAppendException e = catchThrowableOfType(LogAppendException.class,
                () -> BatchValidator.validate(direct, LogConfig.defaults(), "t", 0, NOW));
        assertInvalidRecord(e, "premature EOF");
    }

    @Test
    void rawSnappyWithoutFramingIsReadAsOneBlockAsKafkaDoes() throws Exception {
        byte[] plain = recordsOf(raw().record("k", "a").record("k", "b"));
        ByteBuffer unframed = raw().raw(org.xerial.snappy.Snappy.compress(plain)).count(2).attributes(2).build();
        assertThat(accepted(unframed, LogConfig.defaults())).containsExactly("0:a", "1:b");
    }

    @ParameterizedTest(name = "framed {0}")
    @ValueSource(booleans = {true, false})
    void aSnappyBlockClaimingTwoGigabytesIsRefusedBeforeAnythingIsAllocated(boolean framed) throws Exception {
        // Varint preamble 2^31-1, then a few literal bytes: no snappy block of 8 bytes can expand that far.
        byte[] chunk = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07, 0x08, 'a', 'b'};
        ByteBuffer stream = ByteBuffer.allocate(16 + 4 + chunk.length)
                .put(new byte[] {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0}).putInt(1).putInt(1)
                .putInt(chunk.length).put(chunk);
        ByteBuffer bomb = raw().raw(framed ? stream.array() : chunk).count(1).attributes(2).build();
        assertInvalidRecord(rejected(bomb, LogConfig.defaults()), "claims 2147483647 uncompressed");
    }

    @Test
    void concatenatedSnappyStreamsAreReadThrough() {
        byte[] both = recordsOf(raw().record("k", "a").record("k", "b"));
        int firstLength = recordsOf(raw().record("k", "a")).length;
        byte[] first = RawBatch.compress(2, java.util.Arrays.copyOfRange(both, 0, firstLength));
        byte[] second = RawBatch.compress(2, java.util.Arrays.copyOfRange(both, firstLength, both.length));
        ByteBuffer good = raw().raw(first).raw(second).count(2).attributes(2).build();
        assertThat(BatchValidator.validate(good, LogConfig.defaults(), "t", 0, NOW)).isEqualTo(1);
    }

    /** The uncompressed records section {@code b} would carry. */
    static byte[] recordsOf(RawBatch b) {
        ByteBuffer built = b.build();
        return Batches.bytes(built.position(RecordBatchHeader.HEADER_SIZE));
    }

    // ------------------------------------------------------------------ timestamps and compacted keys

    static final long HOUR = 3_600_000L;

    @Test
    void timestampMoreThanAnHourAheadIsInvalidTimestampNamingTheRecord() throws Exception {
        ByteBuffer bad = raw().record(0, 0, null, RawBatch.bytes("a")).record(2 * HOUR, 1, null, RawBatch.bytes("b"))
                .record(HOUR / 2, 2, null, RawBatch.bytes("c")).build();
        LogAppendException e = rejected(bad);
        assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_TIMESTAMP);
        assertThat(e.getMessage()).isEqualTo("One or more records have been rejected due to invalid timestamp");
        assertThat(e.recordErrors()).containsExactly(new RecordError(1, "Timestamp " + (NOW + 2 * HOUR)
                + " of message with offset 1 is out of range. The timestamp should be within ["
                + (NOW - Long.MAX_VALUE) + ", " + (NOW + HOUR) + "]"));
    }

    @Test
    void timestampOlderThanBeforeMaxMsIsInvalidTimestamp() throws Exception {
        ByteBuffer bad = raw().baseTimestamp(NOW - 5000).record("k", "old").build();
        LogAppendException e = rejected(bad, config(Map.of(LogConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS, "1000")));
        assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_TIMESTAMP);
        assertThat(e.recordErrors()).extracting(RecordError::batchIndex).containsExactly(0);
        assertThat(e.recordErrors().get(0).message()).contains("should be within [" + (NOW - 1000) + ", ");
    }

    @Test
    void compressedBatchWithAFutureTimestampIsInvalidTimestamp() throws Exception {
        ByteBuffer bad = raw().record("k", "a").record(5 * HOUR, 1, null, RawBatch.bytes("b")).compressed(4).build();
        LogAppendException e = rejected(bad);
        assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_TIMESTAMP);
        assertThat(e.recordErrors()).extracting(RecordError::batchIndex).containsExactly(1);
    }

    @Test
    void timestampsWithinTheBoundsAreAccepted() {
        ByteBuffer good = raw().baseTimestamp(NOW - 400 * 24 * HOUR).record("k", "last year")
                .record(400 * 24 * HOUR + HOUR - 1, 1, null, RawBatch.bytes("almost an hour ahead")).build();
        assertThat(accepted(good, LogConfig.defaults())).containsExactly("0:last year", "1:almost an hour ahead");
    }

    @Test
    void logAppendTimeTopicIgnoresTheProducersTimestamps() {
        ByteBuffer good = raw().baseTimestamp(NOW + 100 * HOUR).record("k", "future").build();
        assertThat(accepted(good, config(Map.of(LogConfig.MESSAGE_TIMESTAMP_TYPE, LogConfig.LOG_APPEND_TIME))))
                .containsExactly("0:future");
    }

    @Test
    void producerSettingLogAppendTimeOnALogAppendTimeTopicIsInvalidTimestamp() throws Exception {
        ByteBuffer bad = raw().record("k", "a").attributes(0x08).build();
        LogAppendException e = rejected(bad, config(Map.of(LogConfig.MESSAGE_TIMESTAMP_TYPE, LogConfig.LOG_APPEND_TIME)));
        assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_TIMESTAMP);
        assertThat(e.recordErrors()).singleElement().satisfies(r -> {
            assertThat(r.batchIndex()).isZero();
            assertThat(r.message()).endsWith("Producer should not set timestamp type to LogAppendTime.");
        });
    }

    @Test
    void compactedTopicRefusesRecordsWithoutAKeyListingEachOne() throws Exception {
        ByteBuffer bad = raw().record("k", "a").record(null, "b").record(null, "c").build();
        LogAppendException e = rejected(bad, config(Map.of(LogConfig.CLEANUP_POLICY, "compact")));
        assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_RECORD);
        String noKey = "Compacted topic cannot accept message without key in topic partition t-0.";
        assertThat(e.recordErrors()).containsExactly(new RecordError(1, noKey), new RecordError(2, noKey));
        assertThat(e.getMessage()).startsWith("One or more records have been rejected due to 2 record errors in total");
    }

    @Test
    void aThousandKeylessRecordsKeepTheFirstHundredErrorsAndCountTheRest() throws Exception {
        RawBatch batch = raw();
        for (int i = 0; i < 1000; i++) {
            batch.record(null, "v" + i);
        }
        LogAppendException e = rejected(batch.build(), config(Map.of(LogConfig.CLEANUP_POLICY, "compact")));
        assertThat(e.recordErrors()).hasSize(100);
        assertThat(e.recordErrors().get(99).batchIndex()).isEqualTo(99);
        assertThat(e.getMessage()).startsWith("One or more records have been rejected due to 1000 record errors in total");
    }

    @Test
    void aHeaderMaxTimestampThatIsNotTheRecordsIsCorrectedAsKafkaDoes() {
        // Retention and producer expiry trust the header's max timestamp: a producer cannot pin it far ahead.
        ByteBuffer lying = raw().record(0, 0, RawBatch.bytes("k"), RawBatch.bytes("a"))
                .record(5_000, 1, RawBatch.bytes("k"), RawBatch.bytes("b")).maxTimestamp(Long.MAX_VALUE).build();
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, config(Map.of()),
                PartitionLog.Options.defaults().withClock(clock))) {
            assertThat(log.append(lying, 0).lastOffset()).isEqualTo(1L);
            RecordBatchHeader stored = new RecordBatchHeader(lying, 0);
            assertThat(stored.maxTimestamp()).isEqualTo(NOW + 5_000);
            assertThat(stored.isValidCrc()).isTrue();
            assertThat(log.maxTimestampOffset()).contains(new OffsetAndTimestamp(1L, NOW + 5_000));
        }
    }

    @Test
    void compactedTopicRefusesACompressedRecordWithoutAKey() throws Exception {
        ByteBuffer bad = raw().record("k", "a").record(null, "b").compressed(3).build();
        LogAppendException e = rejected(bad, config(Map.of(LogConfig.CLEANUP_POLICY, "compact,delete")));
        assertThat(e.recordErrors()).extracting(RecordError::batchIndex).containsExactly(1);
    }

    @Test
    void compactedTopicAcceptsKeyedRecordsAndKeyedTombstones() {
        ByteBuffer good = raw().record("k1", "a").record(0, 1, RawBatch.bytes("k2"), null).record("k3", "c").build();
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, config(Map.of(LogConfig.CLEANUP_POLICY, "compact")),
                PartitionLog.Options.defaults().withClock(clock))) {
            assertThat(log.append(good, 0).lastOffset()).isEqualTo(2L);
        }
    }

    // ------------------------------------------------------------------ header-only mode

    @Test
    void headerOnlyModeTrustsTheRecordsAndStoresWhatAFullCheckRefuses() {
        ByteBuffer unchecked = raw().rawRecord(Body.start(0).varint(-2).field(null).varint(0)).build();
        try (PartitionLog log = PartitionLog.open(logDir, "t", 0, LogConfig.defaults().withFullRecordValidation(false),
                PartitionLog.Options.defaults().withClock(clock))) {
            assertThat(log.append(unchecked, 0).baseOffset()).isZero();
            assertThat(log.logEndOffset()).isEqualTo(1L);
        }
    }

    @Test
    void headerOnlyModeStillRefusesBadHeaders() throws Exception {
        ByteBuffer bad = raw().record("k", "v").attributes(0x20).build();
        assertInvalidRecord(rejected(bad, LogConfig.defaults().withFullRecordValidation(false)),
                "Clients are not allowed to write control records");
    }
}
