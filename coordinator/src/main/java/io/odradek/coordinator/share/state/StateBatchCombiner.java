package io.odradek.coordinator.share.state;

import io.odradek.coordinator.share.StateBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * Merges a share partition's persisted batches with the batches of a write into one sorted list of
 * non-overlapping ranges, as Kafka 4.4's PersisterStateBatchCombiner does:
 * <ul>
 * <li>ranges wholly below the start offset are dropped, a range straddling it is cut to start there
 *     (a start offset of -1 prunes nothing);</li>
 * <li>where ranges overlap, the one with the higher delivery count wins, and at equal counts the higher
 *     delivery state (ARCHIVED 4 over ACKNOWLEDGED 2 over AVAILABLE 0), whichever came first: an offset's
 *     state only moves forward;</li>
 * <li>adjacent pieces with the same count and state are joined.</li>
 * </ul>
 * A sweep over the ranges' begin and end points, keeping the active ranges by priority.
 */
final class StateBatchCombiner {
    private record Priority(short deliveryCount, byte deliveryState) {
        static Priority of(StateBatch b) {
            return new Priority(b.deliveryCount(), b.deliveryState());
        }
    }

    /** A range begins at {@code offset}, or ends just before it. */
    private record Event(long offset, boolean begin, Priority priority) {
    }

    /** Highest count first, then highest state. */
    private static final Comparator<Priority> HIGHEST_FIRST = (a, b) -> {
        int byCount = Short.compare(b.deliveryCount(), a.deliveryCount());
        return byCount != 0 ? byCount : Byte.compare(b.deliveryState(), a.deliveryState());
    };

    private StateBatchCombiner() {
    }

    static List<StateBatch> combine(List<StateBatch> soFar, List<StateBatch> added, long startOffset) {
        List<StateBatch> pruned = new ArrayList<>(soFar.size() + added.size());
        addPruned(pruned, soFar, startOffset);
        addPruned(pruned, added, startOffset);
        return pruned.size() <= 1 ? pruned : sweep(pruned);
    }

    private static void addPruned(List<StateBatch> out, List<StateBatch> batches, long startOffset) {
        for (StateBatch b : batches) {
            if (startOffset != -1 && b.lastOffset() < startOffset) {
                continue;
            }
            if (startOffset == -1 || b.firstOffset() >= startOffset) {
                out.add(b);
            } else {
                out.add(new StateBatch(startOffset, b.lastOffset(), b.deliveryState(), b.deliveryCount()));
            }
        }
    }

    private static List<StateBatch> sweep(List<StateBatch> batches) {
        Event[] events = new Event[batches.size() * 2];
        for (int i = 0; i < batches.size(); i++) {
            StateBatch b = batches.get(i);
            Priority p = Priority.of(b);
            events[2 * i] = new Event(b.firstOffset(), true, p);
            events[2 * i + 1] = new Event(b.lastOffset() + 1, false, p);
        }
        // By offset; at one offset ends before begins.
        Arrays.sort(events, Comparator.comparingLong(Event::offset).thenComparing(Event::begin));
        TreeMap<Priority, Integer> active = new TreeMap<>(HIGHEST_FIRST);
        List<StateBatch> out = new ArrayList<>();
        long segmentStart = -1;
        Priority current = null;
        int i = 0;
        while (i < events.length) {
            long offset = events[i].offset();
            if (current != null && offset > segmentStart) {
                appendCoalesced(out, segmentStart, offset - 1, current);
            }
            while (i < events.length && events[i].offset() == offset) {
                Event e = events[i++];
                if (e.begin()) {
                    active.merge(e.priority(), 1, Integer::sum);
                } else {
                    active.computeIfPresent(e.priority(), (k, n) -> n == 1 ? null : n - 1);
                }
            }
            current = active.isEmpty() ? null : active.firstKey();
            segmentStart = offset;
        }
        return out;
    }

    private static void appendCoalesced(List<StateBatch> out, long first, long last, Priority p) {
        if (!out.isEmpty()) {
            StateBatch prev = out.get(out.size() - 1);
            if (prev.lastOffset() + 1 == first && prev.deliveryState() == p.deliveryState()
                    && prev.deliveryCount() == p.deliveryCount()) {
                out.set(out.size() - 1, new StateBatch(prev.firstOffset(), last, p.deliveryState(), p.deliveryCount()));
                return;
            }
        }
        out.add(new StateBatch(first, last, p.deliveryState(), p.deliveryCount()));
    }
}
