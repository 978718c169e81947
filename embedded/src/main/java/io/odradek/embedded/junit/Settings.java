package io.odradek.embedded.junit;

import io.odradek.embedded.Odradek;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What an {@link EmbeddedOdradek} annotation asks for, parsed and checked once. */
record Settings(int brokers, List<Topic> topics, Map<String, String> config, Lifecycle lifecycle,
        List<String> properties, String emulateVersion) {

    /** A topic to create: its partition count, and a replication factor (0: the broker's default). */
    record Topic(String name, int partitions, int replicationFactor) {
    }

    static Settings of(EmbeddedOdradek annotation) {
        Map<String, String> config = new LinkedHashMap<>();
        for (String entry : annotation.config()) {
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("@EmbeddedOdradek config entries are \"key=value\", not \""
                        + entry + "\"");
            }
            config.put(entry.substring(0, eq).trim(), entry.substring(eq + 1).trim());
        }
        int defaultPartitions = Integer.parseInt(config.getOrDefault("num.partitions", "1"));
        List<Topic> topics = new ArrayList<>();
        for (String spec : annotation.topics()) {
            topics.add(topic(spec, defaultPartitions));
        }
        return new Settings(annotation.brokers(), List.copyOf(topics), Map.copyOf(config), annotation.lifecycle(),
                List.of(annotation.bootstrapServersProperty()), annotation.emulateVersion());
    }

    /** "name", "name:partitions" or "name:partitions:replicationFactor". */
    static Topic topic(String spec, int defaultPartitions) {
        String[] parts = spec.split(":", -1);
        try {
            if (parts.length > 3 || parts[0].isBlank()) {
                throw new NumberFormatException();
            }
            int partitions = parts.length > 1 ? Integer.parseInt(parts[1].trim()) : defaultPartitions;
            int replicationFactor = parts.length > 2 ? Integer.parseInt(parts[2].trim()) : 0;
            return new Topic(parts[0].trim(), partitions, replicationFactor);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("@EmbeddedOdradek topics are \"name\", \"name:partitions\" or"
                    + " \"name:partitions:replicationFactor\", not \"" + spec + "\"");
        }
    }

    /** Starts the broker(s) these settings describe and creates the topics; closes them again if that fails. */
    Odradek start() {
        Odradek.Builder builder = Odradek.builder().brokers(brokers).configs(config);
        if (!emulateVersion.isEmpty()) {
            builder.emulateVersion(emulateVersion);
        }
        Odradek odradek = builder.start();
        try {
            for (Topic topic : topics) {
                if (topic.replicationFactor() == 0) {
                    odradek.createTopic(topic.name(), topic.partitions());
                } else {
                    odradek.createTopic(topic.name(), topic.partitions(), topic.replicationFactor());
                }
            }
            return odradek;
        } catch (RuntimeException e) {
            odradek.close();
            throw e;
        }
    }
}
