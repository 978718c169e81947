package io.odradek.compat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads the batch framing of a Kafka log segment (v2 record batches back to back) the way a person with
 * a hex editor would: base offset, length, last offset delta. Stops at the first incomplete batch.
 */
final class SegmentFile {
    private static final int LOG_OVERHEAD = 12; // base offset (8) + batch length (4)
    private static final int LAST_OFFSET_DELTA = 23; // from the start of the batch
    private static final int RECORDS_COUNT = 57;

    private SegmentFile() {
    }

    /** One batch's place in the file. */
    record Batch(long position, int size, long baseOffset, long lastOffset, int count) {
    }

    static List<Batch> batches(Path log) throws IOException {
        List<Batch> batches = new ArrayList<>();
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ)) {
            long position = 0;
            ByteBuffer header = ByteBuffer.allocate(61);
            while (position + header.capacity() <= ch.size()) {
                header.clear();
                ch.read(header, position);
                long baseOffset = header.getLong(0);
                int size = LOG_OVERHEAD + header.getInt(8);
                if (size < header.capacity() || position + size > ch.size()) {
                    break;
                }
                batches.add(new Batch(position, size, baseOffset, baseOffset + header.getInt(LAST_OFFSET_DELTA),
                        header.getInt(RECORDS_COUNT)));
                position += size;
            }
        }
        return batches;
    }

    /** The only .log file in a partition directory, as Kafka names it (20-digit base offset). */
    static Path onlyLogSegment(Path partitionDir) throws IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            List<Path> logs = files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList();
            if (logs.size() != 1) {
                throw new AssertionError("expected one segment in " + partitionDir + ", found " + logs);
            }
            return logs.get(0);
        }
    }
}
