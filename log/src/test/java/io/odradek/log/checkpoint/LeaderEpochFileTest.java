package io.odradek.log.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.log.checkpoint.LeaderEpochFile.EpochEntry;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The epoch cache's assign follows Kafka's LeaderEpochFileCache.assign, and the file keeps what it says. */
class LeaderEpochFileTest {
    @TempDir
    Path dir;

    @Test
    void theLatestEpochStartingLowerReplacesItsEntry() {
        LeaderEpochFile epochs = new LeaderEpochFile(dir);
        epochs.assign(1, 0);
        epochs.assign(3, 10);

        epochs.assign(3, 12);   // later start of the latest epoch: nothing to do
        epochs.assign(3, 5);    // earlier start: the entry moves down

        assertThat(epochs.entries()).containsExactly(new EpochEntry(1, 0), new EpochEntry(3, 5));
        assertThat(new LeaderEpochFile(dir).entries()).containsExactly(new EpochEntry(1, 0), new EpochEntry(3, 5));
    }

    @Test
    void anEpochBelowTheLatestOrStartingBeforeNewerEntriesDropsThoseEntries() {
        LeaderEpochFile epochs = new LeaderEpochFile(dir);
        epochs.assign(1, 0);
        epochs.assign(3, 10);
        epochs.assign(5, 20);

        epochs.assign(4, 15);   // drops (5, 20): a higher epoch
        assertThat(epochs.entries()).containsExactly(new EpochEntry(1, 0), new EpochEntry(3, 10),
                new EpochEntry(4, 15));

        epochs.assign(6, 8);    // drops (4, 15) and (3, 10): they start at or after 8
        assertThat(epochs.entries()).containsExactly(new EpochEntry(1, 0), new EpochEntry(6, 8));
        assertThat(new LeaderEpochFile(dir).entries()).isEqualTo(epochs.entries());
    }

    @Test
    void batchesWithoutALeaderEpochAreNotRecorded() {
        LeaderEpochFile epochs = new LeaderEpochFile(dir);
        epochs.assign(2, 0);

        epochs.assign(-1, 5);

        assertThat(epochs.entries()).containsExactly(new EpochEntry(2, 0));
    }
}
