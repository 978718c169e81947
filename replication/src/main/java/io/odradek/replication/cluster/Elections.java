package io.odradek.replication.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Kafka's leader election and ISR rules (its PartitionChangeBuilder without ELR) as pure functions of a
 * partition and a test of which brokers may lead ({@code eligible}: unfenced, not shutting down). A clean
 * election takes the first replica in preference order that is in the ISR and eligible; an unclean one,
 * when nothing clean is left and it is allowed, takes the first eligible replica and makes it the whole ISR.
 * Every leader change bumps the leader epoch, every change at all the partition epoch.
 */
final class Elections {
    private Elections() {
    }

    /** The first of {@code order} that is in {@code isr} and eligible, or NO_LEADER. */
    static int cleanLeader(List<Integer> order, List<Integer> isr, IntPredicate eligible) {
        for (int b : order) {
            if (isr.contains(b) && eligible.test(b)) {
                return b;
            }
        }
        return PartitionRegistration.NO_LEADER;
    }

    /** The first eligible replica of {@code order}, in the ISR or not, or NO_LEADER. */
    static int uncleanLeader(List<Integer> order, IntPredicate eligible) {
        for (int b : order) {
            if (eligible.test(b)) {
                return b;
            }
        }
        return PartitionRegistration.NO_LEADER;
    }

    /**
     * Takes {@code broker} (just fenced, shutting down or re-registered: no longer eligible) out of the
     * partition: it leaves the ISR unless it is the last member (Kafka without ELR keeps the last one, so
     * it is known who has every record), and if it led, the leadership moves to the next in-sync eligible
     * replica, or to an out-of-sync one when unclean election is allowed, or to nobody.
     */
    static PartitionRegistration removeBroker(PartitionRegistration p, int broker, IntPredicate eligible,
            boolean uncleanAllowed) {
        if (!p.replicas().contains(broker)) {
            return p;
        }
        List<Integer> isr = p.isr();
        if (isr.contains(broker) && isr.size() > 1) {
            isr = without(isr, broker);
        }
        int leader = p.leader();
        if (leader == broker) {
            leader = cleanLeader(p.replicas(), isr, eligible);
            if (leader == PartitionRegistration.NO_LEADER && uncleanAllowed) {
                leader = uncleanLeader(p.replicas(), eligible);
                if (leader != PartitionRegistration.NO_LEADER) {
                    isr = List.of(leader);
                }
            }
        }
        return change(p, p.replicas(), isr, p.adding(), p.removing(), leader, false);
    }

    /** A leaderless partition gets a leader if one is now eligible (in the ISR, or any replica when unclean). */
    static PartitionRegistration electIfLeaderless(PartitionRegistration p, IntPredicate eligible,
            boolean uncleanAllowed) {
        if (p.hasLeader()) {
            return p;
        }
        List<Integer> isr = p.isr();
        int leader = cleanLeader(p.replicas(), isr, eligible);
        if (leader == PartitionRegistration.NO_LEADER && uncleanAllowed) {
            leader = uncleanLeader(p.replicas(), eligible);
            if (leader != PartitionRegistration.NO_LEADER) {
                isr = List.of(leader);
            }
        }
        return change(p, p.replicas(), isr, p.adding(), p.removing(), leader, false);
    }

    /**
     * The partition with these fields, epochs bumped as Kafka does: the leader epoch when the leader
     * changes (or {@code bumpLeaderEpoch}: replicas were removed, so they must not fetch at the old epoch),
     * the partition epoch on any change. Unchanged fields give back {@code p} itself.
     */
    static PartitionRegistration change(PartitionRegistration p, List<Integer> replicas, List<Integer> isr,
            List<Integer> adding, List<Integer> removing, int leader, boolean bumpLeaderEpoch) {
        boolean leaderChanged = leader != p.leader();
        boolean same = !leaderChanged && !bumpLeaderEpoch && replicas.equals(p.replicas()) && isr.equals(p.isr())
                && adding.equals(p.adding()) && removing.equals(p.removing());
        if (same) {
            return p;
        }
        int leaderEpoch = leaderChanged || bumpLeaderEpoch ? p.leaderEpoch() + 1 : p.leaderEpoch();
        return new PartitionRegistration(replicas, isr, adding, removing, leader, leaderEpoch,
                p.partitionEpoch() + 1);
    }

    /**
     * {@code result} (built from {@code original} in several steps within one command) with the epochs of a
     * single change, as Kafka writes one PartitionChangeRecord per partition per command.
     */
    static PartitionRegistration oneChange(PartitionRegistration original, PartitionRegistration result) {
        if (result == original) {
            return original;
        }
        int leaderEpoch = result.leaderEpoch() > original.leaderEpoch() ? original.leaderEpoch() + 1
                : original.leaderEpoch();
        return new PartitionRegistration(result.replicas(), result.isr(), result.adding(), result.removing(),
                result.leader(), leaderEpoch, original.partitionEpoch() + 1);
    }

    static List<Integer> without(List<Integer> list, int value) {
        List<Integer> out = new ArrayList<>(list);
        out.remove(Integer.valueOf(value));
        return List.copyOf(out);
    }

    /** Members of {@code list} that are (keep = true) or are not (keep = false) in {@code other}, in order. */
    static List<Integer> filter(List<Integer> list, List<Integer> other, boolean keep) {
        List<Integer> out = new ArrayList<>();
        for (int b : list) {
            if (other.contains(b) == keep) {
                out.add(b);
            }
        }
        return List.copyOf(out);
    }
}
