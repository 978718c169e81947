package io.odradek.log.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionIndexTest {
    private static final AbortedTxn A = new AbortedTxn(1, 100, 105, 106);
    private static final AbortedTxn B = new AbortedTxn(2, 101, 110, 102);
    private static final AbortedTxn C = new AbortedTxn(3, 111, 120, 121);

    @TempDir
    Path dir;

    private TransactionIndex withABC() throws IOException {
        TransactionIndex index = new TransactionIndex(dir.resolve("00000000000000000100.txnindex"), 100);
        index.append(A);
        index.append(B);
        index.append(C);
        return index;
    }

    private static List<AbortedTxn> collect(TransactionIndex index, long from, long upTo, boolean complete)
            throws IOException {
        List<AbortedTxn> out = new ArrayList<>();
        assertThat(index.collect(from, upTo, out)).as("search complete").isEqualTo(complete);
        return out;
    }

    @Test
    void theFileAppearsWithTheFirstEntry() throws IOException {
        Path file = dir.resolve("00000000000000000100.txnindex");
        TransactionIndex index = new TransactionIndex(file, 100);
        assertThat(file).doesNotExist();
        assertThat(collect(index, 0, Long.MAX_VALUE, false)).isEmpty();
        index.append(A);
        assertThat(file).exists().hasSize(TransactionIndex.ENTRY_SIZE);
        index.close();
    }

    @Test
    void collectReturnsTheOverlappingEntriesAndStopsOnceALastStableOffsetReachesTheBound() throws IOException {
        TransactionIndex index = withABC();
        assertThat(collect(index, 0, 101, true)).containsExactly(A);
        // B's LSO (102) is below 111, so the search goes on to C, whose LSO 121 ends it
        assertThat(collect(index, 106, 111, true)).containsExactly(B);
        assertThat(collect(index, 111, 200, false)).containsExactly(C);
        assertThat(collect(index, 121, 200, false)).isEmpty();
        assertThat(index.all()).containsExactly(A, B, C);
        index.close();
    }

    @Test
    void markerOffsetsMustIncrease() throws IOException {
        TransactionIndex index = withABC();
        assertThatThrownBy(() -> index.append(new AbortedTxn(4, 115, 120, 121)))
                .isInstanceOf(IllegalArgumentException.class);
        index.close();
    }

    @Test
    void truncationDropsTheEntriesFromTheTruncationPointOn() throws IOException {
        TransactionIndex index = withABC();
        index.truncateTo(110);
        assertThat(index.all()).containsExactly(A);
        assertThat(index.file()).hasSize(TransactionIndex.ENTRY_SIZE);
        index.append(new AbortedTxn(5, 107, 108, 109)); // appending goes on after the kept entry
        assertThat(index.all()).containsExactly(A, new AbortedTxn(5, 107, 108, 109));
        index.close();
    }

    @Test
    void aReopenedIndexKeepsItsEntriesAndATornTailFailsTheConsistencyCheck() throws IOException {
        TransactionIndex index = withABC();
        Path file = index.file();
        index.close();

        TransactionIndex reopened = new TransactionIndex(file, 100);
        assertThat(reopened.all()).containsExactly(A, B, C);
        assertThat(reopened.isConsistent(121)).isTrue();
        assertThat(reopened.isConsistent(120)).as("an entry past the segment's end").isFalse();
        reopened.close();

        Files.write(file, new byte[] {0, 0, 0}, StandardOpenOption.APPEND);
        TransactionIndex torn = new TransactionIndex(file, 100);
        assertThat(torn.all()).containsExactly(A, B, C);
        assertThat(torn.isConsistent(121)).isFalse();
        torn.reset();
        assertThat(torn.all()).isEmpty();
        assertThat(torn.isConsistent(121)).isTrue();
        torn.close();
    }
}
