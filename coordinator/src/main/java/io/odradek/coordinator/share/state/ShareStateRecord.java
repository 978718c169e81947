package io.odradek.coordinator.share.state;

import io.odradek.coordinator.share.SharePartitionKey;

/**
 * One record of {@code __share_group_state}: a ShareSnapshot (the partition's whole state; a null value is
 * the tombstone DeleteShareGroupState writes) or a ShareUpdate (a delta merged into the last snapshot).
 */
public record ShareStateRecord(Type type, SharePartitionKey key, ShareGroupOffset value) {
    /** Kafka's CoordinatorRecordType for the share coordinator: the record key's int16 prefix. */
    public enum Type {
        SNAPSHOT((short) 0),
        UPDATE((short) 1);

        private final short id;

        Type(short id) {
            this.id = id;
        }

        public short id() {
            return id;
        }
    }

    public static ShareStateRecord snapshot(SharePartitionKey key, ShareGroupOffset value) {
        return new ShareStateRecord(Type.SNAPSHOT, key, value);
    }

    public static ShareStateRecord update(SharePartitionKey key, ShareGroupOffset value) {
        return new ShareStateRecord(Type.UPDATE, key, value);
    }

    /** The tombstone of a deleted share partition (a ShareSnapshot key without a value, as Kafka writes it). */
    public static ShareStateRecord tombstone(SharePartitionKey key) {
        return new ShareStateRecord(Type.SNAPSHOT, key, null);
    }

    public boolean isTombstone() {
        return value == null;
    }
}
