package io.odradek.coordinator.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.offsets.StreamsGroupRecord;
import io.odradek.coordinator.offsets.StreamsGroupRecord.MemberAssignment;
import io.odradek.coordinator.offsets.StreamsGroupRecord.Tasks;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Streams reconciliation across members of one Kafka Streams process (two stream threads): a task's state is
 * never held twice on one process, so a task moves between them only once released (Kafka 4.4's streams
 * CurrentAssignmentBuilder).
 */
class StreamsTaskReconcilerTest {
    private final StreamsGroup group = new StreamsGroup("app");

    private void member(String memberId, String processId, MemberAssignment assignment) {
        StreamsGroupMember m = new StreamsGroupMember(memberId);
        m.metadata = new StreamsGroupRecord.Member(null, null, "client", "/127.0.0.1", 30_000, 1, processId, null, Map.of());
        m.assignment = assignment;
        group.members.put(memberId, m);
    }

    private static Tasks active(int... partitions) {
        return new Tasks(Map.of("0", set(partitions)), Map.of(), Map.of());
    }

    private static Tasks standby(int... partitions) {
        return new Tasks(Map.of(), Map.of("0", set(partitions)), Map.of());
    }

    private static Set<Integer> set(int... partitions) {
        return java.util.Arrays.stream(partitions).boxed().collect(java.util.stream.Collectors.toSet());
    }

    private MemberAssignment reconcile(String memberId, String processId, Tasks target) {
        MemberAssignment current = new MemberAssignment(5, 4, MemberState.STABLE.value, Tasks.EMPTY, Tasks.EMPTY);
        return StreamsTaskReconciler.inGroup(group, memberId, processId, null, current, 6, target, Tasks.EMPTY).next();
    }

    @Test
    void aStandbyIsNotGivenWhileAnotherMemberOfTheSameProcessStillRevokesTheTaskAsActive() {
        member("m1", "p", new MemberAssignment(5, 4, MemberState.UNREVOKED_PARTITIONS.value, Tasks.EMPTY, active(0)));
        member("m2", "p", MemberAssignment.INITIAL);

        MemberAssignment next = reconcile("m2", "p", standby(0));

        assertThat(next.memberEpoch()).isEqualTo(6);
        assertThat(MemberState.of(next.state())).isEqualTo(MemberState.UNRELEASED_PARTITIONS);
        assertThat(next.assigned()).isEqualTo(Tasks.EMPTY);
    }

    @Test
    void anActiveTaskIsNotGivenWhileAnotherMemberOfTheSameProcessStillHoldsItAsStandby() {
        member("m1", "p", new MemberAssignment(5, 4, MemberState.STABLE.value, standby(0), Tasks.EMPTY));
        member("m2", "p", MemberAssignment.INITIAL);

        MemberAssignment next = reconcile("m2", "p", active(0));

        assertThat(MemberState.of(next.state())).isEqualTo(MemberState.UNRELEASED_PARTITIONS);
        assertThat(next.assigned()).isEqualTo(Tasks.EMPTY);
    }

    @Test
    void aStandbyOnAnotherProcessThanTheActiveOwnerIsGivenAtOnce() {
        member("m1", "p", new MemberAssignment(5, 4, MemberState.STABLE.value, active(0), Tasks.EMPTY));
        member("m2", "q", MemberAssignment.INITIAL);

        MemberAssignment next = reconcile("m2", "q", standby(0));

        assertThat(MemberState.of(next.state())).isEqualTo(MemberState.STABLE);
        assertThat(next.assigned()).isEqualTo(standby(0));
    }
}
