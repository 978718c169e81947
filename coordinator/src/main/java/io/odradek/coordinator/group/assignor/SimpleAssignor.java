package io.odradek.coordinator.group.assignor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Kafka's share group assignor ("simple", KIP-932), after Kafka 4.4's homogeneous and heterogeneous builders.
 * Every assignable partition of the subscribed topics is assigned; a partition may go to several members, and
 * does when members outnumber partitions (3 members on 1 partition all get it), since share consumers hand
 * records out one by one rather than owning partitions. Balance first: each partition is shared by
 * {@code ceil(members / partitions)} members and each member holds as near the same number of partitions as
 * can be; then stickiness: what a member already had it keeps when balance allows.
 *
 * <p>When every member subscribes to the same topics the whole group is balanced at once; otherwise each topic
 * is balanced among the members subscribing to it (Kafka's heterogeneous builder works topic by topic too).
 */
public final class SimpleAssignor {
    public static final String NAME = "simple";

    /**
     * @param subscriptions member id to the topic ids it subscribes to
     * @param assignable    topic id to the partitions that may be assigned (those with initialized share state)
     * @param current       member id to its current target partitions
     * @return every member's new target, members without partitions included (empty)
     */
    public Map<String, Map<UUID, Set<Integer>>> assign(Map<String, Set<UUID>> subscriptions,
            Map<UUID, Set<Integer>> assignable, Map<String, Map<UUID, Set<Integer>>> current) {
        List<String> members = new ArrayList<>(new TreeSet<>(subscriptions.keySet()));
        Map<String, Map<UUID, Set<Integer>>> out = new TreeMap<>();
        members.forEach(m -> out.put(m, new TreeMap<>()));
        if (members.isEmpty()) {
            return out;
        }
        boolean homogeneous = new HashSet<>(subscriptions.values()).size() == 1;
        if (homogeneous) {
            balance(members, partitionsOf(subscriptions.get(members.get(0)), assignable), current, out);
        } else {
            Set<UUID> topics = new TreeSet<>();
            subscriptions.values().forEach(topics::addAll);
            for (UUID topic : topics) {
                List<String> subscribers = members.stream().filter(m -> subscriptions.get(m).contains(topic)).toList();
                balance(subscribers, partitionsOf(Set.of(topic), assignable), current, out);
            }
        }
        return out;
    }

    /** One topic id and partition. */
    private record Tp(UUID topic, int partition) implements Comparable<Tp> {
        @Override
        public int compareTo(Tp o) {
            int c = topic.compareTo(o.topic);
            return c != 0 ? c : Integer.compare(partition, o.partition);
        }
    }

    private static List<Tp> partitionsOf(Set<UUID> topics, Map<UUID, Set<Integer>> assignable) {
        List<Tp> out = new ArrayList<>();
        for (UUID t : new TreeSet<>(topics)) {
            for (int p : new TreeSet<>(assignable.getOrDefault(t, Set.of()))) {
                out.add(new Tp(t, p));
            }
        }
        return out;
    }

    /** Assigns {@code targets} among {@code members} and adds the result to {@code out}. */
    private static void balance(List<String> members, List<Tp> targets, Map<String, Map<UUID, Set<Integer>>> current,
            Map<String, Map<UUID, Set<Integer>>> out) {
        int m = members.size();
        int p = targets.size();
        if (m == 0 || p == 0) {
            return;
        }
        int sharing = (m + p - 1) / p; // members per partition
        // Member i's quota: the S*P assignments spread as evenly as integers allow.
        double perMember = sharing * p / (double) m;
        Map<String, Integer> quota = new HashMap<>();
        for (int i = 0; i < m; i++) {
            quota.put(members.get(i), (int) Math.ceil(perMember * (i + 1)) - (int) Math.ceil(perMember * i));
        }
        Set<Tp> targetSet = new HashSet<>(targets);
        Map<Tp, Set<String>> byPartition = new TreeMap<>();
        targets.forEach(tp -> byPartition.put(tp, new LinkedHashSet<>()));
        Map<String, Set<Tp>> byMember = new HashMap<>();
        members.forEach(id -> byMember.put(id, new TreeSet<>()));

        // Stickiness: keep what each member had, up to its quota, without over-sharing a partition.
        for (String id : members) {
            for (Map.Entry<UUID, Set<Integer>> e : new TreeMap<>(current.getOrDefault(id, Map.of())).entrySet()) {
                for (int partition : new TreeSet<>(e.getValue())) {
                    Tp tp = new Tp(e.getKey(), partition);
                    if (targetSet.contains(tp) && byMember.get(id).size() < quota.get(id) && byPartition.get(tp).size() < sharing) {
                        byPartition.get(tp).add(id);
                        byMember.get(id).add(tp);
                    }
                }
            }
        }
        // Balance: partitions short of members go to the members short of partitions, round robin.
        List<String> unfilled = new ArrayList<>(members.stream().filter(id -> byMember.get(id).size() < quota.get(id)).toList());
        int next = 0;
        for (Map.Entry<Tp, Set<String>> e : byPartition.entrySet()) {
            int tries = 0;
            while (e.getValue().size() < sharing && !unfilled.isEmpty() && tries < unfilled.size()) {
                String id = unfilled.get(next % unfilled.size());
                if (e.getValue().contains(id)) {
                    next++;
                    tries++;
                    continue;
                }
                e.getValue().add(id);
                byMember.get(id).add(e.getKey());
                tries = 0;
                if (byMember.get(id).size() >= quota.get(id)) {
                    unfilled.remove(next % unfilled.size());
                } else {
                    next++;
                }
            }
        }
        byMember.forEach((id, tps) -> tps.forEach(tp ->
                out.get(id).computeIfAbsent(tp.topic(), t -> new TreeSet<>()).add(tp.partition())));
    }
}
