package io.odradek.coordinator.offsets;

/**
 * A streams group's records in {@code __consumer_offsets} (Kafka 4.4's StreamsGroup*Key/Value schemas, key
 * types 17 and 19-23), encoded by {@link StreamsGroupRecordCodec}. The records themselves are nested here by
 * the streams-group engineer (issue 12).
 */
public non-sealed interface StreamsGroupRecord extends OffsetsRecord {
}
