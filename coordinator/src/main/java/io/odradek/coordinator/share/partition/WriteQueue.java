package io.odradek.coordinator.share.partition;

import java.util.ArrayDeque;

/**
 * Sends a partition's state writes to the persister in the order its state changed: writes are queued under
 * the partition's lock and sent outside it by one thread at a time (a lock timeout's write can then never
 * overtake the write of an acknowledgement made after it).
 */
final class WriteQueue {
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private boolean sending;

    /** Queues a send; call under the partition's lock, then {@link #drain} after releasing it. */
    synchronized void add(Runnable send) {
        queue.add(send);
    }

    /** Sends what is queued unless another thread is already doing so (it then sends this too). */
    void drain() {
        while (true) {
            Runnable next;
            synchronized (this) {
                if (sending) {
                    return;
                }
                next = queue.poll();
                if (next == null) {
                    return;
                }
                sending = true;
            }
            try {
                next.run();
            } finally {
                synchronized (this) {
                    sending = false;
                }
            }
        }
    }
}
