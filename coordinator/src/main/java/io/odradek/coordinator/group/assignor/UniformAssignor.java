package io.odradek.coordinator.group.assignor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Kafka's default server assignor, "uniform": balanced first (members' partition counts differ by at most
 * one where their subscriptions allow it), sticky second (a member keeps what it had whenever balance
 * permits, so few partitions move on a rebalance).
 *
 * <p>When all members subscribe to the same topics, quotas are exact: the members already holding more get
 * the extra partitions, everyone keeps up to their quota, and freed or new partitions fill the rest.
 * Otherwise (our own simpler take on Kafka's heterogeneous builder) members keep what they may, each free
 * partition — most constrained first — goes to the least loaded member subscribed to it, then partitions
 * move from the most to the least loaded eligible member while that narrows a gap of more than one.
 */
public final class UniformAssignor implements PartitionAssignor {
    public static final String NAME = "uniform";

    private record Partition(UUID topic, int partition) {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Map<UUID, Set<Integer>>> assign(AssignmentSpec spec) {
        if (spec.members().isEmpty()) {
            return Map.of();
        }
        Map<String, Set<Partition>> result = spec.homogeneous() ? homogeneous(spec) : heterogeneous(spec);
        Map<String, Map<UUID, Set<Integer>>> out = new TreeMap<>();
        result.forEach((member, partitions) -> {
            Map<UUID, Set<Integer>> byTopic = new TreeMap<>();
            partitions.forEach(p -> byTopic.computeIfAbsent(p.topic(), t -> new TreeSet<>()).add(p.partition()));
            out.put(member, byTopic);
        });
        return out;
    }

    private static Map<String, Set<Partition>> homogeneous(AssignmentSpec spec) {
        Set<UUID> topics = spec.members().values().iterator().next().topics();
        List<Partition> all = allPartitions(spec, topics);
        Map<String, List<Partition>> kept = kept(spec);
        int members = spec.members().size();
        int minQuota = all.size() / members;
        int extras = all.size() % members;

        // The extra partitions go to the members already holding the most: they then give up the least.
        List<String> byHeld = new ArrayList<>(spec.members().keySet());
        byHeld.sort(Comparator.comparingInt((String m) -> kept.get(m).size()).reversed().thenComparing(m -> m));
        Map<String, Integer> quota = new HashMap<>();
        for (String m : byHeld) {
            quota.put(m, minQuota + (extras-- > 0 ? 1 : 0));
        }
        Map<String, Set<Partition>> out = new LinkedHashMap<>();
        Set<Partition> taken = new HashSet<>();
        for (String m : spec.members().keySet()) {
            List<Partition> keep = kept.get(m);
            Set<Partition> mine = new TreeSet<>(PARTITION_ORDER);
            mine.addAll(keep.subList(0, Math.min(keep.size(), quota.get(m))));
            taken.addAll(mine);
            out.put(m, mine);
        }
        int next = 0;
        List<Partition> free = all.stream().filter(p -> !taken.contains(p)).toList();
        for (String m : spec.members().keySet()) {
            Set<Partition> mine = out.get(m);
            while (mine.size() < quota.get(m) && next < free.size()) {
                mine.add(free.get(next++));
            }
        }
        return out;
    }

    private static Map<String, Set<Partition>> heterogeneous(AssignmentSpec spec) {
        Map<String, Set<Partition>> out = new LinkedHashMap<>();
        Map<String, List<Partition>> kept = kept(spec);
        Set<Partition> taken = new HashSet<>();
        for (String m : spec.members().keySet()) {
            Set<Partition> mine = new TreeSet<>(PARTITION_ORDER);
            mine.addAll(kept.get(m));
            taken.addAll(mine);
            out.put(m, mine);
        }
        Map<UUID, List<String>> subscribers = new HashMap<>();
        spec.members().forEach((m, member) -> member.topics().forEach(t -> subscribers.computeIfAbsent(t, x -> new ArrayList<>()).add(m)));
        List<Partition> free = new ArrayList<>();
        for (UUID topic : new TreeSet<>(subscribers.keySet())) {
            for (Partition p : allPartitions(spec, Set.of(topic))) {
                if (!taken.contains(p)) {
                    free.add(p);
                }
            }
        }
        free.sort(Comparator.comparingInt((Partition p) -> subscribers.get(p.topic()).size()).thenComparing(PARTITION_ORDER));
        for (Partition p : free) {
            leastLoaded(subscribers.get(p.topic()), out).add(p);
        }
        // Narrow any gap of more than one between a member and a less loaded member that could take its partitions.
        boolean moved = true;
        int budget = Math.max(1, free.size() + taken.size()) * spec.members().size();
        while (moved && budget-- > 0) {
            moved = false;
            List<String> byLoad = new ArrayList<>(out.keySet());
            byLoad.sort(Comparator.comparingInt((String m) -> out.get(m).size()).reversed().thenComparing(m -> m));
            for (String from : byLoad) {
                for (Partition p : new ArrayList<>(out.get(from))) {
                    String to = leastLoadedName(subscribers.get(p.topic()), out);
                    if (out.get(from).size() - out.get(to).size() > 1) {
                        out.get(from).remove(p);
                        out.get(to).add(p);
                        moved = true;
                        break;
                    }
                }
                if (moved) {
                    break;
                }
            }
        }
        return out;
    }

    private static final Comparator<Partition> PARTITION_ORDER =
            Comparator.comparing(Partition::topic).thenComparingInt(Partition::partition);

    private static Set<Partition> leastLoaded(List<String> candidates, Map<String, Set<Partition>> out) {
        return out.get(leastLoadedName(candidates, out));
    }

    private static String leastLoadedName(List<String> candidates, Map<String, Set<Partition>> out) {
        String best = null;
        for (String m : candidates) {
            if (best == null || out.get(m).size() < out.get(best).size()) {
                best = m;
            }
        }
        return best;
    }

    /** Every partition of the topics, in topic id then partition order. */
    private static List<Partition> allPartitions(AssignmentSpec spec, Set<UUID> topics) {
        List<Partition> out = new ArrayList<>();
        for (UUID topic : new TreeSet<>(topics)) {
            Integer count = spec.partitionCounts().get(topic);
            for (int p = 0; count != null && p < count; p++) {
                out.add(new Partition(topic, p));
            }
        }
        return out;
    }

    /** What each member may keep of its previous target: subscribed, still existing, not claimed twice. */
    private static Map<String, List<Partition>> kept(AssignmentSpec spec) {
        Map<String, List<Partition>> out = new HashMap<>();
        Set<Partition> claimed = new HashSet<>();
        spec.members().forEach((m, member) -> {
            List<Partition> keep = new ArrayList<>();
            new TreeMap<>(member.current()).forEach((topic, partitions) -> {
                Integer count = spec.partitionCounts().get(topic);
                if (count == null || !member.topics().contains(topic)) {
                    return;
                }
                for (int p : new TreeSet<>(partitions)) {
                    Partition tp = new Partition(topic, p);
                    if (p < count && claimed.add(tp)) {
                        keep.add(tp);
                    }
                }
            });
            out.put(m, keep);
        });
        return out;
    }
}
