package io.odradek.coordinator.share.partition;

/**
 * One record batch of a fetched file slice, from its header only (never its records): the share fetch
 * acquires offsets batch by batch and sends the slice as it is, with the acquired ranges beside it.
 */
public record LogBatch(long baseOffset, long lastOffset) {
}
