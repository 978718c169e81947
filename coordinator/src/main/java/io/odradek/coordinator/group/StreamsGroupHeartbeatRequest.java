package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.StreamsGroupRecord;
import java.util.Map;
import java.util.Set;

/**
 * A StreamsGroupHeartbeat (KIP-1071) as the coordinator sees it. Null fields did not change since the member's
 * last heartbeat (Kafka's convention), except on a join (epoch 0), which carries everything.
 *
 * @param topology     the application's topology, only on a join
 * @param activeTasks  the tasks the member owns now (subtopology id to partitions), or null when unchanged
 */
public record StreamsGroupHeartbeatRequest(String groupId, String memberId, int memberEpoch, int endpointInformationEpoch,
        String instanceId, String rackId, int rebalanceTimeoutMs, StreamsGroupRecord.StreamsTopology topology,
        Map<String, Set<Integer>> activeTasks, Map<String, Set<Integer>> standbyTasks, Map<String, Set<Integer>> warmupTasks,
        String processId, StreamsGroupRecord.Endpoint userEndpoint, Map<String, String> clientTags,
        boolean shutdownApplication, String clientId, String clientHost, short apiVersion) {
    public static final int LEAVE_GROUP_MEMBER_EPOCH = -1;
    public static final int LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2;
}
