package io.odradek.coordinator.group;

import io.odradek.wire.ErrorCode;

/** A SyncGroup response: this member's assignment for the generation. */
public record SyncGroupResult(ErrorCode error, String protocolType, String protocolName, byte[] assignment) {
    private static final byte[] NONE = new byte[0];

    public static SyncGroupResult error(ErrorCode error) {
        return new SyncGroupResult(error, null, null, NONE);
    }
}
