package io.odradek.coordinator.group;

import io.odradek.wire.ErrorCode;
import java.util.List;

/**
 * A JoinGroup response. The leader gets every member with its metadata for the selected protocol;
 * followers get an empty list.
 *
 * @param protocolType null when not known (errors)
 * @param protocolName null when not known (errors, empty groups)
 * @param leader       "" when none
 */
public record JoinGroupResult(ErrorCode error, int generationId, String protocolType, String protocolName,
        String leader, boolean skipAssignment, String memberId, List<Member> members) {

    /** A member as the leader sees it. */
    public record Member(String memberId, String groupInstanceId, byte[] metadata) {
    }

    public static JoinGroupResult error(String memberId, ErrorCode error) {
        return new JoinGroupResult(error, -1, null, null, "", false, memberId, List.of());
    }
}
