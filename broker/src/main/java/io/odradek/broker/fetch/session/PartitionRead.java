package io.odradek.broker.fetch.session;

/**
 * What reading one partition of a fetch produced, as far as its session cares: the fetch handler's per-partition
 * state implements it, so the session decides what a response carries without copying anything.
 */
public interface PartitionRead {
    /**
     * The partition as requested (a full fetch that may make a session) or as cached in the session (an
     * incremental fetch); null for a sessionless fetch, which never asks for it.
     */
    SessionPartition sessionPartition();

    /** Whether the response carries record bytes for it. */
    boolean hasRecords();

    /** Whether it is answered with an error (then high watermark and log start are -1). */
    boolean hasError();

    /** Whether it is answered with a diverging epoch (a follower must truncate). */
    boolean hasDivergingEpoch();

    long highWatermark();

    long logStartOffset();
}
