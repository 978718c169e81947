package io.odradek.coordinator.group;

import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A consumer-protocol group as ConsumerGroupDescribe reports it; partitions are by topic id (the handler
 * names them). A group that does not exist, or is a classic group, is GROUP_ID_NOT_FOUND.
 */
public record ConsumerGroupDescription(String groupId, ErrorCode error, String errorMessage, String state,
        int groupEpoch, int assignmentEpoch, String assignorName, List<Member> members) {

    public record Member(String memberId, String instanceId, String rackId, int memberEpoch, String clientId,
            String clientHost, List<String> subscribedTopicNames, String subscribedTopicRegex,
            Map<UUID, Set<Integer>> assignment, Map<UUID, Set<Integer>> targetAssignment) {
    }

    public static ConsumerGroupDescription error(String groupId, ErrorCode error, String message) {
        return new ConsumerGroupDescription(groupId, error, message, "", 0, 0, "", List.of());
    }
}
