package io.odradek.coordinator.group;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The topics consumer-protocol groups are assigned from: names, ids and partition counts, as the broker's
 * metadata has them now. Called on coordinator threads, so implementations must be thread-safe and cheap
 * (the coordinator looks topics up on every heartbeat, which is how a new partition count or a topic
 * created for a subscription is noticed without any polling).
 */
public interface TopicCatalog {
    /** A topic as the assignors see it. */
    record Topic(String name, UUID id, int partitions) {
    }

    /** The topic of this name, or null. */
    Topic topic(String name);

    /** The topic of this id, or null. */
    Topic topic(UUID id);

    /** The names a subscription regex is matched against: every topic but internal ones. */
    Collection<String> topicNames();

    /** No topics at all (a coordinator without a broker, in tests of the classic protocol). */
    TopicCatalog EMPTY = new TopicCatalog() {
        @Override
        public Topic topic(String name) {
            return null;
        }

        @Override
        public Topic topic(UUID id) {
            return null;
        }

        @Override
        public Collection<String> topicNames() {
            return List.of();
        }
    };
}
