package io.odradek.coordinator.group;

import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** A share group as ShareGroupDescribe (key 77) reports it; topic names are the handler's to add. */
public record ShareGroupDescription(String groupId, ErrorCode error, String errorMessage, String state, int groupEpoch,
        int assignmentEpoch, String assignorName, List<Member> members) {

    public record Member(String memberId, String rackId, int memberEpoch, String clientId, String clientHost,
            List<String> subscribedTopicNames, Map<UUID, Set<Integer>> assignment) {
    }

    public static ShareGroupDescription error(String groupId, ErrorCode error, String message) {
        return new ShareGroupDescription(groupId, error, message, "Dead", -1, -1, "", List.of());
    }
}
