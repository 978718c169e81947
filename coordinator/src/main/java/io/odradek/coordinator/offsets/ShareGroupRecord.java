package io.odradek.coordinator.offsets;

/**
 * A share group's records in {@code __consumer_offsets} (Kafka 4.4's ShareGroup*Key/Value schemas, key types
 * 10-15), encoded by {@link ShareGroupRecordCodec}. The records themselves are nested here by the share-group
 * engineer (issue 12).
 */
public non-sealed interface ShareGroupRecord extends OffsetsRecord {
}
