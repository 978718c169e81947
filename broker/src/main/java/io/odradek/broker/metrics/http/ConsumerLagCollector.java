package io.odradek.broker.metrics.http;

import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.GroupOverview;
import io.odradek.coordinator.group.OffsetFetchResult;
import io.odradek.coordinator.offsets.OffsetAndMetadata;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.Partitions;
import io.odradek.wire.ErrorCode;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Consumer lag per group, which Kafka's broker has no MBean for: named as kafka_exporter names it, computed at
 * each scrape from the group coordinator's committed offsets (what OffsetFetch answers) and the partitions' high
 * watermarks (what a consumer's end offset is):
 * <ul>
 * <li>{@code kafka_consumergroup_current_offset{consumergroup,topic,partition}}: the committed offset;</li>
 * <li>{@code kafka_consumergroup_lag{consumergroup,topic,partition}}: high watermark - committed offset;</li>
 * <li>{@code kafka_consumergroup_current_offset_sum} and {@code kafka_consumergroup_lag_sum{consumergroup,topic}}.</li>
 * </ul>
 * Bounded work: at most {@code maxGroups} groups (by id) and {@code timeoutMs} per scrape; groups whose
 * coordinator shard is not loaded here (another broker's, or still loading) answer with an error and are
 * skipped, as are partitions without a replica here and partitions with no committed offset. While any
 * {@code __consumer_offsets} partition of this broker is still loading, ListGroups answers
 * COORDINATOR_LOAD_IN_PROGRESS and that scrape has no lag series at all (the next one will).
 */
final class ConsumerLagCollector implements MultiCollector {
    private static final System.Logger LOG = System.getLogger(ConsumerLagCollector.class.getName());

    private final GroupCoordinator groups;
    private final Partitions partitions;
    private final int maxGroups;
    private final long timeoutMs;

    ConsumerLagCollector(GroupCoordinator groups, Partitions partitions, int maxGroups, long timeoutMs) {
        this.groups = groups;
        this.partitions = partitions;
        this.maxGroups = maxGroups;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public MetricSnapshots collect() {
        Families families = new Families();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        try {
            GroupCoordinator.ListGroupsResult listed = groups.listGroups(List.of(), List.of())
                    .get(remaining(deadline), TimeUnit.NANOSECONDS);
            if (listed.error() != ErrorCode.NONE) {
                return families.build();
            }
            List<String> ids = listed.groups().stream().map(GroupOverview::groupId).sorted(Comparator.naturalOrder())
                    .limit(maxGroups).toList();
            List<CompletableFuture<OffsetFetchResult>> fetches = new ArrayList<>(ids.size());
            for (String id : ids) {
                fetches.add(groups.fetchOffsets(id, null));
            }
            for (int i = 0; i < ids.size(); i++) {
                OffsetFetchResult offsets;
                try {
                    offsets = fetches.get(i).get(remaining(deadline), TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    continue; // this group's shard is not here: skipped
                }
                if (offsets.error() == ErrorCode.NONE) {
                    add(families, ids.get(i), offsets.offsets());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.log(System.Logger.Level.DEBUG, "consumer lag incomplete this scrape: " + e);
        }
        return families.build();
    }

    private void add(Families families, String group, Map<TopicPartition, OffsetAndMetadata> committed) {
        Map<String, long[]> sums = new TreeMap<>(); // topic -> {current offsets, lag}
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : committed.entrySet()) {
            OffsetAndMetadata offset = e.getValue();
            TopicPartition tp = e.getKey();
            if (offset == null || offset.offset() < 0) {
                continue;
            }
            Optional<Partition> partition = partitions.partition(tp.topic(), tp.partition());
            if (partition.isEmpty()) {
                continue;
            }
            long lag = partition.get().highWatermark() - offset.offset();
            Map<String, String> labels = Map.of("consumergroup", group, "topic", tp.topic(),
                    "partition", Integer.toString(tp.partition()));
            families.add("kafka_consumergroup_current_offset", Families.Kind.GAUGE,
                    "Current Offset of a ConsumerGroup at Topic/Partition", labels, offset.offset());
            families.add("kafka_consumergroup_lag", Families.Kind.GAUGE,
                    "Current Approximate Lag of a ConsumerGroup at Topic/Partition", labels, lag);
            long[] sum = sums.computeIfAbsent(tp.topic(), t -> new long[2]);
            sum[0] += offset.offset();
            sum[1] += lag;
        }
        sums.forEach((topic, sum) -> {
            Map<String, String> labels = Map.of("consumergroup", group, "topic", topic);
            families.add("kafka_consumergroup_current_offset_sum", Families.Kind.GAUGE,
                    "Current Offset of a ConsumerGroup at Topic for all partitions", labels, sum[0]);
            families.add("kafka_consumergroup_lag_sum", Families.Kind.GAUGE,
                    "Current Approximate Lag of a ConsumerGroup at Topic for all partitions", labels, sum[1]);
        });
    }

    private static long remaining(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }
}
