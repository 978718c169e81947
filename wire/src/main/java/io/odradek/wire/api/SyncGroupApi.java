package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * SyncGroup (key 14): versions 0-5, flexible from v4. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class SyncGroupApi {
    public static final ApiSpec SPEC = new ApiSpec(14, "SyncGroup", 0, 5, 4,
            Request.SCHEMA, Response.SCHEMA);

    private SyncGroupApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Assignments}. */
        public static final class SyncGroupRequestAssignment {
            private SyncGroupRequestAssignment() {
            }

            /** The ID of the member to assign. */
            public static final Field<String> MEMBER_ID = Field.string("MemberId");
            /** The member assignment. */
            public static final Field<byte[]> ASSIGNMENT = Field.bytes("Assignment");
            public static final Schema SCHEMA = Schema.of(MEMBER_ID, ASSIGNMENT);
        }

        /** The unique group identifier. */
        public static final Field<String> GROUP_ID = Field.string("GroupId");
        /** The generation of the group. */
        public static final Field<Integer> GENERATION_ID = Field.int32("GenerationId");
        /** The member ID assigned by the group. */
        public static final Field<String> MEMBER_ID = Field.string("MemberId");
        /** The unique identifier of the consumer instance provided by end user. */
        public static final Field<String> GROUP_INSTANCE_ID = Field.string("GroupInstanceId").versions(3).nullable();
        /** The group protocol type. */
        public static final Field<String> PROTOCOL_TYPE = Field.string("ProtocolType").versions(5).nullable();
        /** The group protocol name. */
        public static final Field<String> PROTOCOL_NAME = Field.string("ProtocolName").versions(5).nullable();
        /** Each assignment. */
        public static final Field<List<Struct>> ASSIGNMENTS = Field.array("Assignments", SyncGroupRequestAssignment.SCHEMA);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, GENERATION_ID, MEMBER_ID, GROUP_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOL_NAME, ASSIGNMENTS);
    }

    public static final class Response {
        private Response() {
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(1);
        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The group protocol type. */
        public static final Field<String> PROTOCOL_TYPE = Field.string("ProtocolType").versions(5).nullable();
        /** The group protocol name. */
        public static final Field<String> PROTOCOL_NAME = Field.string("ProtocolName").versions(5).nullable();
        /** The member assignment. */
        public static final Field<byte[]> ASSIGNMENT = Field.bytes("Assignment");
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, PROTOCOL_TYPE, PROTOCOL_NAME, ASSIGNMENT);
    }
}
