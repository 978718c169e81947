package io.odradek.coordinator.share.state;

import io.odradek.wire.ErrorCode;

/** What InitializeShareGroupState, WriteShareGroupState and DeleteShareGroupState answer for one share partition. */
public record ShareStateResult(ErrorCode error, String message) {
    public static final ShareStateResult NONE = new ShareStateResult(ErrorCode.NONE, null);
}
