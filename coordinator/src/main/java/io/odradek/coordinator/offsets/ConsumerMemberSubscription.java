package io.odradek.coordinator.offsets;

import java.util.List;

/**
 * What a consumer-protocol member told the coordinator about itself, as stored in a
 * ConsumerGroupMemberMetadataValue record (key type 5). Null fields were never given.
 *
 * @param subscribedTopicNames never null (empty when the member subscribes by regex only)
 * @param rebalanceTimeoutMs   how long the member may take to revoke partitions, or -1
 * @param serverAssignor       the assignor the member asked for, or null for the group's default
 */
public record ConsumerMemberSubscription(String instanceId, String rackId, String clientId, String clientHost,
        List<String> subscribedTopicNames, String subscribedTopicRegex, int rebalanceTimeoutMs, String serverAssignor) {
    public static final ConsumerMemberSubscription EMPTY =
            new ConsumerMemberSubscription(null, null, "", "", List.of(), null, -1, null);

    public ConsumerMemberSubscription {
        clientId = clientId == null ? "" : clientId;
        clientHost = clientHost == null ? "" : clientHost;
        subscribedTopicNames = subscribedTopicNames == null ? List.of() : List.copyOf(subscribedTopicNames);
    }
}
