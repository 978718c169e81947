package io.odradek.coordinator.group;

import java.util.List;

/**
 * A JoinGroup as the coordinator needs it.
 *
 * @param memberId        "" for a member joining for the first time
 * @param groupInstanceId the static member's {@code group.instance.id}, or null
 * @param clientHost      the client's address, as Kafka reports it ("/127.0.0.1")
 * @param apiVersion      v4+ gets MEMBER_ID_REQUIRED on a first join; v9+ can skip the leader's assignment
 */
public record JoinGroupRequest(String groupId, String memberId, String groupInstanceId, String clientId,
        String clientHost, int sessionTimeoutMs, int rebalanceTimeoutMs, String protocolType,
        List<Protocol> protocols, String reason, short apiVersion) {
    public JoinGroupRequest {
        memberId = memberId == null ? "" : memberId;
        protocols = List.copyOf(protocols);
        // v0 has no rebalance timeout: the session timeout serves for both, as in Kafka.
        rebalanceTimeoutMs = rebalanceTimeoutMs < 0 ? sessionTimeoutMs : rebalanceTimeoutMs;
    }
}
