package io.odradek.coordinator.group;

import io.odradek.coordinator.group.streams.ConfiguredTopology;
import io.odradek.coordinator.offsets.StreamsGroupRecord;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The answer to a StreamsGroupHeartbeat.
 *
 * @param statuses                 status codes (ConfiguredTopology's constants) with their details
 * @param tasks                    the member's tasks when they changed or the member joined, else null
 * @param partitionsByEndpoint     every member's partitions by user endpoint, when the member's endpoint epoch is
 *                                 behind; else null
 * @param internalTopicsToCreate   internal topics the broker should create (MISSING_INTERNAL_TOPICS)
 */
public record StreamsGroupHeartbeatResult(ErrorCode error, String errorMessage, String memberId, int memberEpoch,
        int heartbeatIntervalMs, int taskOffsetIntervalMs, long acceptableRecoveryLag, List<Status> statuses,
        StreamsGroupRecord.Tasks tasks, int endpointInformationEpoch, List<EndpointPartitions> partitionsByEndpoint,
        Map<String, ConfiguredTopology.TopicToCreate> internalTopicsToCreate) {

    public record Status(int code, String detail) {
    }

    /** One member's source partitions (topic to partitions) for interactive queries. */
    public record EndpointPartitions(StreamsGroupRecord.Endpoint endpoint, Map<String, Set<Integer>> activePartitions,
            Map<String, Set<Integer>> standbyPartitions) {
    }

    public static StreamsGroupHeartbeatResult error(ErrorCode error, String message) {
        return new StreamsGroupHeartbeatResult(error, message, null, 0, 0, 0, -1, List.of(), null, 0, null, Map.of());
    }
}
