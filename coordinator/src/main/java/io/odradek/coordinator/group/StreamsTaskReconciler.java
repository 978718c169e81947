package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.StreamsGroupRecord.MemberAssignment;
import io.odradek.coordinator.offsets.StreamsGroupRecord.Tasks;
import io.odradek.wire.ErrorCode;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiPredicate;

/**
 * Streams reconciliation (Kafka's streams CurrentAssignmentBuilder): moves one member's current tasks a step
 * towards its target. Tasks it must give up are revoked first, and the member keeps its epoch until its
 * heartbeat no longer reports them; then it moves to the target epoch and gets its new tasks, an active task
 * only once no other member holds it as active any more, nor another member of the same process as standby or
 * warm-up; a standby or warm-up task only once no other member of the same process holds it as active, standby
 * or warm-up (Kafka 4.4: one process never runs two copies of a task's state). The rest follow when released.
 */
final class StreamsTaskReconciler {
    private final MemberAssignment current;
    private final int targetEpoch;
    private final Tasks target;
    /** The tasks the member reported owning, or null when its heartbeat did not say. */
    private final Tasks owned;
    /** Whether the active task (subtopology, partition) may not be given yet: another member still holds it. */
    private final BiPredicate<String, Integer> activeUnreleased;
    /** Whether the standby or warm-up task may not be given yet: another member of the process still holds it. */
    private final BiPredicate<String, Integer> standbyUnreleased;

    StreamsTaskReconciler(MemberAssignment current, int targetEpoch, Tasks target, Tasks owned,
            BiPredicate<String, Integer> activeUnreleased, BiPredicate<String, Integer> standbyUnreleased) {
        this.current = current;
        this.targetEpoch = targetEpoch;
        this.target = target;
        this.owned = owned;
        this.activeUnreleased = activeUnreleased;
        this.standbyUnreleased = standbyUnreleased;
    }

    /**
     * The reconciler of a member of the group (of the process), whose tasks the other members may still hold;
     * {@code replacedId}, a static member it replaces (or null), holds nothing it must wait for.
     */
    static StreamsTaskReconciler inGroup(StreamsGroup group, String memberId, String processId, String replacedId,
            MemberAssignment current, int targetEpoch, Tasks target, Tasks owned) {
        return new StreamsTaskReconciler(current, targetEpoch, target, owned, (subtopology, p) -> {
            String ownerId = group.activeOwner(subtopology, p, memberId);
            return ownerId != null && !ownerId.equals(replacedId)
                    || group.heldOnProcess(processId, subtopology, p, memberId, replacedId, false);
        }, (subtopology, p) -> group.heldOnProcess(processId, subtopology, p, memberId, replacedId, true));
    }

    MemberAssignment next() {
        switch (MemberState.of(current.state())) {
            case STABLE:
                return current.memberEpoch() != targetEpoch ? compute(current.memberEpoch()) : current;
            case UNREVOKED_PARTITIONS:
                return ownsAnyOf(current.pendingRevocation()) ? current : compute(current.memberEpoch());
            case UNRELEASED_PARTITIONS:
                return compute(current.memberEpoch());
            default:
                throw new GroupException(ErrorCode.FENCED_MEMBER_EPOCH, "The streams group member is in a unknown state."
                        + " The member must abandon all its tasks and rejoin.");
        }
    }

    private boolean ownsAnyOf(Tasks tasks) {
        if (owned == null) {
            return true; // not reported: assume nothing was given up yet
        }
        return intersects(owned.active(), tasks.active()) || intersects(owned.standby(), tasks.standby())
                || intersects(owned.warmup(), tasks.warmup());
    }

    private static boolean intersects(Map<String, Set<Integer>> a, Map<String, Set<Integer>> b) {
        for (Map.Entry<String, Set<Integer>> e : a.entrySet()) {
            Set<Integer> other = b.getOrDefault(e.getKey(), Set.of());
            for (int p : e.getValue()) {
                if (other.contains(p)) {
                    return true;
                }
            }
        }
        return false;
    }

    private MemberAssignment compute(int memberEpoch) {
        Map<String, Set<Integer>> keptActive = new TreeMap<>();
        Map<String, Set<Integer>> revokedActive = new TreeMap<>();
        split(current.assigned().active(), target.active(), keptActive, revokedActive);
        Map<String, Set<Integer>> keptStandby = new TreeMap<>();
        Map<String, Set<Integer>> revokedStandby = new TreeMap<>();
        split(current.assigned().standby(), target.standby(), keptStandby, revokedStandby);
        Map<String, Set<Integer>> keptWarmup = new TreeMap<>();
        Map<String, Set<Integer>> revokedWarmup = new TreeMap<>();
        split(current.assigned().warmup(), target.warmup(), keptWarmup, revokedWarmup);
        Tasks revoking = new Tasks(revokedActive, revokedStandby, revokedWarmup);
        if (!revoking.isEmpty() && ownsAnyOf(revoking)) {
            // Revoke first: the member keeps its epoch until it reports the tasks gone.
            return new MemberAssignment(memberEpoch, current.memberEpoch(), MemberState.UNREVOKED_PARTITIONS.value,
                    new Tasks(keptActive, keptStandby, keptWarmup), revoking);
        }
        boolean unreleased = addReleased(target.active(), keptActive, activeUnreleased);
        unreleased |= addReleased(target.standby(), keptStandby, standbyUnreleased);
        unreleased |= addReleased(target.warmup(), keptWarmup, standbyUnreleased);
        return new MemberAssignment(targetEpoch, current.memberEpoch(),
                unreleased ? MemberState.UNRELEASED_PARTITIONS.value : MemberState.STABLE.value,
                new Tasks(keptActive, keptStandby, keptWarmup), Tasks.EMPTY);
    }

    /** Adds to {@code kept} the wanted tasks not held back; whether any was. */
    private static boolean addReleased(Map<String, Set<Integer>> wanted, Map<String, Set<Integer>> kept,
            BiPredicate<String, Integer> unreleased) {
        boolean heldBack = false;
        for (Map.Entry<String, Set<Integer>> e : wanted.entrySet()) {
            for (int p : e.getValue()) {
                if (kept.getOrDefault(e.getKey(), Set.of()).contains(p)) {
                    continue;
                }
                if (unreleased.test(e.getKey(), p)) {
                    heldBack = true;
                } else {
                    kept.computeIfAbsent(e.getKey(), s -> new TreeSet<>()).add(p);
                }
            }
        }
        return heldBack;
    }

    private static void split(Map<String, Set<Integer>> had, Map<String, Set<Integer>> wanted,
            Map<String, Set<Integer>> kept, Map<String, Set<Integer>> revoked) {
        had.forEach((s, parts) -> {
            Set<Integer> w = wanted.getOrDefault(s, Set.of());
            for (int p : parts) {
                (w.contains(p) ? kept : revoked).computeIfAbsent(s, x -> new TreeSet<>()).add(p);
            }
        });
    }
}
