package io.odradek.replication.fetcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class FollowerFetchSessionTest {
    static final UUID ORDERS = UUID.randomUUID();
    static final ReplicaFetcher.Key P0 = new ReplicaFetcher.Key(ORDERS, 0);
    static final ReplicaFetcher.Key P1 = new ReplicaFetcher.Key(ORDERS, 1);
    static final ReplicaFetcher.Key P2 = new ReplicaFetcher.Key(ORDERS, 2);

    final FollowerFetchSession session = new FollowerFetchSession();

    static FollowerFetchSession.Params at(long offset) {
        return new FollowerFetchSession.Params(offset, 3, 3, 0L, 1 << 20);
    }

    static Map<ReplicaFetcher.Key, FollowerFetchSession.Params> wanted(Object... keysAndOffsets) {
        Map<ReplicaFetcher.Key, FollowerFetchSession.Params> out = new LinkedHashMap<>();
        for (int i = 0; i < keysAndOffsets.length; i += 2) {
            out.put((ReplicaFetcher.Key) keysAndOffsets[i], at((Long) keysAndOffsets[i + 1]));
        }
        return out;
    }

    /** A full request answered with session 77, for P0..P2 at offset 0. */
    void openSession() {
        FollowerFetchSession.Next full = session.next(wanted(P0, 0L, P1, 0L, P2, 0L));
        assertThat(session.handleResponse(ErrorCode.NONE, 77)).isTrue();
        assertThat(full.full()).isTrue();
    }

    @Test
    void theFirstRequestIsFullAndAsksForASession() {
        FollowerFetchSession.Next full = session.next(wanted(P0, 0L, P1, 5L));

        assertThat(full.sessionId()).isZero();
        assertThat(full.epoch()).isZero();
        assertThat(full.toSend()).containsOnlyKeys(P0, P1);
        assertThat(full.toForget()).isEmpty();
    }

    @Test
    void inASessionOnlyMovedNewAndDroppedPartitionsAreSent() {
        openSession();

        FollowerFetchSession.Next idle = session.next(wanted(P0, 0L, P1, 0L, P2, 0L));
        assertThat(idle.sessionId()).isEqualTo(77);
        assertThat(idle.epoch()).isEqualTo(1);
        assertThat(idle.toSend()).isEmpty();
        assertThat(idle.toForget()).isEmpty();
        session.handleResponse(ErrorCode.NONE, 77);

        // P1 moved, P2 paused (not ready), a leader epoch change on P0.
        Map<ReplicaFetcher.Key, FollowerFetchSession.Params> now = new LinkedHashMap<>();
        now.put(P0, new FollowerFetchSession.Params(0L, 4, 3, 0L, 1 << 20));
        now.put(P1, at(9L));
        FollowerFetchSession.Next changed = session.next(now);
        assertThat(changed.epoch()).isEqualTo(2);
        assertThat(changed.toSend()).containsExactlyEntriesOf(now);
        assertThat(changed.toForget()).containsExactly(P2);
        session.handleResponse(ErrorCode.NONE, 77);

        // P2 resumes: it is new to the session again.
        FollowerFetchSession.Next resumed = session.next(wanted(P0, 0L, P1, 9L, P2, 0L));
        assertThat(resumed.epoch()).isEqualTo(3);
        assertThat(resumed.toSend()).containsOnlyKeys(P0, P2); // P0 back at its old leader epoch here
        assertThat(resumed.toForget()).isEmpty();
    }

    @Test
    void aSessionErrorStartsOverWithAFullRequestThatClosesTheOldSession() {
        openSession();
        session.next(wanted(P0, 1L));

        assertThat(session.handleResponse(ErrorCode.INVALID_FETCH_SESSION_EPOCH, 0)).isFalse();

        FollowerFetchSession.Next full = session.next(wanted(P0, 1L, P1, 0L));
        assertThat(full.full()).isTrue();
        assertThat(full.sessionId()).isEqualTo(77); // closed by the leader as it makes a new one
        assertThat(full.toSend()).containsOnlyKeys(P0, P1);
        assertThat(session.handleResponse(ErrorCode.NONE, 88)).isTrue();
        assertThat(session.next(wanted(P0, 1L, P1, 0L)).epoch()).isEqualTo(1);
    }

    @Test
    void anUnknownSessionIsNotNamedAgain() {
        openSession();
        session.next(wanted(P0, 0L));
        session.handleResponse(ErrorCode.FETCH_SESSION_ID_NOT_FOUND, 0);

        FollowerFetchSession.Next full = session.next(wanted(P0, 0L));
        assertThat(full.sessionId()).isZero();
        assertThat(full.epoch()).isZero();
    }

    @Test
    void aLeaderWithNoRoomAnswersSessionIdZeroAndEveryRequestStaysFull() {
        session.next(wanted(P0, 0L));
        assertThat(session.handleResponse(ErrorCode.NONE, 0)).isTrue();

        FollowerFetchSession.Next again = session.next(wanted(P0, 2L));
        assertThat(again.full()).isTrue();
        assertThat(again.sessionId()).isZero();
        assertThat(again.toSend()).containsOnlyKeys(P0);
    }

    @Test
    void aLostAnswerMakesTheNextRequestFull() {
        openSession();
        session.next(wanted(P0, 0L, P1, 0L, P2, 0L));
        session.reset();

        FollowerFetchSession.Next full = session.next(wanted(P0, 0L, P1, 0L, P2, 0L));
        assertThat(full.full()).isTrue();
        assertThat(full.sessionId()).isEqualTo(77);
        assertThat(full.toSend()).hasSize(3);
    }
}
