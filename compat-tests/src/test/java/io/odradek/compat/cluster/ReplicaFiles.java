package io.odradek.compat.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;

/**
 * What one replica holds on disk: the records of a partition's segment files in a node's log directory, read
 * with Kafka's own FileRecords (so a follower's copy is checked without asking any broker). A batch still being
 * written at the end of the last segment is left out, as Kafka's reader does.
 */
final class ReplicaFiles {
    private ReplicaFiles() {
    }

    /** One data record as stored: its offset, key and value (UTF-8). */
    record Entry(long offset, String key, String value) {
        @Override
        public String toString() {
            return offset + ":" + key + "=" + value;
        }
    }

    /** What the replica holds: its data records in offset order and its log end offset (control batches count). */
    record Content(List<Entry> records, long logEnd) {
        List<String> values() {
            return records.stream().map(Entry::value).toList();
        }
    }

    /** Null when the node holds no replica of the partition. */
    static Content read(Path logDir, String topic, int partition) throws IOException {
        Path partitionDir = logDir.resolve(topic + "-" + partition);
        if (!Files.isDirectory(partitionDir)) {
            return null;
        }
        List<Path> segments;
        try (Stream<Path> files = Files.list(partitionDir)) {
            segments = files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList();
        }
        List<Entry> records = new ArrayList<>();
        long logEnd = 0;
        for (Path segment : segments) {
            try (FileRecords file = FileRecords.open(segment.toFile(), false)) {
                for (FileChannelRecordBatch batch : file.batches()) {
                    logEnd = batch.lastOffset() + 1;
                    if (batch.isControlBatch()) {
                        continue;
                    }
                    for (Record r : batch) {
                        records.add(new Entry(r.offset(), string(r.hasKey() ? r.key() : null),
                                string(r.hasValue() ? r.value() : null)));
                    }
                }
            }
        }
        return new Content(records, logEnd);
    }

    static boolean exists(Path logDir, String topic, int partition) {
        return Files.isDirectory(logDir.resolve(topic + "-" + partition));
    }

    private static String string(java.nio.ByteBuffer b) {
        if (b == null) {
            return null;
        }
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
