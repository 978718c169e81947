package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * SaslHandshake (key 17): versions 0-1, never flexible. Fields and version ranges as in Kafka 4.4's message
 * schemas. v0 means raw SASL tokens follow (frames without a request header), v1 means SaslAuthenticate requests.
 */
public final class SaslHandshakeApi {
    public static final ApiSpec SPEC = new ApiSpec(17, "SaslHandshake", 0, 1, -1,
            Request.SCHEMA, Response.SCHEMA);

    private SaslHandshakeApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The SASL mechanism chosen by the client. */
        public static final Field<String> MECHANISM = Field.string("Mechanism");
        public static final Schema SCHEMA = Schema.of(MECHANISM);
    }

    public static final class Response {
        private Response() {
        }

        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The mechanisms enabled in the server. */
        public static final Field<List<String>> MECHANISMS = Field.array("Mechanisms", Types.STRING);
        public static final Schema SCHEMA = Schema.of(ERROR_CODE, MECHANISMS);
    }
}
