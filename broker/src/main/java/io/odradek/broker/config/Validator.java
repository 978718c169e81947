package io.odradek.broker.config;

import java.util.List;

/** A rule a parsed (non-null) config value must meet. */
@FunctionalInterface
public interface Validator {
    /** Null when {@code value} is acceptable, otherwise why not (Kafka's wording where Kafka has a rule). */
    String problem(Object value);

    Validator ANY = value -> null;

    static Validator atLeast(long min) {
        return value -> ((Number) value).longValue() >= min ? null : "Value must be at least " + min;
    }

    static Validator oneOf(String... allowed) {
        List<String> options = List.of(allowed);
        return value -> options.contains(value) ? null : "String must be one of: " + String.join(", ", options);
    }

    /** For LIST values: every entry must be one of {@code allowed}. */
    static Validator eachOneOf(String... allowed) {
        List<String> options = List.of(allowed);
        return value -> ((List<?>) value).stream().allMatch(options::contains) ? null
                : "Each entry must be one of: " + String.join(", ", options);
    }
}
