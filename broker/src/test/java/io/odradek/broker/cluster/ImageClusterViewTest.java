package io.odradek.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.cluster.ClusterImage;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ImageClusterViewTest {
    private final FakeQuorum quorum = new FakeQuorum();
    private final ImageClusterView view = new ImageClusterView(2, "PLAINTEXT", quorum.channel(), null);

    private static ClusterImage at(long offset) {
        return new ClusterImage(offset, "c", new TreeMap<>(), new TreeMap<>(), 0);
    }

    @Test
    void aWaitCompletesWithTheFirstAppliedImageAtOrPastItsOffset() {
        CompletableFuture<ClusterImage> wait = view.awaitApplied(5);
        view.applied(at(4));
        assertThat(wait).isNotDone();
        ClusterImage seven = at(7);
        view.applied(seven);
        assertThat(wait).isCompletedWithValue(seven);
        assertThat(view.image()).isSameAs(seven);
    }

    @Test
    void aWaitForAnOffsetAlreadyAppliedCompletesAtOnce() {
        ClusterImage three = at(3);
        view.applied(three);
        assertThat(view.awaitApplied(2)).isCompletedWithValue(three);
        assertThat(view.awaitApplied(3)).isCompletedWithValue(three);
        assertThat(view.awaitApplied(4)).isNotDone();
    }

    @Test
    void closingFailsThePendingWaits() {
        CompletableFuture<ClusterImage> wait = view.awaitApplied(1);
        view.close();
        assertThat(wait).isCompletedExceptionally();
        assertThat(view.controller()).isPresent();
        assertThat(view.localBrokerId()).isEqualTo(2);
        assertThat(view.clientListener()).isEqualTo("PLAINTEXT");
    }
}
