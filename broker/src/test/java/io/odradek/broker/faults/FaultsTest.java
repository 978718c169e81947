package io.odradek.broker.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.wire.ErrorCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** issue 11 (faults): which requests a rule takes, how its uses run out, and in what order rules apply. */
class FaultsTest {
    private static final short PRODUCE = 0;
    private static final short FETCH = 1;
    private static final short FIND_COORDINATOR = 10;
    private static final short V = 9;
    private static final Fault.Error NOT_LEADER = new Fault.Error(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());

    private final Faults faults = new Faults();

    @Test
    void noRulesServesEveryRequest() {
        assertThat(faults.next(PRODUCE, V, "app")).isNull();
        assertThat(faults.rules()).isEmpty();
    }

    @Test
    void errorRuleTakesTheNextRequestsOfItsApiThenIsGone() {
        faults.failNext("Produce", null, 2, "NOT_LEADER_OR_FOLLOWER");
        assertThat(faults.next(FETCH, V, "app")).isNull();
        assertThat(faults.next(PRODUCE, V, "app")).isEqualTo(NOT_LEADER);
        assertThat(faults.rules()).singleElement().satisfies(r -> {
            assertThat(r.api()).isEqualTo("Produce");
            assertThat(r.remaining()).isEqualTo(1);
            assertThat(r.describe()).isEqualTo("next 1 Produce request: error NOT_LEADER_OR_FOLLOWER");
        });
        assertThat(faults.next(PRODUCE, V, "other")).isEqualTo(NOT_LEADER);
        assertThat(faults.next(PRODUCE, V, "app")).isNull();
        assertThat(faults.rules()).isEmpty();
    }

    @Test
    void apiIsNamedCaseInsensitivelyOrByKey() {
        faults.failNext("findcoordinator", null, 1, "coordinator_not_available");
        faults.dropNext("1", null, 1);
        assertThat(faults.next(FIND_COORDINATOR, (short) 4, null))
                .isEqualTo(new Fault.Error(ErrorCode.COORDINATOR_NOT_AVAILABLE.code()));
        assertThat(faults.next(FETCH, V, null)).isEqualTo(new Fault.Drop());
    }

    @Test
    void clientIdRuleTakesOnlyThatClientsRequests() {
        faults.delayNext("Fetch", "slow-consumer", 1, Duration.ofMillis(250));
        assertThat(faults.next(FETCH, V, "fast-consumer")).isNull();
        assertThat(faults.next(FETCH, V, null)).isNull();
        assertThat(faults.next(FETCH, V, "slow-consumer")).isEqualTo(new Fault.Delay(250));
        assertThat(faults.rules()).isEmpty();
    }

    @Test
    void rulesApplyInTheOrderTheyWereAdded() {
        faults.failNext("Produce", null, 1, "REQUEST_TIMED_OUT")
                .delayNext("Produce", null, 1, Duration.ofSeconds(1))
                .failNext("Produce", null, 1, "NOT_LEADER_OR_FOLLOWER");
        assertThat(faults.rules()).extracting(FaultRule::action)
                .containsExactly("error REQUEST_TIMED_OUT", "delay 1000 ms", "error NOT_LEADER_OR_FOLLOWER");
        assertThat(faults.next(PRODUCE, V, "app")).isEqualTo(new Fault.Error(ErrorCode.REQUEST_TIMED_OUT.code()));
        assertThat(faults.next(PRODUCE, V, "app")).isEqualTo(new Fault.Delay(1000));
        assertThat(faults.next(PRODUCE, V, "app")).isEqualTo(NOT_LEADER);
        assertThat(faults.next(PRODUCE, V, "app")).isNull();
    }

    @Test
    void aClientRuleAddedFirstWinsOverALaterRuleForEveryone() {
        faults.dropNext("Produce", "a", 1).failNext("Produce", null, 1, "NOT_LEADER_OR_FOLLOWER");
        assertThat(faults.next(PRODUCE, V, "b")).isEqualTo(NOT_LEADER);
        assertThat(faults.next(PRODUCE, V, "a")).isEqualTo(new Fault.Drop());
    }

    @Test
    void clearRemovesEveryRule() {
        faults.failNext("Produce", null, 5, "NOT_LEADER_OR_FOLLOWER").dropNext("Fetch", null, 5);
        faults.clear();
        assertThat(faults.rules()).isEmpty();
        assertThat(faults.next(PRODUCE, V, "app")).isNull();
    }

