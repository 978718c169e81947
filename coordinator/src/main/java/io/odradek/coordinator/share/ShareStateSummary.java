package io.odradek.coordinator.share;

import io.odradek.wire.ErrorCode;

/**
 * What ReadShareGroupStateSummary answers for one share partition: enough for DescribeShareGroupOffsets
 * (the start offset is the group's "offset" for the partition; lag is computed from it).
 *
 * @param deliveryCompleteCount records at or after the start offset already acknowledged or archived
 *                              (v1, KIP-1226); -1 when unknown
 */
public record ShareStateSummary(ErrorCode error, String message, int stateEpoch, int leaderEpoch, long startOffset,
        int deliveryCompleteCount) {
    public static ShareStateSummary error(ErrorCode error, String message) {
        return new ShareStateSummary(error, message, -1, -1, -1, -1);
    }
}
