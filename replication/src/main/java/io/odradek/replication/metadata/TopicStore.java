package io.odradek.replication.metadata;

import io.odradek.log.checkpoint.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The topic catalog on disk: one line per topic, rewritten whole and atomically on every change (topic
 * changes are rare and the catalog is small). The format is line based so it can be read and diffed:
 * <pre>
 * # odradek topics v1
 * orders&lt;TAB&gt;aGVsbG8td29ybGQtMTIzNA&lt;TAB&gt;3&lt;TAB&gt;retention.ms=60000&amp;cleanup.policy=delete
 * </pre>
 * name, topic id (Kafka's base64 form), partition count, then the config overrides with URL-encoded values.
 */
public final class TopicStore {
    static final String HEADER = "# odradek topics v1";

    private final Path file;

    public TopicStore(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    public List<TopicInfo> load() {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the topic catalog " + file, e);
        }
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new IllegalStateException(file + " is not an Odradek topic catalog (expected '" + HEADER + "')");
        }
        List<TopicInfo> topics = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            try {
                topics.add(parse(line));
            } catch (RuntimeException e) {
                throw new IllegalStateException(file + " line " + (i + 1) + " is malformed: " + line, e);
            }
        }
        return topics;
    }

    public void save(Collection<TopicInfo> topics) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (TopicInfo t : topics) {
            sb.append(t.name()).append('\t').append(Ids.toBase64(t.id())).append('\t').append(t.partitions())
                    .append('\t').append(encode(t.configs())).append('\n');
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            AtomicFile.write(file, sb.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the topic catalog " + file, e);
        }
    }

    private static TopicInfo parse(String line) {
        String[] parts = line.split("\t", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("expected 4 tab-separated fields, found " + parts.length);
        }
        String name = parts[0];
        TopicNames.validate(name);
        int partitions = Integer.parseInt(parts[2]);
        if (partitions < 1) {
            throw new IllegalArgumentException("partition count " + partitions);
        }
        return new TopicInfo(name, Ids.fromBase64(parts[1]), partitions, decode(parts[3]),
                TopicNames.isInternal(name));
    }

    private static String encode(Map<String, String> configs) {
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(configs).forEach((k, v) -> {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
        });
        return sb.toString();
    }

    private static Map<String, String> decode(String s) {
        Map<String, String> configs = new TreeMap<>();
        if (s.isEmpty()) {
            return configs;
        }
        for (String pair : s.split("&")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("config entry without '=': " + pair);
            }
            configs.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return configs;
    }
}
