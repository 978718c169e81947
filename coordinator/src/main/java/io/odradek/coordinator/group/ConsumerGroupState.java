package io.odradek.coordinator.group;

import java.util.Locale;

/** The states of a consumer-protocol group, with Kafka's names (as ListGroups and ConsumerGroupDescribe report them). */
public enum ConsumerGroupState {
    /** No members. */
    EMPTY("Empty"),
    /** The group epoch moved past the target assignment's: a new one is due. */
    ASSIGNING("Assigning"),
    /** Some member has not reached the target assignment yet. */
    RECONCILING("Reconciling"),
    /** Every member holds its target assignment. */
    STABLE("Stable");

    private final String kafkaName;

    ConsumerGroupState(String kafkaName) {
        this.kafkaName = kafkaName;
    }

    public String kafkaName() {
        return kafkaName;
    }

    public String lowerCaseName() {
        return kafkaName.toLowerCase(Locale.ROOT);
    }
}
