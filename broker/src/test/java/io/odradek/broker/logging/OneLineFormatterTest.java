package io.odradek.broker.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class OneLineFormatterTest {
    @Test
    void oneLineWithTimeLevelThreadShortLoggerNameAndMessage() {
        LogRecord record = new LogRecord(Level.WARNING, "Ignoring unknown configuration {0}");
        record.setParameters(new Object[] {"foo=bar"});
        record.setLoggerName("io.odradek.broker.BrokerConfig");
        record.setInstant(LocalDateTime.of(2026, 11, 30, 13, 45, 1, 123_000_000)
                .atZone(ZoneId.systemDefault()).toInstant());

        String line = new OneLineFormatter().format(record);

        assertThat(line).isEqualTo("2026-11-30 13:45:01.123 WARN  [" + Thread.currentThread().getName()
                + "] BrokerConfig: Ignoring unknown configuration foo=bar" + System.lineSeparator());
    }

    @Test
    void attachedExceptionFollowsWithItsStackTrace() {
        LogRecord record = new LogRecord(Level.SEVERE, "failed");
        record.setLoggerName("x.Main");
        record.setInstant(Instant.EPOCH);
        record.setThrown(new IllegalStateException("boom"));

        String text = new OneLineFormatter().format(record);

        assertThat(text.lines().findFirst().orElseThrow()).endsWith(" ERROR [" + Thread.currentThread().getName()
                + "] Main: failed");
        assertThat(text).contains("java.lang.IllegalStateException: boom", "\tat ");
    }

    @Test
    void aGroupIdWithControlBytesCannotForgeALineOrColourTheTerminal() {
        LogRecord record = new LogRecord(Level.INFO, "group evil\n2026-01-01 00:00:00.000 ERROR [x] Fake: \u001b[31mpwned"
                + " is stable at generation 1 (C:\\data)");
        record.setLoggerName("io.odradek.coordinator.group.ClassicGroupProtocol");
        record.setInstant(Instant.EPOCH);

        String text = new OneLineFormatter().format(record);

        assertThat(text.lines()).hasSize(1);
        assertThat(text).endsWith("ClassicGroupProtocol: group evil\\n2026-01-01 00:00:00.000 ERROR [x] Fake: "
                + "\\u001b[31mpwned is stable at generation 1 (C:\\data)" + System.lineSeparator());
    }

    @Test
    void levelNamesAreTheUsualOnes() {
        assertThat(LogSetup.parseLevel("debug")).isEqualTo(Level.FINE);
        assertThat(LogSetup.parseLevel("WARN")).isEqualTo(Level.WARNING);
        assertThat(LogSetup.parseLevel("FINEST")).isEqualTo(Level.FINEST);
        assertThat(OneLineFormatter.levelName(Level.FINER)).isEqualTo("TRACE");
        assertThat(OneLineFormatter.levelName(Level.CONFIG)).isEqualTo("DEBUG");
    }
}
