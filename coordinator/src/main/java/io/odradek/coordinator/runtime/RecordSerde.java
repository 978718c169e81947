package io.odradek.coordinator.runtime;

/** How a coordinator's records are stored: a key and a value (null for a tombstone) per record. */
public interface RecordSerde<R> {
    byte[] key(R record);

    /** Null for a tombstone. */
    byte[] value(R record);

    /**
     * The record stored under these bytes; null for a type this coordinator does not keep.
     *
     * @throws IllegalArgumentException when the bytes do not parse (load logs and skips the record)
     */
    R decode(byte[] key, byte[] value);
}
