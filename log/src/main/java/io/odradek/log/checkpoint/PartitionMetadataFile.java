package io.odradek.log.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Kafka's {@code partition.metadata}: {@code version: 0\ntopic_id: <base64url, no padding, of the 16-byte id>}. */
public final class PartitionMetadataFile {
    public static final String FILE_NAME = "partition.metadata";

    private PartitionMetadataFile() {
    }

    public static void write(Path partitionDir, UUID topicId) throws IOException {
        AtomicFile.write(partitionDir.resolve(FILE_NAME), "version: 0\ntopic_id: " + toKafkaString(topicId) + "\n");
    }

    public static Optional<UUID> read(Path partitionDir) throws IOException {
        Path file = partitionDir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (String line : lines) {
            if (line.startsWith("topic_id:")) {
                return Optional.of(fromKafkaString(line.substring("topic_id:".length()).trim()));
            }
        }
        throw new IOException("no topic_id in " + file);
    }

    /** Kafka's {@code Uuid.toString()}: URL-safe base64 of the 16 bytes, without padding. */
    public static String toKafkaString(UUID id) {
        ByteBuffer b = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
    }

    public static UUID fromKafkaString(String s) {
        ByteBuffer b = ByteBuffer.wrap(Base64.getUrlDecoder().decode(s));
        return new UUID(b.getLong(), b.getLong());
    }
}
