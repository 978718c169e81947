package io.odradek.replication.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicNamesTest {
    @Test
    void acceptsKafkasCharacterSetUpTo249Chars() {
        assertThat(TopicNames.isValid("Orders_2024.v1-eu")).isTrue();
        assertThat(TopicNames.isValid("x".repeat(249))).isTrue();
    }

    @Test
    void rejectsEmptyDotsTooLongAndOtherCharacters() {
        assertThat(TopicNames.isValid("")).isFalse();
        assertThat(TopicNames.isValid(null)).isFalse();
        assertThat(TopicNames.isValid(".")).isFalse();
        assertThat(TopicNames.isValid("..")).isFalse();
        assertThat(TopicNames.isValid("x".repeat(250))).isFalse();
        assertThat(TopicNames.isValid("a/b")).isFalse();
        assertThat(TopicNames.isValid("caf\u00e9")).isFalse();
    }

    @Test
    void periodAndUnderscoreCollide() {
        assertThat(TopicNames.unifyCollisionChars("a.b_c")).isEqualTo(TopicNames.unifyCollisionChars("a_b.c"));
        assertThat(TopicNames.hasCollisionChars("abc")).isFalse();
    }
}
