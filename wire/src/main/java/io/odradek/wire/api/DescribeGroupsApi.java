package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * DescribeGroups (key 15): versions 0-6, flexible from v5. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class DescribeGroupsApi {
    public static final ApiSpec SPEC = new ApiSpec(15, "DescribeGroups", 0, 6, 5,
            Request.SCHEMA, Response.SCHEMA);

    private DescribeGroupsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The names of the groups to describe. */
        public static final Field<List<String>> GROUPS = Field.array("Groups", Types.STRING);
        /** Whether to include authorized operations. */
        public static final Field<Boolean> INCLUDE_AUTHORIZED_OPERATIONS = Field.bool("IncludeAuthorizedOperations").versions(3);
        public static final Schema SCHEMA = Schema.of(GROUPS, INCLUDE_AUTHORIZED_OPERATIONS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Groups}. */
        public static final class DescribedGroup {
            private DescribedGroup() {
            }

            /** An element of {@code Members}. */
            public static final class DescribedGroupMember {
                private DescribedGroupMember() {
                }

                /** The member id. */
                public static final Field<String> MEMBER_ID = Field.string("MemberId");
                /** The unique identifier of the consumer instance provided by end user. */
                public static final Field<String> GROUP_INSTANCE_ID = Field.string("GroupInstanceId").versions(4).nullable();
                /** The client ID used in the member's latest join group request. */
                public static final Field<String> CLIENT_ID = Field.string("ClientId");
                /** The client host. */
                public static final Field<String> CLIENT_HOST = Field.string("ClientHost");
                /** The metadata corresponding to the current group protocol in use. */
                public static final Field<byte[]> MEMBER_METADATA = Field.bytes("MemberMetadata");
                /** The current assignment provided by the group leader. */
                public static final Field<byte[]> MEMBER_ASSIGNMENT = Field.bytes("MemberAssignment");
                public static final Schema SCHEMA = Schema.of(MEMBER_ID, GROUP_INSTANCE_ID, CLIENT_ID, CLIENT_HOST, MEMBER_METADATA, MEMBER_ASSIGNMENT);
            }

            /** The describe error, or 0 if there was no error. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The describe error message, or null if there was no error. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").versions(6).nullable();
            /** The group ID string. */
            public static final Field<String> GROUP_ID = Field.string("GroupId");
            /** The group state string, or the empty string. */
            public static final Field<String> GROUP_STATE = Field.string("GroupState");
            /** The group protocol type, or the empty string. */
            public static final Field<String> PROTOCOL_TYPE = Field.string("ProtocolType");
            /** The group protocol data, or the empty string. */
            public static final Field<String> PROTOCOL_DATA = Field.string("ProtocolData");
            /** The group members. */
            public static final Field<List<Struct>> MEMBERS = Field.array("Members", DescribedGroupMember.SCHEMA);
            /** 32-bit bitfield to represent authorized operations for this group. */
            public static final Field<Integer> AUTHORIZED_OPERATIONS = Field.int32("AuthorizedOperations").versions(3).withDefault(-2147483648);
            public static final Schema SCHEMA = Schema.of(ERROR_CODE, ERROR_MESSAGE, GROUP_ID, GROUP_STATE, PROTOCOL_TYPE, PROTOCOL_DATA, MEMBERS, AUTHORIZED_OPERATIONS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(1);
        /** Each described group. */
        public static final Field<List<Struct>> GROUPS = Field.array("Groups", DescribedGroup.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, GROUPS);
    }
}
