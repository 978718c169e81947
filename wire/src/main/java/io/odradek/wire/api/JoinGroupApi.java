package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * JoinGroup (key 11): versions 0-9, flexible from v6. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class JoinGroupApi {
    public static final ApiSpec SPEC = new ApiSpec(11, "JoinGroup", 0, 9, 6,
            Request.SCHEMA, Response.SCHEMA);

    private JoinGroupApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Protocols}. */
        public static final class JoinGroupRequestProtocol {
            private JoinGroupRequestProtocol() {
            }

            /** The protocol name. */
            public static final Field<String> NAME = Field.string("Name");
            /** The protocol metadata. */
            public static final Field<byte[]> METADATA = Field.bytes("Metadata");
            public static final Schema SCHEMA = Schema.of(NAME, METADATA);
        }

        /** The group identifier. */
        public static final Field<String> GROUP_ID = Field.string("GroupId");
        /** The coordinator considers the consumer dead if it receives no heartbeat after this timeout in milliseconds. */
        public static final Field<Integer> SESSION_TIMEOUT_MS = Field.int32("SessionTimeoutMs");
        /** The maximum time in milliseconds that the coordinator will wait for each member to rejoin when rebalancing the group. */
        public static final Field<Integer> REBALANCE_TIMEOUT_MS = Field.int32("RebalanceTimeoutMs").versions(1).withDefault(-1);
        /** The member id assigned by the group coordinator. */
        public static final Field<String> MEMBER_ID = Field.string("MemberId");
        /** The unique identifier of the consumer instance provided by end user. */
        public static final Field<String> GROUP_INSTANCE_ID = Field.string("GroupInstanceId").versions(5).nullable();
        /** The unique name the for class of protocols implemented by the group we want to join. */
        public static final Field<String> PROTOCOL_TYPE = Field.string("ProtocolType");
        /** The list of protocols that the member supports. */
        public static final Field<List<Struct>> PROTOCOLS = Field.array("Protocols", JoinGroupRequestProtocol.SCHEMA);
        /** The reason why the member (re-)joins the group. */
        public static final Field<String> REASON = Field.string("Reason").versions(8).nullable();
        public static final Schema SCHEMA = Schema.of(GROUP_ID, SESSION_TIMEOUT_MS, REBALANCE_TIMEOUT_MS, MEMBER_ID, GROUP_INSTANCE_ID, PROTOCOL_TYPE, PROTOCOLS, REASON);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Members}. */
        public static final class JoinGroupResponseMember {
            private JoinGroupResponseMember() {
            }

            /** The group member ID. */
            public static final Field<String> MEMBER_ID = Field.string("MemberId");
            /** The unique identifier of the consumer instance provided by end user. */
            public static final Field<String> GROUP_INSTANCE_ID = Field.string("GroupInstanceId").versions(5).nullable();
            /** The group member metadata. */
            public static final Field<byte[]> METADATA = Field.bytes("Metadata");
            public static final Schema SCHEMA = Schema.of(MEMBER_ID, GROUP_INSTANCE_ID, METADATA);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(2);
        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The generation ID of the group. */
        public static final Field<Integer> GENERATION_ID = Field.int32("GenerationId").withDefault(-1);
        /** The group protocol name. */
        public static final Field<String> PROTOCOL_TYPE = Field.string("ProtocolType").versions(7).nullable();
        /** The group protocol selected by the coordinator. */
        public static final Field<String> PROTOCOL_NAME = Field.string("ProtocolName").nullableFrom(7).withDefault("");
        /** The leader of the group. */
        public static final Field<String> LEADER = Field.string("Leader");
        /** True if the leader must skip running the assignment. */
        public static final Field<Boolean> SKIP_ASSIGNMENT = Field.bool("SkipAssignment").versions(9);
        /** The member ID assigned by the group coordinator. */
        public static final Field<String> MEMBER_ID = Field.string("MemberId");
        /** The group members. */
        public static final Field<List<Struct>> MEMBERS = Field.array("Members", JoinGroupResponseMember.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, GENERATION_ID, PROTOCOL_TYPE, PROTOCOL_NAME, LEADER, SKIP_ASSIGNMENT, MEMBER_ID, MEMBERS);
    }
}
