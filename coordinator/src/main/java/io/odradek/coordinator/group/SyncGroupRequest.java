package io.odradek.coordinator.group;

import java.util.Map;

/**
 * A SyncGroup: from the leader it carries every member's assignment; from a follower, none.
 *
 * @param protocolType null before v5
 * @param protocolName null before v5
 */
public record SyncGroupRequest(String groupId, int generationId, String memberId, String groupInstanceId,
        String protocolType, String protocolName, Map<String, byte[]> assignments) {
}
