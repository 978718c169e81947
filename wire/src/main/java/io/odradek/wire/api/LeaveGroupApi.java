package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * LeaveGroup (key 13): versions 0-5, flexible from v4. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class LeaveGroupApi {
    public static final ApiSpec SPEC = new ApiSpec(13, "LeaveGroup", 0, 5, 4,
            Request.SCHEMA, Response.SCHEMA);

    private LeaveGroupApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Members}. */
        public static final class MemberIdentity {
            private MemberIdentity() {
            }

            /** The member ID to remove from the group. */
            public static final Field<String> MEMBER_ID = Field.string("MemberId").versions(3);
            /** The group instance ID to remove from the group. */
            public static final Field<String> GROUP_INSTANCE_ID = Field.string("GroupInstanceId").versions(3).nullable();
            /** The reason why the member left the group. */
            public static final Field<String> REASON = Field.string("Reason").versions(5).nullable();
            public static final Schema SCHEMA = Schema.of(MEMBER_ID, GROUP_INSTANCE_ID, REASON);
        }

        /** The ID of the group to leave. */
        public static final Field<String> GROUP_ID = Field.string("GroupId");
        /** The member ID to remove from the group. */
        public static final Field<String> MEMBER_ID = Field.string("MemberId").versions(0, 2);
        /** List of leaving member identities. */
        public static final Field<List<Struct>> MEMBERS = Field.array("Members", MemberIdentity.SCHEMA).versions(3);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, MEMBER_ID, MEMBERS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Members}. */
        public static final class MemberResponse {
            private MemberResponse() {
            }

            /** The member ID to remove from the group. */
            public static final Field<String> MEMBER_ID = Field.string("MemberId").versions(3);
            /** The group instance ID to remove from the group. */
            public static final Field<String> GROUP_INSTANCE_ID = Field.string("GroupInstanceId").versions(3).nullable().withDefault("");
            /** The error code, or 0 if there was no error. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode").versions(3);
            public static final Schema SCHEMA = Schema.of(MEMBER_ID, GROUP_INSTANCE_ID, ERROR_CODE);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(1);
        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** List of leaving member responses. */
        public static final Field<List<Struct>> MEMBERS = Field.array("Members", MemberResponse.SCHEMA).versions(3);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, MEMBERS);
    }
}
