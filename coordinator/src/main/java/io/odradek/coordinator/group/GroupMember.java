package io.odradek.coordinator.group;

import io.odradek.coordinator.runtime.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** A member of a classic group. Confined to its coordinator partition's thread. */
final class GroupMember {
    static final byte[] EMPTY_ASSIGNMENT = new byte[0];

    final String memberId;
    /** The static member's instance id, or null for a dynamic member. */
    final String groupInstanceId;
    final String protocolType;
    String clientId;
    String clientHost;
    int rebalanceTimeoutMs;
    int sessionTimeoutMs;
    List<Protocol> protocols;
    byte[] assignment = EMPTY_ASSIGNMENT;

    /** The parked JoinGroup, while the member waits for the join phase to complete. */
    CompletableFuture<JoinGroupResult> joinFuture;
    /** The parked SyncGroup, while the member waits for the leader's assignment. */
    CompletableFuture<SyncGroupResult> syncFuture;
    /** Joined but not yet through a completed join phase: its session timeout does not protect it yet. */
    boolean isNew;
    Scheduler.Timer heartbeatTimer;

    GroupMember(String memberId, String groupInstanceId, String clientId, String clientHost, int rebalanceTimeoutMs,
            int sessionTimeoutMs, String protocolType, List<Protocol> protocols) {
        this.memberId = memberId;
        this.groupInstanceId = groupInstanceId;
        this.clientId = clientId;
        this.clientHost = clientHost;
        this.rebalanceTimeoutMs = rebalanceTimeoutMs;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.protocolType = protocolType;
        this.protocols = List.copyOf(protocols);
    }

    boolean isStatic() {
        return groupInstanceId != null;
    }

    boolean isAwaitingJoin() {
        return joinFuture != null;
    }

    boolean isAwaitingSync() {
        return syncFuture != null;
    }

    /**
     * Whether a missed heartbeat deadline is excused: a member parked in JoinGroup or SyncGroup cannot
     * heartbeat (the rebalance timeout covers it), except a new member, which has no session yet.
     */
    boolean hasSatisfiedHeartbeat() {
        if (isNew) {
            return false;
        }
        return isAwaitingJoin() || isAwaitingSync();
    }

    /** Same protocols, same order, same metadata: rejoining with these changes nothing. */
    boolean matches(List<Protocol> other) {
        return protocols.equals(other);
    }

    /** Metadata for the protocol, or an empty array when the member does not support it. */
    byte[] metadata(String protocolName) {
        for (Protocol p : protocols) {
            if (p.name().equals(protocolName)) {
                return p.metadata();
            }
        }
        return EMPTY_ASSIGNMENT;
    }

    /** The member's most preferred protocol among the candidates. */
    String vote(Set<String> candidates) {
        for (Protocol p : protocols) {
            if (candidates.contains(p.name())) {
                return p.name();
            }
        }
        throw new IllegalStateException("member " + memberId + " supports none of " + candidates);
    }

    List<String> protocolNames() {
        List<String> names = new ArrayList<>(protocols.size());
        protocols.forEach(p -> names.add(p.name()));
        return names;
    }

    @Override
    public String toString() {
        return memberId + (groupInstanceId == null ? "" : " (instance " + groupInstanceId + ")");
    }
}
