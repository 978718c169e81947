package io.odradek.broker.api;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kafka releases {@code odradek.emulate.version} can name, 0.10.0 to 4.4, read from {@code kafka-releases.txt}
 * (next to this class): each release is the one before it plus the changes listed under its name, as Kafka's own
 * history went (which broker each release stands for, and where the facts come from, is said at the top of that file).
 */
public final class KafkaReleases {
    private static final Pattern API_LINE = Pattern.compile("(\\S+)\\s+(\\d+)\\s+(\\w+)\\s+(\\d+|-)(?:\\s+.*)?");
    private static final Pattern FEATURE_LINE = Pattern.compile("(\\S+)\\s+feature\\s+(\\S+)\\s+(\\d+)(?:\\s+.*)?");
    /** A version as users write it: "2.8", "2.8.1", "0.10.2", "0.10.2.1"; the patch level is dropped. */
    private static final Pattern VERSION = Pattern.compile("(0\\.\\d+\\.\\d+|[1-9]\\d*\\.\\d+)(?:\\.\\d+)?");
    private static final Map<String, KafkaRelease> RELEASES = load();

    private KafkaReleases() {
    }

    /** Every release in the table, oldest first. */
    public static List<KafkaRelease> all() {
        return List.copyOf(RELEASES.values());
    }

    /**
     * The release a version names ("2.8", or with a patch level, "2.8.1"; "0.11.0" for the releases before 1.0).
     *
     * @throws IllegalArgumentException for a version not in the table, naming the ones that are
     */
    public static KafkaRelease named(String version) {
        String problem = problem(version);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        Matcher m = VERSION.matcher(version.trim());
        m.matches();
        return RELEASES.get(m.group(1));
    }

    /** Null when {@code version} names a release in the table; otherwise why not, listing the known releases. */
    public static String problem(String version) {
        Matcher m = VERSION.matcher(version == null ? "" : version.trim());
        if (m.matches() && RELEASES.containsKey(m.group(1))) {
            return null;
        }
        return "Unknown Kafka version '" + version + "'; known versions: "
                + String.join(", ", RELEASES.keySet());
    }

    private static Map<String, KafkaRelease> load() {
        try (InputStream in = KafkaReleases.class.getResourceAsStream("kafka-releases.txt")) {
            if (in == null) {
                throw new IllegalStateException("kafka-releases.txt is missing from the classpath");
            }
            return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The table's lines to releases, each the one before plus its own changes, in the order releases first appear. */
    static Map<String, KafkaRelease> parse(List<String> lines) {
        Map<String, Map<Short, Short>> apiChanges = new LinkedHashMap<>();
        Map<String, Map<String, Short>> featureChanges = new HashMap<>();
        Map<Short, String> names = new HashMap<>();
        int lineNumber = 0;
        for (String raw : lines) {
            lineNumber++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Matcher feature = FEATURE_LINE.matcher(line);
            Matcher api = API_LINE.matcher(line);
            if (feature.matches()) {
                apiChanges.computeIfAbsent(feature.group(1), r -> new TreeMap<>());
                featureChanges.computeIfAbsent(feature.group(1), r -> new HashMap<>())
                        .put(feature.group(2), Short.parseShort(feature.group(3)));
            } else if (api.matches()) {
                short key = Short.parseShort(api.group(2));
                String name = names.putIfAbsent(key, api.group(3));
                if (name != null && !name.equals(api.group(3))) {
                    throw new IllegalStateException("kafka-releases.txt line " + lineNumber + ": API " + key
                            + " is " + name + " elsewhere, not " + api.group(3));
                }
                short max = api.group(4).equals("-") ? -1 : Short.parseShort(api.group(4));
                apiChanges.computeIfAbsent(api.group(1), r -> new TreeMap<>()).put(key, max);
            } else {
                throw new IllegalStateException("kafka-releases.txt line " + lineNumber + " is not a release line: " + raw);
            }
        }
        Map<String, KafkaRelease> releases = new LinkedHashMap<>();
        Map<Short, Short> maxVersions = new TreeMap<>();
        Map<String, Short> features = new TreeMap<>();
        for (Map.Entry<String, Map<Short, Short>> release : apiChanges.entrySet()) {
            release.getValue().forEach((key, max) -> {
                if (max < 0) {
                    maxVersions.remove(key);
                } else {
                    maxVersions.put(key, max);
                }
            });
            featureChanges.getOrDefault(release.getKey(), Map.of()).forEach(features::put);
            features.values().removeIf(level -> level == 0);
            releases.put(release.getKey(), new KafkaRelease(release.getKey(), new TreeMap<>(maxVersions), features));
        }
        return releases;
    }
}
