package io.odradek.coordinator.share.partition;

/** ShareFetch/ShareAcknowledge acknowledge types, with Kafka's ids (0 is a gap: offsets with no record). */
public enum AcknowledgeType {
    GAP(0), ACCEPT(1), RELEASE(2), REJECT(3), RENEW(4);

    public final byte id;

    AcknowledgeType(int id) {
        this.id = (byte) id;
    }

    /** The type of this id, or null for an id Kafka does not define (INVALID_REQUEST). */
    public static AcknowledgeType of(byte id) {
        for (AcknowledgeType t : values()) {
            if (t.id == id) {
                return t;
            }
        }
        return null;
    }
}
