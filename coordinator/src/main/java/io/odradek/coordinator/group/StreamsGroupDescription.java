package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.StreamsGroupRecord;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.Map;

/**
 * A streams group as StreamsGroupDescribe reports it. A group that does not exist, or is of another type, is
 * GROUP_ID_NOT_FOUND.
 *
 * @param topology   the group's topology, or null when no member has initialized it
 * @param configured how it checks against the topics now (null without a topology)
 */
public record StreamsGroupDescription(String groupId, ErrorCode error, String errorMessage, String state,
        int groupEpoch, int assignmentEpoch, StreamsGroupRecord.StreamsTopology topology,
        Map<String, java.util.Set<String>> sourceTopicsBySubtopology, List<Member> members) {

    public record Member(String memberId, int memberEpoch, StreamsGroupRecord.Member metadata,
            StreamsGroupRecord.Tasks assignment, StreamsGroupRecord.Tasks targetAssignment, boolean isClassic) {
    }

    public static StreamsGroupDescription error(String groupId, ErrorCode error, String message) {
        return new StreamsGroupDescription(groupId, error, message, "", 0, 0, null, Map.of(), List.of());
    }
}
