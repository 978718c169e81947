package io.odradek.log;

/**
 * Kafka's answer to "where did leader epoch N end": the largest epoch at or below the one asked for and the
 * first offset after it (the next epoch's start, or the log end for the latest epoch). {@link #UNDEFINED}
 * when the log knows no such epoch.
 */
public record EpochEndOffset(int leaderEpoch, long endOffset) {
    public static final EpochEndOffset UNDEFINED = new EpochEndOffset(-1, -1);
}
