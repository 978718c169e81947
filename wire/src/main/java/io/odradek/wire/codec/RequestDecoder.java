package io.odradek.wire.codec;

import io.netty.buffer.ByteBuf;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ApiVersionsApi;
import io.odradek.wire.api.Apis;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.MalformedMessageException;
import io.odradek.wire.schema.Struct;

/** Turns one request frame (without its length prefix) into a {@link Request}. No I/O. */
public final class RequestDecoder {
    private RequestDecoder() {
    }

    /**
     * @throws UnsupportedRequestException for an API key we do not know, or a version outside its range
     *     (except ApiVersions): Kafka closes the connection for these
     * @throws MalformedMessageException when the bytes do not parse
     */
    public static Request decode(ByteBuf frame) {
        try {
            if (frame.readableBytes() < 8) {
                throw new MalformedMessageException("request frame of " + frame.readableBytes()
                        + " bytes is too short for a header");
            }
            short apiKey = frame.readShort();
            short version = frame.readShort();
            ApiSpec api = Apis.forKey(apiKey);
            if (api == null) {
                throw new UnsupportedRequestException("unknown API key " + apiKey);
            }
            if (!api.supports(version)) {
                if (api == ApiVersionsApi.SPEC && version > api.maxVersion()) {
                    // A newer client: its header is v2 like every flexible version; the body is not ours to read.
                    return new Request(RequestHeader.readRest(frame, apiKey, version, (short) 2), api, null);
                }
                throw new UnsupportedRequestException("unsupported version " + version + " of " + api.name()
                        + " (supported " + api.minVersion() + "-" + api.maxVersion() + ")");
            }
            RequestHeader header = RequestHeader.readRest(frame, apiKey, version, api.requestHeaderVersion(version));
            Struct body = api.request().read(frame, version, api.isFlexible(version));
            return new Request(header, api, body);
        } catch (IndexOutOfBoundsException e) {
            throw new MalformedMessageException("request ends before its last field", e);
        }
    }
}
