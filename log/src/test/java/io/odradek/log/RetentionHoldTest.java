package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cluster mode holds retention until the first metadata image brings the real configs. */
class RetentionHoldTest {
    @TempDir
    Path dir;

    @Test
    void heldRetentionDeletesNothingUntilReleased() {
        int batchSize = batch(0L, "v").remaining();
        try (LogManager manager = LogManager.open(List.of(dir), LogConfig.defaults(), t -> Map.of(), 300_000L,
                Clock.systemUTC())) {
            PartitionLog log = manager.create("t", 0, null, Map.of(LogConfig.SEGMENT_BYTES,
                    Integer.toString(batchSize), LogConfig.RETENTION_MS, "1"));
            for (int i = 0; i < 3; i++) {
                log.append(batch(1L, "v"), 0);
            }
            assertThat(log.segmentBaseOffsets()).hasSizeGreaterThan(1);

            manager.holdRetention();
            assertThat(manager.runRetention()).isZero();
            assertThat(log.logStartOffset()).isZero();

            manager.releaseRetention();
            assertThat(manager.runRetention()).isPositive();
            assertThat(log.logStartOffset()).isEqualTo(3L);
        }
    }
}
