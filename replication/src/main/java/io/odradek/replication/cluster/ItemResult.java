package io.odradek.replication.cluster;

import io.odradek.wire.ErrorCode;

/** The outcome for one item of a command (a topic, a partition): its key, error and message (null when none). */
public record ItemResult(String key, ErrorCode error, String message) {
    public static ItemResult ok(String key) {
        return new ItemResult(key, ErrorCode.NONE, null);
    }
}
