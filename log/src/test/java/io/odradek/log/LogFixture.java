package io.odradek.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.RecordBatch;

/** Small helpers shared by the log tests. */
final class LogFixture {
    private LogFixture() {
    }

    static LogConfig config(Map<String, String> overrides) {
        return LogConfig.defaults().with(overrides);
    }

    static ByteBuffer readSlice(FileSlice slice) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        slice.transferTo(Channels.newChannel(out));
        return ByteBuffer.wrap(out.toByteArray());
    }

    /** The .log segment files in {@code dir}, oldest first. */
    static List<Path> segmentFiles(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList();
        }
    }

    /** Every batch of every segment file, read by Kafka's FileRecords: all valid, magic v2, offsets increasing. */
    static List<RecordBatch> segmentFileBatches(PartitionLog log) throws IOException {
        List<RecordBatch> out = new ArrayList<>();
        long next = 0;
        for (Path p : segmentFiles(log.dir())) {
            try (FileRecords records = FileRecords.open(new File(p.toString()), false)) {
                for (RecordBatch batch : records.batches()) {
                    batch.ensureValid();
                    assertThat(batch.magic()).isEqualTo(RecordBatch.MAGIC_VALUE_V2);
                    assertThat(batch.baseOffset()).isGreaterThanOrEqualTo(next);
                    next = batch.lastOffset() + 1;
                    out.add(batch);
                }
            }
        }
        return out;
    }

    /** File name -> bytes of every file under {@code dir}, to prove nothing changed. */
    static Map<String, byte[]> snapshotFiles(Path dir) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        return files;
    }

    /** A clock tests move by hand. */
    static final class ManualClock extends Clock {
        private volatile long now;

        ManualClock(long now) {
            this.now = now;
        }

        void set(long ms) {
            now = ms;
        }

        @Override
        public long millis() {
            return now;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(now);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
