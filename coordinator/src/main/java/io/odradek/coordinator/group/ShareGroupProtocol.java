package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.ShareGroupRecord;
import io.odradek.coordinator.runtime.Scheduler;

/**
 * SEAM (issue 12): the share groups of one {@code __consumer_offsets} partition, event-sourced like
 * {@link ConsumerGroupProtocol}: state changes only by {@link #replay} of {@link ShareGroupRecord}s. The
 * share-group engineer fills it in (heartbeat, describe, list, delete, timers).
 */
final class ShareGroupProtocol {
    private final int partition;
    private final Scheduler scheduler;
    private final ConsumerGroupProtocol.RecordWriter writer;

    ShareGroupProtocol(int partition, Scheduler scheduler, ConsumerGroupProtocol.RecordWriter writer) {
        this.partition = partition;
        this.scheduler = scheduler;
        this.writer = writer;
    }

    /** Whether a share group of this id exists here (a group id is of one type only). */
    boolean hasGroup(String groupId) {
        return false;
    }

    /** Applies one of its records: at load, and after each committed write. */
    void replay(ShareGroupRecord record) {
    }

    /** The log has been replayed: start member session timers. */
    void onLoaded() {
    }

    /** Unloaded: stop timers. */
    void close() {
    }

    @Override
    public String toString() {
        return "ShareGroupProtocol[" + partition + ", " + scheduler + ", " + writer + "]";
    }
}
