package io.odradek.coordinator.group;

import io.odradek.wire.ErrorCode;
import java.util.List;

/**
 * A group as DescribeGroups reports it. Member metadata is filled only in the Stable state, where
 * {@code protocolData} names the selected protocol. An unknown group is "Dead" with GROUP_ID_NOT_FOUND
 * (reported as an error from DescribeGroups v6 only).
 */
public record GroupDescription(String groupId, ErrorCode error, String state, String protocolType,
        String protocolData, List<Member> members) {

    public record Member(String memberId, String groupInstanceId, String clientId, String clientHost,
            byte[] metadata, byte[] assignment) {
    }

    public static GroupDescription error(String groupId, ErrorCode error, String state) {
        return new GroupDescription(groupId, error, state, "", "", List.of());
    }
}
