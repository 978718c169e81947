package io.odradek.broker.metrics.http;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.network.KafkaServer;
import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.replication.partition.Partitions;

/**
 * The parts of a running broker its gauges, consumer lag and health probes read (handed over by Broker.start).
 *
 * @param network the listeners: whether they accept connections, their event loops, connection counts
 * @param cluster the metadata image (partitions, leaders, ISR) and the controller quorum, if any
 * @param partitions the data path's partitions (high watermarks) and their writer threads
 */
public record ObservedBroker(BrokerConfig config, KafkaServer network, TopicService topics, ClusterView cluster,
        GroupCoordinator groups, Partitions partitions) {
}
