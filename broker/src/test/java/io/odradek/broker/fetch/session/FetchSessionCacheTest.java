package io.odradek.broker.fetch.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FetchSessionCacheTest {
    static final long EVICTION_MS = FetchSessionCache.KAFKA_EVICTION_MS;
    static final UUID ORDERS = UUID.randomUUID();

    final AtomicLong now = new AtomicLong(1_000_000L);

    /** One shard, so slot counts are exact. */
    FetchSessionCache cache(int slots) {
        return new FetchSessionCache(slots, 1, EVICTION_MS, 10_000, now::get);
    }

    /** What a read produced, as the handler reports it. */
    record Read(SessionPartition sessionPartition, boolean hasRecords, boolean hasError, boolean hasDivergingEpoch,
            long highWatermark, long logStartOffset) implements PartitionRead {
        static Read quiet(SessionPartition p, long hw) {
            return new Read(p, false, false, false, hw, 0L);
        }

        static Read withRecords(SessionPartition p, long hw) {
            return new Read(p, true, false, false, hw, 0L);
        }
    }

    static SessionPartition part(int partition, long offset) {
        return new SessionPartition(ORDERS, "orders", partition, offset, 1 << 20, -1, -1, -1L);
    }

    static List<SessionPartition> parts(int count) {
        List<SessionPartition> out = new ArrayList<>();
        for (int p = 0; p < count; p++) {
            out.add(part(p, 0L));
        }
        return out;
    }

    /** A full request (epoch 0) read with every partition at high watermark 0; returns the new session's id. */
    static int openSession(FetchSessionCache cache, boolean follower, int partitions) {
        FetchContext full = cache.newContext(true, 0, 0, follower, parts(partitions), List.of(), id -> "orders");
        List<Read> read = new ArrayList<>();
        full.forEachPartition(p -> read.add(Read.quiet(p, 0L)));
        return full.answer(read).sessionId();
    }

    static FetchContext incremental(FetchSessionCache cache, int sessionId, int epoch, List<SessionPartition> changed,
            List<SessionPartition> forgotten) {
        return cache.newContext(true, sessionId, epoch, false, changed, forgotten, id -> "orders");
    }

    static List<SessionPartition> partitionsOf(FetchContext context) {
        List<SessionPartition> out = new ArrayList<>();
        context.forEachPartition(out::add);
        return out;
    }

    // ------------------------------------------------------------------ epochs and errors

    @Test
    void aFullRequestOpensASessionWhoseNextEpochIsOne() {
        FetchSessionCache cache = cache(10);
        int id = openSession(cache, false, 3);

        assertThat(id).isPositive();
        FetchSession session = cache.session(id).orElseThrow();
        assertThat(session.epoch()).isEqualTo(1);
        assertThat(session.size()).isEqualTo(3);
        assertThat(session.privileged()).isFalse();
        assertThat(session.usesTopicIds()).isTrue();
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.totalPartitions()).isEqualTo(3);
    }

    @Test
    void incrementalRequestsMustCarryTheExpectedEpochInTurn() {
        FetchSessionCache cache = cache(10);
        int id = openSession(cache, false, 2);

        assertThat(incremental(cache, id, 1, List.of(), List.of())).isInstanceOf(FetchContext.Incremental.class);
        assertThat(cache.session(id).orElseThrow().epoch()).isEqualTo(2);
        // The same epoch again (a duplicate), or one ahead: refused, and the session keeps expecting 2.
        assertThat(incremental(cache, id, 1, List.of(), List.of()))
                .isEqualTo(new FetchContext.SessionError(ErrorCode.INVALID_FETCH_SESSION_EPOCH));
        assertThat(incremental(cache, id, 3, List.of(), List.of()))
                .isEqualTo(new FetchContext.SessionError(ErrorCode.INVALID_FETCH_SESSION_EPOCH));
        assertThat(incremental(cache, id, 2, List.of(), List.of())).isInstanceOf(FetchContext.Incremental.class);
    }

    @Test
    void anUnknownSessionIdIsNotFound() {
        FetchSessionCache cache = cache(10);
        for (int id : new int[] {17, -4, Integer.MAX_VALUE}) {
            FetchContext context = incremental(cache, id, 1, List.of(part(0, 0L)), List.of());
            assertThat(context).isEqualTo(new FetchContext.SessionError(ErrorCode.FETCH_SESSION_ID_NOT_FOUND));
            FetchContext.Answer<Read> answer = context.answer(List.of());
            assertThat(answer.sessionId()).isZero();
            assertThat(answer.partitions()).isEmpty();
        }
    }

    @Test
    void aSessionMadeByTopicIdCannotBeUsedByNameOrTheReverse() {
        FetchSessionCache cache = cache(10);
        int byId = openSession(cache, false, 1);
        assertThat(cache.newContext(false, byId, 1, false, List.of(), List.of(), id -> null))
                .isEqualTo(new FetchContext.SessionError(ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR));

        FetchContext full = cache.newContext(false, 0, 0, false,
                List.of(new SessionPartition(null, "orders", 0, 0L, 100, -1, -1, -1L)), List.of(), id -> null);
        List<Read> read = new ArrayList<>();
        full.forEachPartition(p -> read.add(Read.quiet(p, 0L)));
        int byName = full.answer(read).sessionId();
        assertThat(cache.session(byName).orElseThrow().usesTopicIds()).isFalse();
        assertThat(incremental(cache, byName, 1, List.of(), List.of()))
                .isEqualTo(new FetchContext.SessionError(ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR));
    }

    @Test
    void aFullRequestNamingASessionClosesIt() {
        FetchSessionCache cache = cache(10);
        int first = openSession(cache, false, 2);
        // Epoch -1: closed, no new session.
        FetchContext sessionless = cache.newContext(true, first, -1, false, parts(2), List.of(), id -> "orders");
        assertThat(sessionless).isInstanceOf(FetchContext.Sessionless.class);
        assertThat(cache.session(first)).isEmpty();
        assertThat(cache.size()).isZero();

        // Epoch 0: the old one closed, a new one opened with the answer.
        int second = openSession(cache, false, 2);
        FetchContext full = cache.newContext(true, second, 0, false, parts(2), List.of(), id -> "orders");
        assertThat(cache.session(second)).isEmpty();
        List<Read> read = new ArrayList<>();
        full.forEachPartition(p -> read.add(Read.quiet(p, 0L)));
        int third = full.answer(read).sessionId();
        assertThat(third).isPositive().isNotEqualTo(second);
        assertThat(cache.size()).isEqualTo(1);
    }

    // ------------------------------------------------------------------ partitions in a session

    @Test
    void anIncrementalRequestUpdatesAddsAndForgetsPartitions() {
        FetchSessionCache cache = cache(10);
        int id = openSession(cache, false, 3);

        FetchContext context = incremental(cache, id, 1, List.of(part(1, 42L), part(7, 5L)),
                List.of(SessionPartition.key(ORDERS, null, 0)));

        assertThat(partitionsOf(context)).extracting(SessionPartition::toString)
                .containsExactly("orders-1@42", "orders-2@0", "orders-7@5");
        assertThat(cache.totalPartitions()).isEqualTo(3);
    }

    @Test
    void theResponseCarriesOnlyPartitionsWithSomethingToSayAndRecordsWhatItSent() {
        FetchSessionCache cache = cache(10);
        int id = openSession(cache, false, 4); // every partition sent with high watermark 0
        FetchContext context = incremental(cache, id, 1, List.of(), List.of());
        List<SessionPartition> ps = partitionsOf(context);
        List<Read> read = List.of(
                Read.quiet(ps.get(0), 0L), // nothing new
                Read.withRecords(ps.get(1), 3L), // records
                Read.quiet(ps.get(2), 5L), // the high watermark moved
                new Read(ps.get(3), false, true, false, -1L, -1L)); // an error

        FetchContext.Answer<Read> answer = context.answer(read);

        assertThat(answer.error()).isEqualTo(ErrorCode.NONE);
        assertThat(answer.sessionId()).isEqualTo(id);
        assertThat(answer.partitions()).containsExactly(read.get(1), read.get(2), read.get(3));
        // The partition that returned records is read last next time.
        FetchContext next = incremental(cache, id, 2, List.of(), List.of());
        List<SessionPartition> order = partitionsOf(next);
        assertThat(order).extracting(SessionPartition::partition).containsExactly(0, 2, 3, 1);
        // What was sent is remembered: the same values again say nothing; the errored one is sent again once well.
        FetchContext.Answer<Read> again = next.answer(List.of(Read.quiet(order.get(0), 0L), Read.quiet(order.get(1), 5L),
                Read.quiet(order.get(2), 0L), Read.quiet(order.get(3), 3L)));
        assertThat(again.partitions()).extracting(r -> r.sessionPartition().partition()).containsExactly(3);
    }

    @Test
    void aParkedFetchOvertakenByALaterRequestOfItsSessionAnswersInvalidEpoch() {
        FetchSessionCache cache = cache(10);
        int id = openSession(cache, false, 1);
        FetchContext parked = incremental(cache, id, 1, List.of(), List.of());
        List<SessionPartition> ps = partitionsOf(parked);
        incremental(cache, id, 2, List.of(), List.of()); // the client retried meanwhile

        FetchContext.Answer<Read> answer = parked.answer(List.of(Read.withRecords(ps.get(0), 9L)));

        assertThat(answer.error()).isEqualTo(ErrorCode.INVALID_FETCH_SESSION_EPOCH);
        assertThat(answer.sessionId()).isEqualTo(id);
        assertThat(answer.partitions()).isEmpty();
    }

    @Test
    void aThrottledResponseCarriesNothingAndRecordsNothingAsSent() {
        FetchSessionCache cache = cache(10);
        int id = openSession(cache, false, 1);
        FetchContext throttled = incremental(cache, id, 1, List.of(), List.of());

        FetchContext.Answer<Read> answer = throttled.throttled();

        assertThat(answer.error()).isEqualTo(ErrorCode.NONE);
        assertThat(answer.sessionId()).isEqualTo(id);
        assertThat(answer.partitions()).isEmpty();
        // The high watermark move the throttled response did not carry is still sent by the next one.
        FetchContext next = incremental(cache, id, 2, List.of(), List.of());
        Read moved = Read.quiet(partitionsOf(next).get(0), 7L);
        assertThat(next.answer(List.of(moved)).partitions()).containsExactly(moved);
    }

    @Test
    void forgettingEveryPartitionClosesTheSession() {
        FetchSessionCache cache = cache(10);
        int id = openSession(cache, false, 1);
        FetchContext context = incremental(cache, id, 1, List.of(), List.of(SessionPartition.key(ORDERS, null, 0)));
        assertThat(context).isInstanceOf(FetchContext.Sessionless.class);
        assertThat(cache.session(id)).isEmpty();
        assertThat(cache.totalPartitions()).isZero();
    }

    @Test
    void aSessionCannotGrowPastItsPartitionLimit() {
        FetchSessionCache cache = new FetchSessionCache(10, 1, EVICTION_MS, 3, now::get);
        assertThat(openSession(cache, false, 4)).isZero(); // too big to cache: served without a session
        int id = openSession(cache, false, 3);
        FetchContext grown = incremental(cache, id, 1, List.of(part(9, 0L)), List.of());
        assertThat(grown).isInstanceOf(FetchContext.Sessionless.class);
        assertThat(partitionsOf(grown)).extracting(SessionPartition::partition).containsExactly(9);
        assertThat(cache.session(id)).isEmpty();
    }

    @Test
    void anIdUnknownWhenAddedIsResolvedOnceKnown() {
        FetchSessionCache cache = cache(10);
        UUID later = UUID.randomUUID();
        FetchContext full = cache.newContext(true, 0, 0, false,
                List.of(new SessionPartition(later, null, 0, 0L, 100, -1, -1, -1L)), List.of(), id -> null);
        List<Read> read = new ArrayList<>();
        full.forEachPartition(p -> read.add(new Read(p, false, true, false, -1L, -1L)));
        int id = full.answer(read).sessionId();

        FetchContext next = cache.newContext(true, id, 1, false, List.of(), List.of(),
                topicId -> topicId.equals(later) ? "created-later" : null);

        assertThat(partitionsOf(next)).extracting(SessionPartition::topic).containsExactly("created-later");
    }

    @Test
    void aFullRequestNamingAPartitionTwiceReadsItOnceWithItsLastOffsetAndTheSessionFollowsTheFetcher() {
        FetchSessionCache cache = cache(10);
        FetchContext full = cache.newContext(true, 0, 0, false, List.of(part(0, 5L), part(1, 0L), part(0, 7L)),
                List.of(), id -> "orders");
        List<SessionPartition> requested = partitionsOf(full);
        assertThat(requested).extracting(SessionPartition::toString).containsExactly("orders-0@7", "orders-1@0");
        List<Read> read = new ArrayList<>();
        requested.forEach(p -> read.add(Read.quiet(p, 10L)));
        FetchContext.Answer<Read> answer = full.answer(read);
        assertThat(answer.partitions()).hasSize(2);
        assertThat(cache.totalPartitions()).isEqualTo(2);

        // The fetcher moves partition 0 to 20: the session reads it there and the response carries it.
        FetchContext next = incremental(cache, answer.sessionId(), 1, List.of(part(0, 20L)), List.of());
        List<SessionPartition> cached = partitionsOf(next);
        assertThat(cached).extracting(SessionPartition::toString).containsExactly("orders-0@20", "orders-1@0");
        Read moved = Read.withRecords(cached.get(0), 30L);
        assertThat(next.answer(List.of(moved, Read.quiet(cached.get(1), 10L))).partitions()).containsExactly(moved);
    }

    @Test
    void anIncrementalRequestNamingAPartitionTwiceTakesItsLastOffset() {
        FetchSessionCache cache = cache(10);
        int id = openSession(cache, false, 1);
        FetchContext next = incremental(cache, id, 1, List.of(part(0, 9L), part(3, 1L), part(0, 4L)), List.of());
        assertThat(partitionsOf(next)).extracting(SessionPartition::toString).containsExactly("orders-0@4", "orders-3@1");
        assertThat(cache.totalPartitions()).isEqualTo(2);
    }

    @Test
    void aSessionlessRequestNamingAPartitionTwiceReadsItOnce() {
        FetchSessionCache cache = cache(10);
        FetchContext sessionless = cache.newContext(true, 0, -1, false, List.of(part(2, 1L), part(2, 3L)), List.of(),
                id -> "orders");
        assertThat(partitionsOf(sessionless)).extracting(SessionPartition::toString).containsExactly("orders-2@3");
    }

    // ------------------------------------------------------------------ the cache's partition budget

    /** One shard, plenty of slots, at most {@code budget} partitions cached in all. */
    FetchSessionCache budget(int budget) {
        return new FetchSessionCache(100, 1, EVICTION_MS, 10_000, budget, now::get);
    }

    @Test
    void aFullRequestThatWouldOverfillThePartitionBudgetGetsNoSessionButAnAnswer() {
        FetchSessionCache cache = budget(10);
        int first = openSession(cache, false, 6);
        FetchContext full = cache.newContext(true, 0, 0, false, parts(5), List.of(), id -> "orders");
        List<Read> read = new ArrayList<>();
        full.forEachPartition(p -> read.add(Read.quiet(p, 0L)));

        FetchContext.Answer<Read> answer = full.answer(read);

        assertThat(answer.sessionId()).isZero();
        assertThat(answer.error()).isEqualTo(ErrorCode.NONE);
        assertThat(answer.partitions()).hasSize(5);
        assertThat(cache.session(first)).isPresent();
        assertThat(cache.evictions()).isZero();
        assertThat(openSession(cache, false, 4)).isPositive(); // what still fits gets a session
        assertThat(cache.totalPartitions()).isEqualTo(10);
        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void oneClientFillingFreeSlotsWithMadeUpPartitionsStopsAtTheBudget() {
        FetchSessionCache cache = new FetchSessionCache(1000, 8, EVICTION_MS, 10_000, 8_000, now::get);
        int made = 0;
        for (int i = 0; i < 100; i++) {
            List<SessionPartition> madeUp = new ArrayList<>();
            UUID unknown = UUID.randomUUID();
            for (int p = 0; p < 1_000; p++) {
                madeUp.add(new SessionPartition(unknown, null, p, 0L, 1 << 20, -1, -1, -1L));
            }
            FetchContext full = cache.newContext(true, 0, 0, false, madeUp, List.of(), id -> null);
            List<Read> read = new ArrayList<>();
            full.forEachPartition(p -> read.add(new Read(p, false, true, false, -1L, -1L)));
            if (full.answer(read).sessionId() != 0) {
                made++;
            }
        }
        assertThat(made).isEqualTo(8); // 1,000 each: one per shard's 1,000 share, though 992 slots are free
        assertThat(cache.size()).isEqualTo(8);
        assertThat(cache.totalPartitions()).isEqualTo(8_000);
    }

    @Test
    void aStaleSessionIsEvictedToMakeRoomInThePartitionBudget() {
        FetchSessionCache cache = budget(10);
        int stale = openSession(cache, false, 8);
        now.addAndGet(EVICTION_MS + 1);

        int newcomer = openSession(cache, false, 5);

        assertThat(newcomer).isPositive();
        assertThat(cache.session(stale)).isEmpty();
        assertThat(cache.evictions()).isEqualTo(1);
        assertThat(cache.totalPartitions()).isEqualTo(5);
    }

    @Test
    void aNewcomerThatCannotFitEvenAfterEvictingWhatItMayEvictsNobody() {
        FetchSessionCache cache = budget(10);
        int small = openSession(cache, false, 2);
        int big = openSession(cache, false, 7);
        now.addAndGet(EVICTION_MS + 1);
        incremental(cache, small, 1, List.of(), List.of()); // both in use, both evictable by a bigger newcomer
        incremental(cache, big, 1, List.of(), List.of());

        // 5 would need the 7-partition session gone too, which is worth more: nobody is evicted.
        assertThat(openSession(cache, false, 5)).isZero();
        // 2 is worth no more than the 2-partition session (equal size: the newcomer's id 0 sorts lower).
        assertThat(openSession(cache, false, 2)).isZero();
        assertThat(cache.session(small)).isPresent();
        assertThat(cache.session(big)).isPresent();
        assertThat(cache.evictions()).isZero();

        // 3 is worth more than the 2-partition session and fits once it is gone.
        int newcomer = openSession(cache, false, 3);
        assertThat(newcomer).isPositive();
        assertThat(cache.session(small)).isEmpty();
        assertThat(cache.session(big)).isPresent();
        assertThat(cache.evictions()).isEqualTo(1);
        assertThat(cache.totalPartitions()).isEqualTo(10);
    }

    @Test
    void anIncrementalRequestGrowingPastThePartitionBudgetClosesItsSessionAndIsAnsweredWithout() {
        FetchSessionCache cache = budget(10);
        openSession(cache, false, 6);
        int growing = openSession(cache, false, 3);

        FetchContext grown = incremental(cache, growing, 1, List.of(part(7, 0L), part(8, 0L)), List.of());

        assertThat(grown).isInstanceOf(FetchContext.Sessionless.class);
        assertThat(partitionsOf(grown)).extracting(SessionPartition::partition).containsExactly(7, 8);
        assertThat(grown.answer(List.of()).sessionId()).isZero();
        assertThat(cache.session(growing)).isEmpty();
        assertThat(cache.totalPartitions()).isEqualTo(6);
        // Growing within the budget is fine.
        int other = openSession(cache, false, 3);
        assertThat(incremental(cache, other, 1, List.of(part(5, 0L)), List.of())).isInstanceOf(FetchContext.Incremental.class);
        assertThat(cache.totalPartitions()).isEqualTo(10);
    }

    // ------------------------------------------------------------------ slots and eviction

    @Test
    void withEverySlotTakenByRecentSessionsANewConsumerGetsNone() {
        FetchSessionCache cache = cache(2);
        openSession(cache, false, 1);
        openSession(cache, false, 1);
        now.addAndGet(EVICTION_MS); // not more than the eviction time: nobody is stale or evictable
        assertThat(openSession(cache, false, 50)).isZero();
        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.evictions()).isZero();
    }

    @Test
    void aSessionUnusedForLongerThanTheEvictionTimeMakesRoom() {
        FetchSessionCache cache = cache(2);
        int stale = openSession(cache, false, 5);
        now.addAndGet(10);
        int used = openSession(cache, false, 5);
        now.addAndGet(EVICTION_MS);
        incremental(cache, used, 1, List.of(), List.of()); // keeps this one fresh
        now.addAndGet(1); // the first one is now unused for more than 120 s

        int newcomer = openSession(cache, false, 1);

        assertThat(newcomer).isPositive();
        assertThat(cache.session(stale)).isEmpty();
        assertThat(cache.session(used)).isPresent();
        assertThat(cache.evictions()).isEqualTo(1);
    }

    @Test
    void aFollowerEvictsTheSmallestConsumerSessionAtAnyAge() {
        FetchSessionCache cache = cache(2);
        int small = openSession(cache, false, 2);
        int big = openSession(cache, false, 9);

        int follower = openSession(cache, true, 1);

        assertThat(follower).isPositive();
        assertThat(cache.session(small)).isEmpty();
        assertThat(cache.session(big)).isPresent();
        assertThat(cache.session(follower).orElseThrow().privileged()).isTrue();
    }

    @Test
    void aConsumerCannotEvictARecentFollowerSession() {
        FetchSessionCache cache = cache(1);
        int follower = openSession(cache, true, 1);
        now.addAndGet(EVICTION_MS / 2);
        assertThat(openSession(cache, false, 1000)).isZero();
        assertThat(cache.session(follower)).isPresent();
    }

    @Test
    void pastItsProtectionASessionIsEvictedByABiggerOneButNotBySmallerOrEqual() {
        FetchSessionCache cache = cache(2);
        int small = openSession(cache, false, 2);
        int big = openSession(cache, false, 9);
        now.addAndGet(EVICTION_MS + 1);
        // Both in use (not stale), both older than the protection period: evictable by anyone.
        incremental(cache, small, 1, List.of(), List.of());
        incremental(cache, big, 1, List.of(), List.of());

        assertThat(openSession(cache, false, 1)).isZero();
        assertThat(openSession(cache, false, 2)).isZero(); // equal size: the newcomer's id 0 sorts lower
        int bigger = openSession(cache, false, 3);

        assertThat(bigger).isPositive();
        assertThat(cache.session(small)).isEmpty();
        assertThat(cache.session(big)).isPresent();
        assertThat(cache.totalPartitions()).isEqualTo(12);
    }

    @Test
    void slotsAreSplitOverKafkasEightShards() {
        FetchSessionCache seven = new FetchSessionCache(7, 8, EVICTION_MS, 100, now::get);
        assertThat(openSession(seven, false, 1)).isZero(); // 7 / 8 = 0 slots per shard, as in Kafka

        FetchSessionCache sixteen = new FetchSessionCache(16, 8, EVICTION_MS, 100, now::get);
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            ids.add(openSession(sixteen, false, 1));
        }
        assertThat(ids).allMatch(id -> id > 0).doesNotHaveDuplicates();
        // Each shard hands out ids from its own eighth of the range, two sessions each.
        assertThat(ids.stream().map(id -> id / (Integer.MAX_VALUE / 8)).distinct()).hasSize(8);
        assertThat(openSession(sixteen, false, 1)).isZero();
        assertThat(sixteen.size()).isEqualTo(16);
    }
}
