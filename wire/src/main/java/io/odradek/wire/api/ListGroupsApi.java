package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * ListGroups (key 16): versions 0-5, flexible from v3. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class ListGroupsApi {
    public static final ApiSpec SPEC = new ApiSpec(16, "ListGroups", 0, 5, 3,
            Request.SCHEMA, Response.SCHEMA);

    private ListGroupsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The states of the groups we want to list. If empty, all groups are returned with their state. */
        public static final Field<List<String>> STATES_FILTER = Field.array("StatesFilter", Types.STRING).versions(4);
        /** The types of the groups we want to list. If empty, all groups are returned with their type. */
        public static final Field<List<String>> TYPES_FILTER = Field.array("TypesFilter", Types.STRING).versions(5);
        public static final Schema SCHEMA = Schema.of(STATES_FILTER, TYPES_FILTER);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Groups}. */
        public static final class ListedGroup {
            private ListedGroup() {
            }

            /** The group ID. */
            public static final Field<String> GROUP_ID = Field.string("GroupId");
            /** The group protocol type. */
            public static final Field<String> PROTOCOL_TYPE = Field.string("ProtocolType");
            /** The group state name. */
            public static final Field<String> GROUP_STATE = Field.string("GroupState").versions(4);
            /** The group type name. */
            public static final Field<String> GROUP_TYPE = Field.string("GroupType").versions(5);
            public static final Schema SCHEMA = Schema.of(GROUP_ID, PROTOCOL_TYPE, GROUP_STATE, GROUP_TYPE);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(1);
        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** Each group in the response. */
        public static final Field<List<Struct>> GROUPS = Field.array("Groups", ListedGroup.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, GROUPS);
    }
}
