package io.odradek.coordinator.group;

import java.util.Arrays;

/** One protocol a member supports (e.g. "range", "cooperative-sticky") with its opaque metadata. */
public record Protocol(String name, byte[] metadata) {
    @Override
    public boolean equals(Object o) {
        return o instanceof Protocol p && p.name.equals(name) && Arrays.equals(p.metadata, metadata);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + Arrays.hashCode(metadata);
    }

    @Override
    public String toString() {
        return name + "(" + metadata.length + " bytes)";
    }
}
