package io.odradek.broker.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogSafeTest {
    @Test
    void plainTextIsKeptAsItIs() {
        String text = "my-group.v2_ünïcødé";
        assertThat(LogSafe.escape(text)).isSameAs(text);
    }

    @Test
    void lineBreaksCannotForgeALogLine() {
        assertThat(LogSafe.escape("group\n2026-12-01 INFO fake line\r\tend"))
                .isEqualTo("group\\n2026-12-01 INFO fake line\\r\\tend");
    }

    @Test
    void terminalEscapesAndOtherControlCharactersBecomeUnicodeEscapes() {
        assertThat(LogSafe.escape("\u001b[31mred\u0000\u007f\u0085")).isEqualTo("\\u001b[31mred\\u0000\\u007f\\u0085");
    }

    @Test
    void unicodeLineSeparatorsAndBidiOverridesAreEscaped() {
        assertThat(LogSafe.escape("a\u2028b\u202ecba\u2066")).isEqualTo("a\\u2028b\\u202ecba\\u2066");
    }

    @Test
    void backslashIsDoubledSoEscapesAreUnambiguous() {
        assertThat(LogSafe.escape("a\\nb\n")).isEqualTo("a\\\\nb\\n");
    }

    @Test
    void longTextIsCutWithACount() {
        String escaped = LogSafe.escape("x".repeat(LogSafe.MAX_CHARS + 10));
        assertThat(escaped).isEqualTo("x".repeat(LogSafe.MAX_CHARS) + "...(10 more chars)");
        assertThat(LogSafe.escape("\n".repeat(LogSafe.MAX_CHARS + 1)))
                .isEqualTo("\\n".repeat(LogSafe.MAX_CHARS) + "...(1 more chars)");
    }

    @Test
    void nullIsLoggedAsNull() {
        assertThat(LogSafe.escape(null)).isEqualTo("null");
    }
}