    @Test
    void badRulesAreRefusedWithTheReason() {
        assertThatThrownBy(() -> faults.failNext("Produec", null, 1, "NOT_LEADER_OR_FOLLOWER"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown API Produec");
        assertThatThrownBy(() -> faults.failNext("Produce", null, 1, "NOT_A_LEADER"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown error NOT_A_LEADER");
        assertThatThrownBy(() -> faults.failNext("Produce", null, 1, "NONE"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> faults.failNext("CreateAcls", null, 1, "CLUSTER_AUTHORIZATION_FAILED"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CreateAcls");
        assertThatThrownBy(() -> faults.dropNext("Produce", null, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("times");
        assertThatThrownBy(() -> faults.delayNext("Fetch", null, 1, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> faults.dropNext("999", null, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("999");
        assertThat(faults.rules()).isEmpty();
    }

    @Test
    void concurrentRequestsTakeExactlyTheRulesUses() throws Exception {
        faults.failNext("Produce", null, 1000, "NOT_LEADER_OR_FOLLOWER");
        ExecutorService threads = Executors.newFixedThreadPool(4);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> hits = new ArrayList<>();
        try {
            for (int t = 0; t < 4; t++) {
                hits.add(threads.submit(() -> {
                    start.await();
                    int taken = 0;
                    for (int i = 0; i < 500; i++) {
                        if (faults.next(PRODUCE, V, "app") != null) {
                            taken++;
                        }
                    }
                    return taken;
                }));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> f : hits) {
                total += f.get(30, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(1000);
            assertThat(faults.rules()).isEmpty();
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void rulesAddedWhileRequestsRunAreAllSeen() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        List<Fault> seen = Collections.synchronizedList(new ArrayList<>());
        try {
            Future<?> adder = threads.submit(() -> {
                for (int i = 0; i < 200; i++) {
                    faults.dropNext("Fetch", null, 1);
                }
            });
            Future<?> taker = threads.submit(() -> {
                while (seen.size() < 200) {
                    Fault f = faults.next(FETCH, V, "c");
                    if (f != null) {
                        seen.add(f);
                    }
                }
            });
            adder.get(30, TimeUnit.SECONDS);
            taker.get(30, TimeUnit.SECONDS);
            assertThat(seen).hasSize(200).containsOnly(new Fault.Drop());
            assertThat(faults.rules()).isEmpty();
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void viewOverSeveralBrokersAddsEachRuleToEveryBroker() {
        Faults one = new Faults();
        Faults two = new Faults();
        Faults all = Faults.allOf(List.of(one, two));
        all.failNext("Produce", null, 2, "NOT_LEADER_OR_FOLLOWER");
        assertThat(one.next(PRODUCE, V, "app")).isEqualTo(NOT_LEADER);
        assertThat(two.next(PRODUCE, V, "app")).isEqualTo(NOT_LEADER);
        assertThat(all.rules()).extracting(FaultRule::remaining).containsExactly(1, 1);
        all.clear();
        assertThat(one.rules()).isEmpty();
        assertThat(two.rules()).isEmpty();
    }

    @Test
    void tooManyRulesTooManyTimesOrTooLongADelayAreRefused() {
        assertThatThrownBy(() -> faults.delayNext("Fetch", null, 1, Duration.ofMinutes(5).plusMillis(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("delay must be at most 5 minutes (300000 ms), not 300001 ms");
        faults.delayNext("Fetch", null, 1, Duration.ofMinutes(5));
        assertThatThrownBy(() -> faults.dropNext("Fetch", null, 1_000_001))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("times must be at most 1000000, not 1000001");
        for (int i = 1; i < 1000; i++) {
            faults.dropNext("Fetch", "c" + i, 1_000_000);
        }
        assertThatThrownBy(() -> faults.failNext("Produce", null, 1, "NOT_LEADER_OR_FOLLOWER"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("at most 1000 rules at a time: clear them (DELETE /faults) or let some run out");
        assertThat(faults.rules()).hasSize(1000);
        // A cluster view refuses a rule one broker has no room for, before adding it to any.
        Faults other = new Faults();
        Faults both = Faults.allOf(List.of(other, faults));
        assertThatThrownBy(() -> both.dropNext("Fetch", null, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(other.rules()).isEmpty();
    }
}
