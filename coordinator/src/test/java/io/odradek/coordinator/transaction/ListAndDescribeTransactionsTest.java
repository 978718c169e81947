package io.odradek.coordinator.transaction;

import static io.odradek.coordinator.transaction.TransactionFixture.tp;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.ListTransactionsResult.Listing;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ListTransactions and DescribeTransactions, as kafka-transactions.sh list / describe / find-hanging see them. */
class ListAndDescribeTransactionsTest {
    private static final TopicPartition ORDERS_0 = tp("orders", 0);
    private static final TopicPartition ORDERS_2 = tp("orders", 2);
    private static final TopicPartition AUDIT_1 = tp("audit", 1);

    @TempDir
    Path dir;
    private TransactionFixture f;
    private long openedAt;

    /** "open-a" (producer 0) is Ongoing since {@link #openedAt}, "done-b" (producer 1) CompleteCommit, "new-c" (2) Empty. */
    @BeforeEach
    void transactions() {
        f = new TransactionFixture(dir);
        InitProducerIdResult a = f.init("open-a");
        InitProducerIdResult b = f.init("done-b");
        f.init("new-c");
        f.add("done-b", b, ORDERS_0);
        f.end("done-b", b, true);
        openedAt = f.clock.nowMs();
        f.add("open-a", a, ORDERS_2, AUDIT_1, ORDERS_0);
        f.clock.advance(5_000);
    }

    @AfterEach
    void close() {
        f.close();
    }

    private List<Listing> list(Set<String> states, Set<Long> producerIds, long minDurationMs, String pattern) {
        ListTransactionsResult result = f.coordinator.listTransactions(states, producerIds, minDurationMs, pattern).join();
        assertThat(result.error()).isEqualTo(ErrorCode.NONE);
        return result.transactions();
    }

    @Test
    void everyTransactionalIdIsListedWithItsProducerIdAndState() {
        assertThat(list(Set.of(), Set.of(), -1, null)).containsExactlyInAnyOrder(new Listing("open-a", 0L, "Ongoing"),
                new Listing("done-b", 1L, "CompleteCommit"), new Listing("new-c", 2L, "Empty"));
    }

    @Test
    void filtersByStateProducerIdDurationAndIdPattern() {
        assertThat(list(Set.of("Ongoing", "Empty"), Set.of(), -1, null)).extracting(Listing::transactionalId)
                .containsExactlyInAnyOrder("open-a", "new-c");
        assertThat(list(Set.of(), Set.of(1L, 2L), -1, null)).extracting(Listing::transactionalId)
                .containsExactlyInAnyOrder("done-b", "new-c");
        // Running for longer than 4 s.
        assertThat(list(Set.of("Ongoing"), Set.of(), 4_000, null)).extracting(Listing::transactionalId).containsExactly("open-a");
        assertThat(list(Set.of("Ongoing"), Set.of(), 5_000, null)).isEmpty();
        assertThat(list(Set.of(), Set.of(), -1, "(open|new)-.*")).extracting(Listing::transactionalId)
                .containsExactlyInAnyOrder("open-a", "new-c");
        assertThat(list(Set.of(), Set.of(), -1, "open")).isEmpty(); // the whole id must match
    }

    @Test
    void unknownStateFiltersAreAnsweredBackAndMatchNothing() {
        ListTransactionsResult result = f.coordinator.listTransactions(Set.of("Sleeping"), Set.of(), -1, null).join();

        assertThat(result).isEqualTo(new ListTransactionsResult(ErrorCode.NONE, List.of("Sleeping"), List.of()));
    }

    @Test
    void anInvalidPatternIsAnInvalidRegularExpression() {
        assertThat(f.coordinator.listTransactions(Set.of(), Set.of(), -1, "(unclosed").join().error())
                .isEqualTo(ErrorCode.INVALID_REGULAR_EXPRESSION);
    }

    @Test
    void describeAnswersStateTimeoutStartProducerAndPartitionsByTopic() {
        List<TransactionDescription> described = f.coordinator.describeTransactions(List.of("open-a", "new-c", "missing")).join();

        assertThat(described).containsExactly(
                new TransactionDescription("open-a", ErrorCode.NONE, "Ongoing", TransactionFixture.TIMEOUT_MS, openedAt, 0L,
                        (short) 0, Map.of("audit", List.of(1), "orders", List.of(0, 2))),
                new TransactionDescription("new-c", ErrorCode.NONE, "Empty", TransactionFixture.TIMEOUT_MS, -1L, 2L,
                        (short) 0, Map.of()),
                TransactionDescription.error("missing", ErrorCode.TRANSACTIONAL_ID_NOT_FOUND));
    }
}
