package io.odradek.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;
import org.junit.jupiter.api.Test;

class RateLimitedLogTest {
    @Test
    void eachKindGetsItsOwnLinePerIntervalAndCountsWhatItDropped() throws InterruptedException {
        String name = "io.odradek.broker.network.RateLimitedLogTest.sample";
        try (CapturedLog log = new CapturedLog(name)) {
            RateLimitedLog limited = new RateLimitedLog(System.getLogger(name), 200);
            for (int i = 0; i < 5; i++) {
                limited.warn("oversize", "oversize " + i);
                limited.info("per-ip", "per-ip " + i);
            }
            Thread.sleep(250);
            limited.warn("oversize", "oversize again");
            assertThat(log.lines(Level.INFO)).containsExactly(
                    "WARNING oversize 0",
                    "INFO per-ip 0",
                    "WARNING oversize again (4 similar lines suppressed)");
        }
    }
}
