package io.odradek.coordinator.offsets;

/** SEAM (issue 12): encodes {@link ShareGroupRecord}s in Kafka 4.4's schemas; the share-group engineer fills it in. */
final class ShareGroupRecordCodec {
    private ShareGroupRecordCodec() {
    }

    /** Whether this key type is one of ours. */
    static boolean handles(short type) {
        return false;
    }

    static byte[] key(ShareGroupRecord record) {
        throw new IllegalArgumentException("not written yet: " + record);
    }

    /** The value bytes, or null for a tombstone. */
    static byte[] value(ShareGroupRecord record) {
        throw new IllegalArgumentException("not written yet: " + record);
    }

    static OffsetsRecord decode(short type, byte[] key, byte[] value) {
        return null;
    }
}
