package io.odradek.log.checkpoint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kafka's per-log-dir offset checkpoints ({@code recovery-point-offset-checkpoint},
 * {@code log-start-offset-checkpoint}): {@code 0\n<count>\n<topic> <partition> <offset>\n...}.
 * Keys are {@code <topic>-<partition>} directory names.
 */
public final class OffsetCheckpointFile {
    public static final String RECOVERY_POINT = "recovery-point-offset-checkpoint";
    public static final String LOG_START_OFFSET = "log-start-offset-checkpoint";

    private OffsetCheckpointFile() {
    }

    public static void write(Path file, Map<String, Long> offsetsByPartitionDir) throws IOException {
        StringBuilder sb = new StringBuilder("0\n").append(offsetsByPartitionDir.size()).append('\n');
        offsetsByPartitionDir.forEach((dirName, offset) -> {
            int dash = dirName.lastIndexOf('-');
            sb.append(dirName, 0, dash).append(' ').append(dirName.substring(dash + 1)).append(' ')
                    .append(offset).append('\n');
        });
        AtomicFile.write(file, sb.toString());
    }

    /** The checkpointed offsets by {@code <topic>-<partition>}; empty when the file is missing or malformed. */
    public static Map<String, Long> read(Path file) {
        Map<String, Long> out = new HashMap<>();
        if (!Files.exists(file)) {
            return out;
        }
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            if (lines.size() < 2 || !lines.get(0).trim().equals("0")) {
                return out;
            }
            int count = Integer.parseInt(lines.get(1).trim());
            for (int i = 0; i < count && i + 2 < lines.size(); i++) {
                String[] parts = lines.get(i + 2).trim().split(" ");
                if (parts.length == 3) {
                    out.put(parts[0] + "-" + Integer.parseInt(parts[1]), Long.parseLong(parts[2]));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // A damaged checkpoint only costs a longer recovery: start from nothing.
            out.clear();
        }
        return out;
    }
}
