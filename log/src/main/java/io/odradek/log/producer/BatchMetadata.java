package io.odradek.log.producer;

/** What an idempotent producer's batch looked like once appended; enough to answer a retry. */
public record BatchMetadata(int firstSeq, int lastSeq, long firstOffset, long lastOffset, long timestamp) {
}
