package io.odradek.wire.codec;

import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Struct;

/**
 * A decoded request. {@code body} is null only for an ApiVersions request of a version newer than ours,
 * which is answered (not refused) so the client can retry with a version we know.
 * Records fields in the body are slices of the frame: valid until the frame is released.
 */
public record Request(RequestHeader header, ApiSpec api, Struct body) {
    public short version() {
        return header.apiVersion();
    }
}
