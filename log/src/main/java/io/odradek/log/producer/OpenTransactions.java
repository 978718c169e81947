package io.odradek.log.producer;

import java.util.Arrays;
import java.util.Collection;

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

    /** The entries of {@code producers} that have a transaction open. */
    static OpenTransactions of(Collection<ProducerEntry> producers) {
        ProducerEntry[] open = producers.stream().filter(ProducerEntry::hasOpenTransaction)
                .sorted((a, b) -> Long.compare(a.producerId(), b.producerId())).toArray(ProducerEntry[]::new);
        if (open.length == 0) {
            return NONE;
        }
        long[] ids = new long[open.length];
        short[] epochs = new short[open.length];
        for (int i = 0; i < open.length; i++) {
            ids[i] = open[i].producerId();
            epochs[i] = open[i].epoch();
        }
        return new OpenTransactions(ids, epochs);
    }

    boolean contains(long producerId, short epoch) {
        int i = Arrays.binarySearch(producerIds, producerId);
        return i >= 0 && epochs[i] == epoch;
    }
}
