package io.odradek.coordinator.group;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * A ConsumerGroupHeartbeat (KIP-848). Optional fields are null (or -1) when the member did not send them
 * because they did not change since its last heartbeat.
 *
 * @param memberEpoch     0 to join, -1 to leave, -2 for a static member leaving for now, else its epoch
 * @param ownedPartitions the partitions the member owns by topic id, or null when not reported
 * @param clientHost      as Kafka reports it: "/127.0.0.1"
 * @param describableTopics whether the member may DESCRIBE a topic (its request's authorization): a regex
 *                        subscription resolves only to those, as Kafka's TopicRegexResolver; null when no
 *                        authorizer is configured (every topic)
 */
public record ConsumerGroupHeartbeatRequest(String groupId, String memberId, int memberEpoch, String instanceId,
        String rackId, int rebalanceTimeoutMs, List<String> subscribedTopicNames, String subscribedTopicRegex,
        String serverAssignor, Map<UUID, List<Integer>> ownedPartitions, String clientId, String clientHost,
        short apiVersion, Predicate<String> describableTopics) {
    public static final int LEAVE_GROUP_MEMBER_EPOCH = -1;
    public static final int LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2;

    public ConsumerGroupHeartbeatRequest {
        memberId = memberId == null ? "" : memberId;
    }

    /** A heartbeat from a member that may DESCRIBE every topic (no authorizer). */
    public ConsumerGroupHeartbeatRequest(String groupId, String memberId, int memberEpoch, String instanceId,
            String rackId, int rebalanceTimeoutMs, List<String> subscribedTopicNames, String subscribedTopicRegex,
            String serverAssignor, Map<UUID, List<Integer>> ownedPartitions, String clientId, String clientHost,
            short apiVersion) {
        this(groupId, memberId, memberEpoch, instanceId, rackId, rebalanceTimeoutMs, subscribedTopicNames,
                subscribedTopicRegex, serverAssignor, ownedPartitions, clientId, clientHost, apiVersion, null);
    }
}
