package io.odradek.coordinator.group;

import io.odradek.wire.ErrorCode;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The answer to a ShareGroupHeartbeat.
 *
 * @param assignment the member's partitions by topic id when it joined, sent a full request or its assignment
 *                   changed, else null (the member keeps what it has)
 */
public record ShareGroupHeartbeatResult(ErrorCode error, String errorMessage, String memberId, int memberEpoch,
        int heartbeatIntervalMs, Map<UUID, Set<Integer>> assignment) {
    public static ShareGroupHeartbeatResult error(ErrorCode error, String message) {
        return new ShareGroupHeartbeatResult(error, message, null, 0, 0, null);
    }
}
