package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;

/**
 * Heartbeat (key 12): versions 0-4, flexible from v4. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class HeartbeatApi {
    public static final ApiSpec SPEC = new ApiSpec(12, "Heartbeat", 0, 4, 4,
            Request.SCHEMA, Response.SCHEMA);

    private HeartbeatApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The group id. */
        public static final Field<String> GROUP_ID = Field.string("GroupId");
        /** The generation of the group. */
        public static final Field<Integer> GENERATION_ID = Field.int32("GenerationId");
        /** The member ID. */
        public static final Field<String> MEMBER_ID = Field.string("MemberId");
        /** The unique identifier of the consumer instance provided by end user. */
        public static final Field<String> GROUP_INSTANCE_ID = Field.string("GroupInstanceId").versions(3).nullable();
        public static final Schema SCHEMA = Schema.of(GROUP_ID, GENERATION_ID, MEMBER_ID, GROUP_INSTANCE_ID);
    }

    public static final class Response {
        private Response() {
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(1);
        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE);
    }
}
