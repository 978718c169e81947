package io.odradek.coordinator.group;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** The states of a classic group, with Kafka's names (as ListGroups and DescribeGroups report them). */
public enum GroupState {
    /** No members; offsets may remain. */
    EMPTY("Empty"),
    /** Waiting for members to (re)join before the next generation. */
    PREPARING_REBALANCE("PreparingRebalance"),
    /** Joined; waiting for the leader's assignment in SyncGroup. */
    COMPLETING_REBALANCE("CompletingRebalance"),
    /** Every member has its assignment and heartbeats. */
    STABLE("Stable"),
    /** Deleted (or moved): no longer served. */
    DEAD("Dead");

    private final String kafkaName;

    GroupState(String kafkaName) {
        this.kafkaName = kafkaName;
    }

    public String kafkaName() {
        return kafkaName;
    }

    public String lowerCaseName() {
        return kafkaName.toLowerCase(Locale.ROOT);
    }

    /** The states this one may be entered from. */
    Set<GroupState> validPrevious() {
        return switch (this) {
            case EMPTY -> EnumSet.of(PREPARING_REBALANCE);
            case PREPARING_REBALANCE -> EnumSet.of(STABLE, COMPLETING_REBALANCE, EMPTY);
            case COMPLETING_REBALANCE -> EnumSet.of(PREPARING_REBALANCE);
            case STABLE -> EnumSet.of(COMPLETING_REBALANCE);
            case DEAD -> EnumSet.allOf(GroupState.class);
        };
    }
}
