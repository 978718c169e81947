package io.odradek.log.validation;

import io.odradek.log.BatchValidator;
import io.odradek.log.LogConfig;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.ToLongFunction;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.internals.BufferSupplier;
import org.apache.kafka.common.utils.internals.CloseableIterator;

/**
 * What produce validation costs, per record and per MB, for an uncompressed batch and each codec: Odradek's
 * full walk, Odradek's header-only mode, and for reference Kafka's own record iteration as its LogValidator
 * does it (CRC check, then every record read; compressed batches through {@code skipKeyValueIterator};
 * without the recompression or offset rewriting Kafka may add on top). A measurement, not a test; run it
 * by hand from the repository root:
 * <pre>
 * mvn -B -q -o test-compile -pl log -am
 * mvn -B -q -o org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath -pl log \
 *     -Dmdep.includeScope=test -Dmdep.outputFile=/tmp/log.cp
 * java -cp "log/target/test-classes:log/target/classes:wire/target/classes:$(cat /tmp/log.cp)" \
 *     io.odradek.log.validation.ValidationCost
 * </pre>
 * Each line is the median of {@value #ROUNDS} timed rounds of {@value #ROUND_MS} ms after a warm-up; the
 * validators of one case run interleaved, round by round, and the last column is the median per-round
 * ratio to Kafka's iteration (below 1: Odradek is cheaper), which stays meaningful on a loaded machine.
 */
public final class ValidationCost {
    private static final int ROUNDS = 7;
    private static final int ROUND_MS = 200;
    private static final long NOW = System.currentTimeMillis();
    private static final ThreadLocal<BufferSupplier> SUPPLIER = ThreadLocal.withInitial(BufferSupplier::create);
    private static volatile long sink;

    private ValidationCost() {
    }

    public static void main(String[] args) {
        // optional argument: the codecs to measure, e.g. "none,lz4"
        String[] codecs = args.length > 0 ? args[0].split(",") : new String[] {"none", "gzip", "snappy", "lz4", "zstd"};
        int[][] shapes = {{100, 100}, {16, 1024}}; // records x value bytes: small records, 1 KB records
        LogConfig full = LogConfig.defaults();
        LogConfig header = full.withFullRecordValidation(false);
        System.out.printf("%-7s %-9s %7s %7s | %-11s %10s %10s %10s %12s%n", "codec", "batch", "wire B", "raw B",
                "validator", "ns/record", "MB/s wire", "MB/s raw", "x kafka-iter");
        for (int[] shape : shapes) {
            int rawBytes = batch("none", shape[0], shape[1]).remaining();
            for (String codec : codecs) {
                ByteBuffer batch = batch(codec, shape[0], shape[1]);
                measure(codec, shape[0] + "x" + shape[1] + "B", batch, rawBytes, shape[0], new String[] {
                    "kafka-iter", "odradek", "header-only"}, List.of(
                        ValidationCost::kafkaWalk,
                        b -> BatchValidator.validate(b, full, "t", 0, NOW),
                        b -> BatchValidator.validate(b, header, "t", 0, NOW)));
            }
        }
    }

    /**
     * Times the validators in interleaved rounds (each round runs every validator once), so that load from
     * other processes hits them alike; prints each one's median and its median per-round ratio to the first.
     */
    private static void measure(String codec, String name, ByteBuffer batch, int rawBytes, int records, String[] who,
                                List<ToLongFunction<ByteBuffer>> validators) {
        long roundNanos = ROUND_MS * 1_000_000L;
        for (ToLongFunction<ByteBuffer> v : validators) {
            timeRound(v, batch, 3 * roundNanos); // warm-up
        }
        double[][] ns = new double[validators.size()][ROUNDS];
        double[][] ratio = new double[validators.size()][ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            for (int i = 0; i < validators.size(); i++) {
                ns[i][r] = timeRound(validators.get(i), batch, roundNanos);
                ratio[i][r] = ns[i][r] / ns[0][r];
            }
        }
        for (int i = 0; i < validators.size(); i++) {
            double median = median(ns[i]);
            System.out.printf("%-7s %-9s %7d %7d | %-11s %10.1f %10.1f %10.1f %12.2f%n", codec, name, batch.remaining(),
                    rawBytes, who[i], median / records, batch.remaining() / median * 1e3, rawBytes / median * 1e3,
                    median(ratio[i]));
        }
    }

    /** Nanoseconds per batch over one round of about {@code nanos}. */
    private static double timeRound(ToLongFunction<ByteBuffer> validate, ByteBuffer batch, long nanos) {
        long start = System.nanoTime();
        long n = 0;
        long now;
        do {
            for (int i = 0; i < 16; i++) {
                sink += validate.applyAsLong(batch);
            }
            n += 16;
            now = System.nanoTime();
        } while (now - start < nanos);
        return (double) (now - start) / n;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** Kafka's produce-side work on one batch: CRC, then every record read (keys/values skipped when compressed). */
    private static long kafkaWalk(ByteBuffer buffer) {
        long n = 0;
        for (MutableRecordBatch batch : MemoryRecords.readableRecords(buffer.duplicate()).batches()) {
            batch.ensureValid();
            if (batch.isCompressed()) {
                try (CloseableIterator<Record> it = batch.skipKeyValueIterator(SUPPLIER.get())) {
                    while (it.hasNext()) {
                        Record r = it.next();
                        n += r.timestamp() + (r.hasKey() ? 1 : 0);
                    }
                }
            } else {
                for (Record r : batch) {
                    n += r.timestamp() + (r.hasKey() ? 1 : 0);
                }
            }
        }
        return n;
    }

    private static ByteBuffer batch(String codec, int records, int valueBytes) {
        Compression compression = switch (codec) {
            case "gzip" -> Compression.gzip().build();
            case "snappy" -> Compression.snappy().build();
            case "lz4" -> Compression.lz4().build();
            case "zstd" -> Compression.zstd().build();
            default -> Compression.NONE;
        };
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(records * (valueBytes + 64) + 256),
                RecordBatch.MAGIC_VALUE_V2, compression, TimestampType.CREATE_TIME, 0L, NOW, 1000L, (short) 0, 0,
                false, RecordBatch.NO_PARTITION_LEADER_EPOCH);
        for (SimpleRecord r : records(records, valueBytes)) {
            b.append(r);
        }
        return b.build().buffer();
    }

    /** JSON-like values: realistic for the codecs, neither all zeros nor random bytes. */
    private static List<SimpleRecord> records(int count, int valueBytes) {
        Random random = new Random(42);
        List<SimpleRecord> out = new ArrayList<>(count);
        String[] words = {"alpha", "beta", "gamma", "delta", "order", "user", "price", "status", "created", "true"};
        for (int i = 0; i < count; i++) {
            StringBuilder v = new StringBuilder("{\"id\":").append(i);
            while (v.length() < valueBytes) {
                v.append(",\"").append(words[random.nextInt(words.length)]).append("\":").append(random.nextInt(100_000));
            }
            String value = v.substring(0, valueBytes - 1) + "}";
            out.add(new SimpleRecord(NOW + i, ("key-" + i).getBytes(StandardCharsets.UTF_8),
                    value.getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }
}
