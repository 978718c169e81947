package io.odradek.coordinator.share.partition;

import java.util.List;

/**
 * One AcknowledgementBatch of a ShareFetch or ShareAcknowledge: {@code types} holds one type for the whole
 * range, or one per offset (Kafka's two forms).
 */
public record Acknowledgement(long firstOffset, long lastOffset, List<AcknowledgeType> types) {
    public Acknowledgement {
        types = List.copyOf(types);
    }
}
