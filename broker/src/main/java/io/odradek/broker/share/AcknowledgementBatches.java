package io.odradek.broker.share;

import io.odradek.coordinator.share.partition.AcknowledgeType;
import io.odradek.coordinator.share.partition.Acknowledgement;
import java.util.ArrayList;
import java.util.List;

/**
 * One partition's AcknowledgementBatches from a ShareFetch or ShareAcknowledge, checked as Kafka 4.4's
 * KafkaApis.validateAcknowledgementBatches does; any failure makes the partition INVALID_REQUEST: a batch
 * whose first offset is past its last, batches not in increasing order without overlap, no acknowledge
 * types, more than one type but not one per offset, or an unknown type. RENEW (4) is accepted only when the
 * request says IsRenewAck (v2); before v2 the highest type is REJECT (3).
 */
public final class AcknowledgementBatches {
    private final boolean renewAllowed;
    private final List<Acknowledgement> batches = new ArrayList<>();
    private long previousLast = -1;
    private boolean invalid;

    public AcknowledgementBatches(boolean renewAllowed) {
        this.renewAllowed = renewAllowed;
    }

    public void add(long firstOffset, long lastOffset, List<Byte> types) {
        if (invalid) {
            return;
        }
        if (firstOffset > lastOffset || firstOffset <= previousLast || types == null || types.isEmpty()
                || (types.size() > 1 && lastOffset - firstOffset + 1 != types.size())) {
            invalid = true;
            return;
        }
        List<AcknowledgeType> parsed = new ArrayList<>(types.size());
        for (byte id : types) {
            AcknowledgeType type = AcknowledgeType.of(id);
            if (type == null || (type == AcknowledgeType.RENEW && !renewAllowed)) {
                invalid = true;
                return;
            }
            parsed.add(type);
        }
        previousLast = lastOffset;
        batches.add(new Acknowledgement(firstOffset, lastOffset, parsed));
    }

    public boolean invalid() {
        return invalid;
    }

    public boolean isEmpty() {
        return batches.isEmpty();
    }

    public List<Acknowledgement> batches() {
        return batches;
    }
}
