package io.odradek.coordinator.share.partition;

import io.odradek.coordinator.share.StateBatch;
import java.util.ArrayList;
import java.util.List;

/**
 * One state transition waiting for its write (acknowledge, release): the in-flight batch and state (the
 * batch's own or one offset's) to commit or roll back, and the batch the write carries for it.
 */
record StateChange(InFlightBatch inFlight, InFlightState state, StateBatch batch) {
    /**
     * The batches of a write in offset order, neighbours with the same state and delivery count merged (Kafka
     * sends one batch per changed range or offset; the share coordinator merges them into the same result).
     */
    static List<StateBatch> coalesce(List<StateBatch> batches) {
        List<StateBatch> sorted = new ArrayList<>(batches);
        sorted.sort((a, b) -> Long.compare(a.firstOffset(), b.firstOffset()));
        List<StateBatch> out = new ArrayList<>();
        for (StateBatch b : sorted) {
            StateBatch last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && last.lastOffset() + 1 == b.firstOffset() && last.deliveryState() == b.deliveryState()
                    && last.deliveryCount() == b.deliveryCount()) {
                out.set(out.size() - 1, new StateBatch(last.firstOffset(), b.lastOffset(), b.deliveryState(), b.deliveryCount()));
            } else {
                out.add(b);
            }
        }
        return out;
    }

    static List<StateBatch> batchesOf(List<StateChange> changes) {
        List<StateBatch> batches = new ArrayList<>(changes.size());
        for (StateChange c : changes) {
            batches.add(c.batch());
        }
        return coalesce(batches);
    }
}
