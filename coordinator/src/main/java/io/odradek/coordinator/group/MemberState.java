package io.odradek.coordinator.group;

/** Where a consumer-protocol member stands in reconciling to its target assignment (Kafka's MemberState). */
enum MemberState {
    /** Holds its target assignment at the target epoch. */
    STABLE((byte) 0),
    /** Must give up some partitions before it may move to the next epoch. */
    UNREVOKED_PARTITIONS((byte) 1),
    /** At the target epoch, waiting for partitions other members have not released yet. */
    UNRELEASED_PARTITIONS((byte) 2),
    /** A state written by a newer coordinator: the member is fenced and rejoins. */
    UNKNOWN((byte) 127);

    final byte value;

    MemberState(byte value) {
        this.value = value;
    }

    static MemberState of(byte value) {
        for (MemberState s : values()) {
            if (s.value == value) {
                return s;
            }
        }
        return UNKNOWN;
    }
}
