package io.odradek.coordinator.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProducerIdManagerTest {
    @TempDir
    Path dir;

    @Test
    void handsOutConsecutiveIdsStartingAtZero() {
        try (ProducerIdManager ids = ProducerIdManager.open(dir, 10)) {
            assertThat(take(ids, 3)).containsExactly(0L, 1L, 2L);
        }
    }

    @Test
    void neverReissuesAnIdAfterReopen() {
        List<Long> first;
        try (ProducerIdManager ids = ProducerIdManager.open(dir, 10)) {
            first = take(ids, 4);
        }
        List<Long> second;
        try (ProducerIdManager ids = ProducerIdManager.open(dir, 10)) {
            second = take(ids, 25); // crosses block boundaries
        }
        try (ProducerIdManager ids = ProducerIdManager.open(dir, 10)) {
            List<Long> third = take(ids, 3);
            assertThat(third).allSatisfy(id -> assertThat(id).isGreaterThan(second.get(second.size() - 1)));
        }
        assertThat(second).allSatisfy(id -> assertThat(id).isGreaterThan(first.get(first.size() - 1)));
        Set<Long> all = new HashSet<>(first);
        all.addAll(second);
        assertThat(all).hasSize(first.size() + second.size());
    }

    @Test
    void reservesTheBlockOnDiskBeforeHandingOutItsIds() throws Exception {
        try (ProducerIdManager ids = ProducerIdManager.open(dir, 10)) {
            long id = ids.nextProducerId().join();
            long reserved = Long.parseLong(Files.readAllLines(dir.resolve(ProducerIdManager.FILE_NAME)).get(1));
            assertThat(id).isLessThan(reserved);
        }
    }

    @Test
    void aBurstLargerThanTwoBlocksGetsDistinctIncreasingIds() {
        try (ProducerIdManager ids = ProducerIdManager.open(dir, 4)) {
            List<CompletableFuture<Long>> futures = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                futures.add(ids.nextProducerId());
            }
            List<Long> got = futures.stream().map(CompletableFuture::join).toList();
            assertThat(got).doesNotHaveDuplicates().isSorted().hasSize(50);
        }
    }

    @Test
    void refusesToGuessFromACorruptFile() throws Exception {
        Files.writeString(dir.resolve(ProducerIdManager.FILE_NAME), "0\nnot-a-number\n", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ProducerIdManager.open(dir, 10))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("corrupt producer id file");
    }

    private static List<Long> take(ProducerIdManager ids, int n) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(ids.nextProducerId().join());
        }
        return out;
    }
}
