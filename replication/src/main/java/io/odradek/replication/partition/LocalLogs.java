package io.odradek.replication.partition;

import io.odradek.log.PartitionLog;
import io.odradek.replication.cluster.TopicImage;

/**
 * The storage side the {@link ReplicaManager} needs (the broker implements it over its LogManager): the log of
 * a replica the image assigns here, made if missing (with the topic's id and config overrides), and the
 * deletion of one that is no longer assigned here (reassigned away, topic deleted).
 */
public interface LocalLogs {
    /**
     * The log of {@code topic}'s partition {@code partition}, created if this broker has none. A log of an
     * older incarnation of the topic (another topic id) must not be returned: the ReplicaManager deletes it
     * first.
     */
    PartitionLog getOrCreate(TopicImage topic, int partition);

    /** Deletes the partition's log and its directory (no-op when there is none). */
    void delete(String topic, int partition);
}
