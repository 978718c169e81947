package io.odradek.broker.cluster;

import io.odradek.broker.topics.TopicService;
import io.odradek.log.PartitionLog;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.replication.partition.LocalLogs;

/**
 * The replica manager's storage over the broker's log manager: a replica's log is made with its topic's id
 * and config overrides (one of an older topic of the same name is removed first), a removed replica's log
 * and directory are deleted.
 */
public final class BrokerLocalLogs implements LocalLogs {
    private final TopicService topics;

    public BrokerLocalLogs(TopicService topics) {
        this.topics = topics;
    }

    @Override
    public PartitionLog getOrCreate(TopicImage topic, int partition) {
        return topics.createLocalLog(topic, partition);
    }

    @Override
    public void delete(String topic, int partition) {
        topics.deleteLocalLog(topic, partition);
    }
}
