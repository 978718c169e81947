package io.odradek.embedded.junit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** System properties set for the life of a broker, and what they were before (null: not set), to restore. */
final class SystemProperties {
    private final Map<String, String> previous = new LinkedHashMap<>();

    /** Sets each of {@code names} to {@code value}, remembering the values they had. */
    static SystemProperties set(List<String> names, String value) {
        SystemProperties set = new SystemProperties();
        for (String name : names) {
            set.previous.put(name, System.setProperty(name, value));
        }
        return set;
    }

    /** Puts back what was there: the earlier value, or no property at all. */
    void restore() {
        previous.forEach((name, value) -> {
            if (value == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, value);
            }
        });
    }
}
