package io.odradek.log.producer;

import java.util.Arrays;
import java.util.Collection;
import java.util.Map;

/**
 * The producers with a transaction open on one partition and their epochs, as an immutable snapshot the
 * producer state publishes whenever a transaction opens or ends: what lets a produce skip the transaction
 * coordinator (Kafka's hasOngoingTransaction) from any thread, without the log lock and without allocating
 * (a binary search over primitive arrays, no boxed producer id).
 */
final class OpenTransactions {
    static final OpenTransactions NONE = new OpenTransactions(new long[0], new short[0]);

    private final long[] producerIds;
    private final short[] epochs;

    private OpenTransactions(long[] producerIds, short[] epochs) {
        this.producerIds = producerIds;
        this.epochs = epochs;
    }

    /**
     * The producers among {@code ongoingIds} (the open transactions' producer ids) whose entry in
     * {@code producers} still has a transaction open, with their epochs: only the open transactions are
     * looked at, not every producer. The filter and the dedup cover the moment a marker has ended a
     * transaction (or ended it and a batch opened the next) before the open set forgets the old one.
     */
    static OpenTransactions of(Collection<Long> ongoingIds, Map<Long, ProducerEntry> producers) {
        long[] ids = new long[ongoingIds.size()];
        int n = 0;
        for (Long id : ongoingIds) {
            ProducerEntry e = producers.get(id);
            if (e != null && e.hasOpenTransaction()) {
                ids[n++] = id;
            }
        }
        if (n == 0) {
            return NONE;
        }
        Arrays.sort(ids, 0, n);
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            if (distinct == 0 || ids[i] != ids[distinct - 1]) {
                ids[distinct++] = ids[i];
            }
        }
        if (distinct < ids.length) {
            ids = Arrays.copyOf(ids, distinct);
        }
        short[] epochs = new short[distinct];
        for (int i = 0; i < distinct; i++) {
            epochs[i] = producers.get(ids[i]).epoch();
        }
        return new OpenTransactions(ids, epochs);
    }

    boolean contains(long producerId, short epoch) {
        int i = Arrays.binarySearch(producerIds, producerId);
        return i >= 0 && epochs[i] == epoch;
    }
}
