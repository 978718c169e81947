package io.odradek.wire.header;

import io.netty.buffer.ByteBuf;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Types;

/**
 * A request header. v1 carries the client id as a classic nullable string (even in flexible versions);
 * v2 adds tagged fields, which Odradek reads and skips.
 */
public record RequestHeader(short apiKey, short apiVersion, int correlationId, String clientId) {

    private static final Schema NO_FIELDS = Schema.of();

    /** Reads the rest of the header, after key and version, at the given header version. */
    public static RequestHeader readRest(ByteBuf in, short apiKey, short apiVersion, short headerVersion) {
        int correlationId = in.readInt();
        String clientId = headerVersion >= 1 ? Types.STRING.read(in, apiVersion, false) : null;
        if (headerVersion >= 2) {
            NO_FIELDS.read(in, apiVersion, true);
        }
        return new RequestHeader(apiKey, apiVersion, correlationId, clientId);
    }
}
