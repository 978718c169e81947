package io.odradek.replication.cluster;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A topic in the cluster metadata: name, id, config overrides and its partitions by index. */
public record TopicImage(String name, UUID id, Map<String, String> configs, List<PartitionRegistration> partitions) {
    public TopicImage {
        configs = Map.copyOf(configs);
        partitions = List.copyOf(partitions);
    }

    public PartitionRegistration partition(int partition) {
        return partition >= 0 && partition < partitions.size() ? partitions.get(partition) : null;
    }

    public TopicImage withPartition(int index, PartitionRegistration registration) {
        List<PartitionRegistration> next = new java.util.ArrayList<>(partitions);
        next.set(index, registration);
        return new TopicImage(name, id, configs, next);
    }
}
