package io.odradek.embedded.junit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * System properties set to a broker's address for its life. Test classes running in parallel may set the same
 * property with overlapping lives, so each property is shared, counted: the first user captures the value it had
 * before (null: not set), the latest user's value is the current one, and when a user ends the property goes to the
 * latest user still running, or back to the captured value once the last one ends (never to a stopped broker).
 */
final class SystemProperties {
    /** Per property: the value before the first user, and the users still running with their values, oldest first. */
    private static final Map<String, Shared> SHARED = new HashMap<>();

    private static final class Shared {
        final String original;
        final List<SystemProperties> users = new ArrayList<>();
        final List<String> values = new ArrayList<>();

        Shared(String original) {
            this.original = original;
        }
    }

    private final List<String> names;

    private SystemProperties(List<String> names) {
        this.names = List.copyOf(names);
    }

    /** Sets each of {@code names} to {@code value}; {@link #restore()} ends this use. */
    static SystemProperties set(List<String> names, String value) {
        SystemProperties use = new SystemProperties(names);
        synchronized (SHARED) {
            for (String name : use.names) {
                Shared shared = SHARED.computeIfAbsent(name, n -> new Shared(System.getProperty(n)));
                shared.users.add(use);
                shared.values.add(value);
                System.setProperty(name, value);
            }
        }
        return use;
    }

    /** Ends this use: each property to the latest other user's value, or, if none is left, to what it was first. */
    void restore() {
        synchronized (SHARED) {
            for (String name : names) {
                Shared shared = SHARED.get(name);
                int at = shared == null ? -1 : shared.users.indexOf(this);
                if (at < 0) {
                    continue; // restored twice
                }
                shared.users.remove(at);
                shared.values.remove(at);
                if (!shared.users.isEmpty()) {
                    System.setProperty(name, shared.values.get(shared.values.size() - 1));
                } else {
                    SHARED.remove(name);
                    if (shared.original == null) {
                        System.clearProperty(name);
                    } else {
                        System.setProperty(name, shared.original);
                    }
                }
            }
        }
    }
}
