package io.odradek.replication.cluster;

import io.odradek.wire.ErrorCode;

/**
 * The active controller's answer: an error (STALE_BROKER_EPOCH: register again; NOT_CONTROLLER: retry),
 * whether the broker is fenced, whether it may finish a controlled shutdown (it leads nothing any more),
 * and the newest committed metadata offset.
 */
public record HeartbeatReply(ErrorCode error, boolean fenced, boolean shutDownAllowed, long committedOffset) {
}
