package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;

/**
 * SaslAuthenticate (key 36): versions 0-2, flexible from v2. Fields and version ranges as in Kafka 4.4's
 * message schemas (v1 added SessionLifetimeMs, KIP-368).
 */
public final class SaslAuthenticateApi {
    public static final ApiSpec SPEC = new ApiSpec(36, "SaslAuthenticate", 0, 2, 2,
            Request.SCHEMA, Response.SCHEMA);

    private SaslAuthenticateApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The SASL authentication bytes from the client, as defined by the SASL mechanism. */
        public static final Field<byte[]> AUTH_BYTES = Field.bytes("AuthBytes");
        public static final Schema SCHEMA = Schema.of(AUTH_BYTES);
    }

    public static final class Response {
        private Response() {
        }

        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The error message, or null if there was no error. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
        /** The SASL authentication bytes from the server, as defined by the SASL mechanism. */
        public static final Field<byte[]> AUTH_BYTES = Field.bytes("AuthBytes");
        /** Number of milliseconds after which only re-authentication over the existing connection to create a new session can occur. */
        public static final Field<Long> SESSION_LIFETIME_MS = Field.int64("SessionLifetimeMs").versions(1);
        public static final Schema SCHEMA = Schema.of(ERROR_CODE, ERROR_MESSAGE, AUTH_BYTES, SESSION_LIFETIME_MS);
    }
}
