package io.odradek.replication.config;

import io.odradek.log.checkpoint.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link DynamicConfigs} on disk, beside the topic catalog, in the same line-based, diffable style, rewritten
 * whole and atomically (temp file, fsync, rename) on every change:
 * <pre>
 * # odradek dynamic configs v1
 * broker&lt;TAB&gt;&lt;TAB&gt;log.retention.ms=60000          (the cluster-wide default, entity "")
 * broker&lt;TAB&gt;1&lt;TAB&gt;message.max.bytes=2000000&amp;...
 * quota&lt;TAB&gt;client-id=app&amp;user&lt;TAB&gt;producer_byte_rate=1048576.0
 * group&lt;TAB&gt;my-group&lt;TAB&gt;share.auto.offset.reset=earliest&amp;...   (issue 12: GROUP resources)
 * </pre>
 * Names and values URL-encoded; in a quota entity a part without '=' is that type's default entity.
 */
public final class DynamicConfigFile {
    static final String HEADER = "# odradek dynamic configs v1";
    public static final String FILE_NAME = "dynamic-configs";

    private final Path file;

    public DynamicConfigFile(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    public DynamicConfigs load() {
        if (!Files.exists(file)) {
            return DynamicConfigs.EMPTY;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the dynamic configs " + file, e);
        }
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new IllegalStateException(file + " is not an Odradek dynamic config file (expected '" + HEADER + "')");
        }
        Map<String, Map<String, String>> brokers = new TreeMap<>();
        Map<QuotaEntity, Map<String, Double>> quotas = new TreeMap<>(DynamicConfigs.ENTITY_ORDER);
        Map<String, Map<String, String>> groups = new TreeMap<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            try {
                String[] parts = line.split("\t", -1);
                if (parts.length != 3) {
                    throw new IllegalArgumentException("expected 3 tab-separated fields, found " + parts.length);
                }
                Map<String, String> pairs = decode(parts[2]);
                if (parts[0].equals("broker")) {
                    brokers.put(URLDecoder.decode(parts[1], StandardCharsets.UTF_8), pairs);
                } else if (parts[0].equals("quota")) {
                    Map<String, Double> values = new TreeMap<>();
                    pairs.forEach((k, v) -> values.put(k, Double.parseDouble(v)));
                    quotas.put(QuotaEntity.of(decode(parts[1])), values);
                } else if (parts[0].equals("group")) {
                    groups.put(URLDecoder.decode(parts[1], StandardCharsets.UTF_8), pairs);
                } else {
                    throw new IllegalArgumentException("unknown entry kind " + parts[0]);
                }
            } catch (RuntimeException e) {
                throw new IllegalStateException(file + " line " + (i + 1) + " is malformed: " + line, e);
            }
        }
        return new DynamicConfigs(brokers, quotas, groups);
    }

    public void save(DynamicConfigs configs) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        configs.brokers().forEach((name, values) -> sb.append("broker\t").append(enc(name)).append('\t')
                .append(encode(values)).append('\n'));
        configs.quotas().forEach((entity, values) -> {
            Map<String, String> text = new LinkedHashMap<>();
            values.forEach((k, v) -> text.put(k, Double.toString(v)));
            sb.append("quota\t").append(encode(entity.parts())).append('\t').append(encode(text)).append('\n');
        });
        configs.groups().forEach((name, values) -> sb.append("group\t").append(enc(name)).append('\t')
                .append(encode(values)).append('\n'));
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            // Holds PASSWORD values (JAAS user_<name> passwords, keystore passwords): owner only, as the security file.
            AtomicFile.writeOwnerOnly(file, sb.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the dynamic configs " + file, e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** key=value pairs joined by '&amp;'; a null value is written as the key alone. */
    private static String encode(Map<String, String> pairs) {
        StringBuilder sb = new StringBuilder();
        pairs.forEach((k, v) -> {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(enc(k));
            if (v != null) {
                sb.append('=').append(enc(v));
            }
        });
        return sb.toString();
    }

    private static Map<String, String> decode(String s) {
        Map<String, String> pairs = new TreeMap<>();
        if (s.isEmpty()) {
            return pairs;
        }
        for (String pair : s.split("&")) {
            int eq = pair.indexOf('=');
            if (eq == 0) {
                throw new IllegalArgumentException("entry without a name: " + pair);
            }
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            pairs.put(key, eq < 0 ? null : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return pairs;
    }
}
