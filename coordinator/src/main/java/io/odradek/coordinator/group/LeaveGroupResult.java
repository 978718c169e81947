package io.odradek.coordinator.group;

import io.odradek.wire.ErrorCode;
import java.util.List;

/**
 * A LeaveGroup response: a group-level error (the group is unknown or not served), or one result per
 * leaving member.
 */
public record LeaveGroupResult(ErrorCode error, List<Member> members) {
    /** A leaving member, by member id or (for an admin removing a static member) instance id. */
    public record Member(String memberId, String groupInstanceId, ErrorCode error) {
    }

    public static LeaveGroupResult error(ErrorCode error) {
        return new LeaveGroupResult(error, List.of());
    }
}
