package io.odradek.broker.share;

import java.util.UUID;

/** A partition as share requests name it: by topic id (names are resolved per request, as Kafka's are). */
public record TopicIdPartition(UUID topicId, int partition) {
}
