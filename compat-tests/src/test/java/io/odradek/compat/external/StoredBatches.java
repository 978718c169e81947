package io.odradek.compat.external;

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
 * The compression codec of each record batch a partition holds on disk, read from the v2 batch headers
 * (attributes bits 0-2: 0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd), to check that the broker stored the
 * batch as the client compressed it.
 */
final class StoredBatches {
    private static final int LOG_OVERHEAD = 12; // base offset (8) + batch length (4)
    private static final int ATTRIBUTES = 21; // after partition leader epoch (4), magic (1), crc (4)
    static final List<String> CODECS = List.of("none", "gzip", "snappy", "lz4", "zstd");

    private StoredBatches() {
    }

    static List<String> codecs(Path partitionDir) throws IOException {
        List<String> codecs = new ArrayList<>();
        List<Path> segments;
        try (Stream<Path> files = Files.list(partitionDir)) {
            segments = files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList();
        }
        for (Path segment : segments) {
            try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.READ)) {
                ByteBuffer header = ByteBuffer.allocate(ATTRIBUTES + 2);
                long position = 0;
                while (position + header.capacity() <= ch.size()) {
                    header.clear();
                    ch.read(header, position);
                    int length = header.getInt(8);
                    if (length <= 0) {
                        break; // zeros past the last batch, if a segment was preallocated
                    }
                    codecs.add(CODECS.get(header.getShort(ATTRIBUTES) & 0x7));
                    position += LOG_OVERHEAD + length;
                }
            }
        }
        return codecs;
    }
}
