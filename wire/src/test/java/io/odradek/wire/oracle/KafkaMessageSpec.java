package io.odradek.wire.oracle;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A message schema as Kafka ships it in the kafka-clients jar ({@code common/message/<Name>.json}): the
 * oracle our {@code *Api} tables are checked against, so a new Kafka release shows what changed.
 */
public record KafkaMessageSpec(String name, int apiKey, VersionRange validVersions, VersionRange flexibleVersions,
        List<KafkaField> fields) {

    /** Loads e.g. {@code "ProduceRequest"} from the test classpath (Kafka 4.4; see {@link KafkaRelease} for 3.9.1). */
    public static KafkaMessageSpec load(String name) {
        String resource = "common/message/" + name + ".json";
        try (InputStream in = KafkaMessageSpec.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no " + resource + " on the classpath");
            }
            return parse(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses the text of a schema file (its {@code //} comment lines are not JSON). */
    public static KafkaMessageSpec parse(String name, String json) {
        String text = json.lines()
                .filter(line -> !line.strip().startsWith("//"))
                .collect(Collectors.joining("\n"));
        return fromJson(name, asMap(Json.parse(text)));
    }

    private static KafkaMessageSpec fromJson(String name, Map<String, Object> json) {
        Map<String, List<Object>> common = new HashMap<>();
        for (Object struct : asList(json.getOrDefault("commonStructs", List.of()))) {
            Map<String, Object> s = asMap(struct);
            common.put((String) s.get("name"), asList(s.get("fields")));
        }
        return new KafkaMessageSpec(name, ((Number) json.get("apiKey")).intValue(), VersionRange.parse((String) json.get("validVersions")),
                VersionRange.parse((String) json.get("flexibleVersions")), fields(asList(json.get("fields")), common));
    }

    private static List<KafkaField> fields(List<Object> json, Map<String, List<Object>> common) {
        List<KafkaField> fields = new ArrayList<>();
        for (Object o : json) {
            Map<String, Object> f = asMap(o);
            String type = (String) f.get("type");
            String base = type.startsWith("[]") ? type.substring(2) : type;
            List<KafkaField> nested = List.of();
            if (f.containsKey("fields")) {
                nested = fields(asList(f.get("fields")), common);
            } else if (common.containsKey(base)) {
                nested = fields(common.get(base), common);
            }
            Object tag = f.get("tag");
            fields.add(new KafkaField((String) f.get("name"), type,
                    VersionRange.parse((String) f.get("versions")),
                    VersionRange.parse((String) f.get("nullableVersions")),
                    VersionRange.parse((String) f.get("taggedVersions")),
                    tag == null ? -1 : ((Number) tag).intValue(),
                    String.valueOf(f.getOrDefault("default", "")),
                    Boolean.TRUE.equals(f.get("zeroCopy")),
                    nested));
        }
        return fields;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> asList(Object o) {
        return (List<Object>) o;
    }
}
