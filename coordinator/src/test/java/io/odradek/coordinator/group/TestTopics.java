package io.odradek.coordinator.group;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link TopicCatalog} the test changes at will: create topics, add partitions, delete. */
final class TestTopics implements TopicCatalog {
    private final Map<String, Topic> byName = new ConcurrentHashMap<>();

    UUID create(String name, int partitions) {
        UUID id = UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
        byName.put(name, new Topic(name, id, partitions));
        return id;
    }

    void setPartitions(String name, int partitions) {
        Topic t = byName.get(name);
        byName.put(name, new Topic(name, t.id(), partitions));
    }

    void delete(String name) {
        byName.remove(name);
    }

    UUID id(String name) {
        return byName.get(name).id();
    }

    @Override
    public Topic topic(String name) {
        return byName.get(name);
    }

    @Override
    public Topic topic(UUID id) {
        return byName.values().stream().filter(t -> t.id().equals(id)).findFirst().orElse(null);
    }

    @Override
    public Collection<String> topicNames() {
        return List.copyOf(byName.keySet());
    }
}
