package io.odradek.coordinator.share.partition;

/** Offsets handed to one share consumer by a ShareFetch (the response's AcquiredRecords), with their delivery count. */
public record AcquiredRecords(long firstOffset, long lastOffset, short deliveryCount) {
}
