package io.odradek.coordinator.group;

import io.odradek.wire.ErrorCode;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The answer to a ConsumerGroupHeartbeat.
 *
 * @param assignment the member's partitions by topic id when they changed or the request was a full one,
 *                   else null (the member keeps what it has)
 */
public record ConsumerGroupHeartbeatResult(ErrorCode error, String errorMessage, String memberId, int memberEpoch,
        int heartbeatIntervalMs, Map<UUID, Set<Integer>> assignment) {
    public static ConsumerGroupHeartbeatResult error(ErrorCode error, String message) {
        return new ConsumerGroupHeartbeatResult(error, message, null, 0, 0, null);
    }
}
