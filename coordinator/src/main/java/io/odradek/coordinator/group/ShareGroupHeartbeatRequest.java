package io.odradek.coordinator.group;

import java.util.List;

/**
 * A ShareGroupHeartbeat (key 76) as the coordinator needs it.
 *
 * @param memberEpoch          0 joins, -1 leaves, otherwise the member's current epoch
 * @param rackId               null when unchanged
 * @param subscribedTopicNames null when unchanged (required, non-empty, when joining)
 */
public record ShareGroupHeartbeatRequest(String groupId, String memberId, int memberEpoch, String rackId,
        List<String> subscribedTopicNames, String clientId, String clientHost) {
    public static final int LEAVE_GROUP_MEMBER_EPOCH = -1;
}
