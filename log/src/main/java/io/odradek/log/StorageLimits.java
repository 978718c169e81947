package io.odradek.log;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The operating-system limits that bound how many partitions a broker can hold, and the words that turn
 * their errors into something an operator can act on. Each partition keeps at least one file descriptor
 * (its active segment's channel, one more per inactive segment) and, while its indexes are in use, two
 * memory mappings; a start or a topic creation that hits a limit says which one and how to raise it.
 */
public final class StorageLimits {
    private static final Path MAX_MAP_COUNT = Path.of("/proc/sys/vm/max_map_count");

    private StorageLimits() {
    }

    /** The process's open-file limit ({@code ulimit -n}), or -1 where the JVM cannot tell. */
    public static long maxOpenFiles() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return unix.getMaxFileDescriptorCount();
        }
        return -1;
    }

    /** Linux's {@code vm.max_map_count} (memory mappings per process), or -1 elsewhere. */
    public static long maxMapCount() {
        try {
            return Long.parseLong(Files.readString(MAX_MAP_COUNT, StandardCharsets.US_ASCII).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Names the OS limit behind {@code failure} and how to raise it, or null when it is not one of
     * them: "Too many open files" (EMFILE) and a failed memory map ("Map failed", vm.max_map_count).
     */
    public static String explain(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (message.contains("Too many open files")) {
                return "the open-file limit is reached (ulimit -n = " + maxOpenFiles() + "; each partition keeps "
                        + "one file open per segment): raise it (ulimit -n, LimitNOFILE in systemd) or hold fewer "
                        + "partitions";
            }
            if (message.contains("Map failed") || t instanceof OutOfMemoryError && message.contains("map")) {
                return "the memory-map limit is reached (vm.max_map_count = " + maxMapCount() + "): raise it "
                        + "(sysctl vm.max_map_count) or hold fewer partitions";
            }
        }
        return null;
    }

    /** Whether {@code failure} is the disk being full (ENOSPC). */
    public static boolean isDiskFull(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains("No space left on device")) {
                return true;
            }
        }
        return false;
    }

    /** {@code failure}'s own message followed by the limit it hit, if any. */
    public static String describe(Throwable failure) {
        String limit = explain(failure);
        String message = failure.getMessage() == null ? failure.toString() : failure.getMessage();
        return limit == null ? message : message + " (" + limit + ")";
    }
}
