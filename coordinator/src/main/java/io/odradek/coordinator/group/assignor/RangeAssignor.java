package io.odradek.coordinator.group.assignor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Kafka's "range" server assignor: for each topic, its members (static ones first by instance id, then
 * the others by member id) get contiguous ranges of partitions, the first ones one more when the count
 * does not divide. Members with the same subscriptions get the same partition numbers of every topic of a
 * given size (co-partitioning, for joins). Not sticky beyond that: the order decides.
 */
public final class RangeAssignor implements PartitionAssignor {
    public static final String NAME = "range";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Map<UUID, Set<Integer>>> assign(AssignmentSpec spec) {
        Map<String, Map<UUID, Set<Integer>>> out = new TreeMap<>();
        List<String> ordered = new ArrayList<>(spec.members().keySet());
        ordered.sort(memberOrder(spec));
        ordered.forEach(m -> out.put(m, new TreeMap<>()));
        Map<UUID, List<String>> subscribers = new HashMap<>();
        for (String m : ordered) {
            for (UUID topic : spec.members().get(m).topics()) {
                if (spec.partitionCounts().containsKey(topic)) {
                    subscribers.computeIfAbsent(topic, t -> new ArrayList<>()).add(m);
                }
            }
        }
        subscribers.forEach((topic, members) -> {
            int partitions = spec.partitionCounts().get(topic);
            int quota = partitions / members.size();
            int extras = partitions % members.size();
            int start = 0;
            for (String m : members) {
                int end = Math.min(partitions, start + quota + (extras-- > 0 ? 1 : 0));
                Set<Integer> range = new TreeSet<>();
                for (int p = start; p < end; p++) {
                    range.add(p);
                }
                if (!range.isEmpty()) {
                    out.get(m).put(topic, range);
                }
                start = end;
            }
        });
        return out;
    }

    private static Comparator<String> memberOrder(AssignmentSpec spec) {
        return (a, b) -> {
            String ia = spec.members().get(a).instanceId();
            String ib = spec.members().get(b).instanceId();
            if (ia != null && ib != null) {
                return ia.compareTo(ib);
            } else if (ia != null) {
                return -1;
            } else if (ib != null) {
                return 1;
            }
            return a.compareTo(b);
        };
    }
}
