package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.ConsumerMemberAssignment;
import io.odradek.wire.ErrorCode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BiPredicate;

/**
 * KIP-848 reconciliation (Kafka's CurrentAssignmentBuilder): moves one member's current assignment a step
 * towards its target. Partitions the member keeps stay; partitions it must give up are revoked first, and
 * the member stays at its epoch until its heartbeat no longer reports them; only then does it move to the
 * target epoch and get new partitions, and of those only the ones no other member still holds (the rest
 * follow once released). So no partition is ever owned by two members at once.
 */
final class AssignmentReconciler {
    private final ConsumerMemberAssignment current;
    private final int targetEpoch;
    private final Map<UUID, Set<Integer>> target;
    /** The partitions the member reported owning, or null when its heartbeat did not say. */
    private final Map<UUID, List<Integer>> owned;
    /** Whether another member still holds (or revokes) the partition. */
    private final BiPredicate<UUID, Integer> heldByOther;

    AssignmentReconciler(ConsumerMemberAssignment current, int targetEpoch, Map<UUID, Set<Integer>> target,
            Map<UUID, List<Integer>> owned, BiPredicate<UUID, Integer> heldByOther) {
        this.current = current;
        this.targetEpoch = targetEpoch;
        this.target = target;
        this.owned = owned;
        this.heldByOther = heldByOther;
    }

    /** The next assignment, or the current one when the member cannot move on yet. */
    ConsumerMemberAssignment next() {
        switch (MemberState.of(current.state())) {
            case STABLE:
                return current.memberEpoch() != targetEpoch ? compute(current.memberEpoch()) : current;
            case UNREVOKED_PARTITIONS:
                // Stuck until the member's heartbeat no longer lists the partitions it must give up.
                return ownsAnyOf(current.partitionsPendingRevocation()) ? current : compute(current.memberEpoch());
            case UNRELEASED_PARTITIONS:
                return compute(current.memberEpoch());
            default:
                if (owned == null || !owned.isEmpty()) {
                    throw new GroupException(ErrorCode.FENCED_MEMBER_EPOCH, "The consumer group member is in a unknown "
                            + "state. The member must abandon all its partitions and rejoin.");
                }
                return compute(targetEpoch);
        }
    }

    private boolean ownsAnyOf(Map<UUID, Map<Integer, Integer>> partitions) {
        if (owned == null) {
            return true; // not reported: assume nothing was given up yet
        }
        for (Map.Entry<UUID, List<Integer>> e : owned.entrySet()) {
            Map<Integer, Integer> pending = partitions.getOrDefault(e.getKey(), Map.of());
            for (int p : e.getValue()) {
                if (pending.containsKey(p)) {
                    return true;
                }
            }
        }
        return false;
    }

    private ConsumerMemberAssignment compute(int memberEpoch) {
        Map<UUID, Map<Integer, Integer>> assigned = new TreeMap<>();
        Map<UUID, Map<Integer, Integer>> revoking = new TreeMap<>();
        Map<UUID, Map<Integer, Integer>> toAssign = new TreeMap<>();
        boolean unreleased = false;
        Set<UUID> topics = new HashSet<>(target.keySet());
        topics.addAll(current.assignedPartitions().keySet());
        for (UUID topic : topics) {
            Set<Integer> wanted = target.getOrDefault(topic, Set.of());
            Map<Integer, Integer> had = current.assignedPartitions().getOrDefault(topic, Map.of());
            had.forEach((p, epoch) -> {
                if (wanted.contains(p)) {
                    assigned.computeIfAbsent(topic, t -> new TreeMap<>()).put(p, epoch); // kept, with its epoch
                } else {
                    revoking.computeIfAbsent(topic, t -> new TreeMap<>()).put(p, epoch);
                }
            });
            for (int p : wanted) {
                if (had.containsKey(p)) {
                    continue;
                }
                if (heldByOther.test(topic, p)) {
                    unreleased = true;
                } else {
                    toAssign.computeIfAbsent(topic, t -> new TreeMap<>()).put(p, targetEpoch);
                }
            }
        }
        if (!revoking.isEmpty() && ownsAnyOf(revoking)) {
            // Revoke first: the member keeps its epoch until it reports the partitions gone.
            return assignment(memberEpoch, MemberState.UNREVOKED_PARTITIONS, assigned, revoking);
        }
        toAssign.forEach((topic, parts) -> assigned.computeIfAbsent(topic, t -> new TreeMap<>()).putAll(parts));
        return assignment(targetEpoch, unreleased ? MemberState.UNRELEASED_PARTITIONS : MemberState.STABLE, assigned, Map.of());
    }

    private ConsumerMemberAssignment assignment(int epoch, MemberState state, Map<UUID, Map<Integer, Integer>> assigned,
            Map<UUID, Map<Integer, Integer>> revoking) {
        // As Kafka's updateMemberEpoch: the previous epoch is the one the member had before this step.
        return new ConsumerMemberAssignment(epoch, current.memberEpoch(), state.value, new HashMap<>(assigned), new HashMap<>(revoking));
    }
}
