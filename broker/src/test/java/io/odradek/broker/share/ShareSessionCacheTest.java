package io.odradek.broker.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ShareSessionCacheTest {
    private static final UUID T = UUID.randomUUID();
    private static final TopicIdPartition P0 = new TopicIdPartition(T, 0);
    private static final TopicIdPartition P1 = new TopicIdPartition(T, 1);

    private final ShareSessionCache cache = new ShareSessionCache(2);

    @Test
    void anOpeningRequestStartsTheSessionAtEpochOneWithItsPartitions() {
        ShareSessionCache.Context opened = cache.newContext("g", "m", 0, List.of(P0, P1, P0), List.of(), false);

        assertThat(opened.kind()).isEqualTo(ShareSessionCache.Kind.INITIAL);
        assertThat(opened.partitions()).containsExactly(P0, P1);
        assertThat(cache.newContext("g", "m", 1, List.of(), List.of(P0), false).partitions()).containsExactly(P1);
        assertThat(cache.newContext("g", "m", 2, List.of(P0), List.of(), false).partitions()).containsExactly(P1, P0);
    }

    @Test
    void theGroupEmptyListenerRunsWhenTheGroupsLastSessionLeavesOnly() {
        List<String> emptied = new java.util.ArrayList<>();
        ShareSessionCache listening = new ShareSessionCache(10, emptied::add);
        listening.newContext("g", "a", 0, List.of(P0), List.of(), false);
        ShareSession b = listening.newContext("g", "b", 0, List.of(P0), List.of(), false).session();
        listening.newContext("h", "a", 0, List.of(P0), List.of(), false);
        listening.newContext("g", "a", 0, List.of(P1), List.of(), false); // replaced: the group keeps a session

        listening.remove("g", "a");
        assertThat(emptied).isEmpty();
        assertThat(listening.remove(b)).isTrue();
        assertThat(emptied).containsExactly("g");
        assertThat(listening.remove(b)).isFalse();
        assertThat(emptied).containsExactly("g");
    }

    @Test
    void wrongEpochsAndUnknownSessionsAreRefusedWithKafkasErrors() {
        assertThat(refusal(() -> cache.newContext("g", "m", 4, List.of(P0), List.of(), false)))
                .isEqualTo(ErrorCode.SHARE_SESSION_NOT_FOUND);
        assertThat(refusal(() -> cache.newContext("g", "m", -1, List.of(), List.of(), false)))
                .isEqualTo(ErrorCode.SHARE_SESSION_NOT_FOUND);
        cache.newContext("g", "m", 0, List.of(P0), List.of(), false);
        assertThat(refusal(() -> cache.newContext("g", "m", 2, List.of(), List.of(), false)))
                .isEqualTo(ErrorCode.INVALID_SHARE_SESSION_EPOCH);
        assertThat(refusal(() -> cache.acknowledgeSessionUpdate("g", "m", 0))).isEqualTo(ErrorCode.INVALID_SHARE_SESSION_EPOCH);
        assertThat(refusal(() -> cache.newContext("g", "other", 0, List.of(P0), List.of(), true)))
                .isEqualTo(ErrorCode.INVALID_REQUEST);
    }

    @Test
    void theCacheHoldsAtMostItsLimitButAMemberMayReopenItsOwnSession() {
        cache.newContext("g", "a", 0, List.of(P0), List.of(), false);
        cache.newContext("g", "b", 0, List.of(P0), List.of(), false);

        assertThat(refusal(() -> cache.newContext("g", "c", 0, List.of(P0), List.of(), false)))
                .isEqualTo(ErrorCode.SHARE_SESSION_LIMIT_REACHED);
        assertThat(cache.newContext("g", "a", 0, List.of(P1), List.of(), false).partitions()).containsExactly(P1);
        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void anAnswerIsStaleOnceAnotherRequestOfTheSessionCameIn() {
        cache.newContext("g", "m", 0, List.of(P0), List.of(), false);
        ShareSessionCache.Context first = cache.newContext("g", "m", 1, List.of(), List.of(), false);
        assertThat(cache.stillCurrent(first)).isTrue();

        cache.acknowledgeSessionUpdate("g", "m", 2);

        assertThat(cache.stillCurrent(first)).isFalse();
    }

    @Test
    void incrementalAnswersCarryNewPartitionsOnceAndErrorsUntilTheyClear() {
        ShareSessionCache.Context opened = cache.newContext("g", "m", 0, List.of(P0), List.of(), false);
        ShareSession session = opened.session();
        cache.newContext("g", "m", 1, List.of(P1), List.of(), false);

        assertThat(cache.mustRespond(session, P0, false, false)).isFalse();
        assertThat(cache.mustRespond(session, P1, false, false)).as("just added").isTrue();
        assertThat(cache.mustRespond(session, P1, false, false)).isFalse();
        assertThat(cache.mustRespond(session, P1, false, true)).isTrue();
        assertThat(cache.mustRespond(session, P1, false, false)).as("the error cleared").isTrue();
        assertThat(cache.mustRespond(session, P1, false, false)).isFalse();
        assertThat(cache.mustRespond(session, P0, true, false)).isTrue();
        assertThat(cache.partitions(session)).as("records move a partition last").containsExactly(P1, P0);
    }

    @Test
    void aSessionToldWhenItLeavesTheCacheHearsItOnceHoweverItLeaves() {
        List<String> heard = new java.util.ArrayList<>();
        ShareSession first = cache.newContext("g", "m", 0, List.of(P0), List.of(), false).session();
        cache.onRemoved(first, () -> heard.add("first"));
        ShareSession second = cache.newContext("g", "m", 0, List.of(P0), List.of(), false).session(); // replaces it
        cache.onRemoved(second, () -> heard.add("second"));

        assertThat(cache.remove(first)).isFalse();
        cache.remove("g", "m");
        cache.onRemoved(second, () -> heard.add("late"));

        assertThat(heard).containsExactly("first", "second", "late");
    }

    @Test
    void epochsWrapToOneAfterTheLargestInt() {
        assertThat(ShareSessionCache.nextEpoch(Integer.MAX_VALUE)).isEqualTo(1);
        assertThat(ShareSessionCache.nextEpoch(0)).isEqualTo(1);
        assertThat(ShareSessionCache.nextEpoch(-1)).isEqualTo(-1);
    }

    private static ErrorCode refusal(Runnable call) {
        try {
            call.run();
        } catch (ShareSessionException e) {
            return e.error();
        }
        return fail("expected a refusal");
    }
}
