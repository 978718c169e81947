package io.odradek.broker.topics;

import io.odradek.coordinator.group.TopicCatalog;
import io.odradek.replication.metadata.TopicInfo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** The broker's topics as the group coordinator's consumer-protocol groups see them (lock-free lookups). */
public final class TopicServiceCatalog implements TopicCatalog {
    private final TopicService topics;

    public TopicServiceCatalog(TopicService topics) {
        this.topics = topics;
    }

    @Override
    public Topic topic(String name) {
        return topics.topic(name).map(TopicServiceCatalog::of).orElse(null);
    }

    @Override
    public Topic topic(UUID id) {
        return topics.topic(id).map(TopicServiceCatalog::of).orElse(null);
    }

    @Override
    public Collection<String> topicNames() {
        List<String> names = new ArrayList<>();
        for (TopicInfo t : topics.topics()) {
            if (!t.internal()) {
                names.add(t.name());
            }
        }
        return names;
    }

    private static Topic of(TopicInfo t) {
        return new Topic(t.name(), t.id(), t.partitions());
    }
}
