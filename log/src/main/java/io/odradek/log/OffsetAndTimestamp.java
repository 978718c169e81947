package io.odradek.log;

/** An offset and the timestamp found for it, as ListOffsets returns them. */
public record OffsetAndTimestamp(long offset, long timestamp) {
}
