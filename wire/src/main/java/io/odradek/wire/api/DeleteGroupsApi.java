package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * DeleteGroups (key 42): versions 0-3, flexible from v2. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class DeleteGroupsApi {
    public static final ApiSpec SPEC = new ApiSpec(42, "DeleteGroups", 0, 3, 2,
            Request.SCHEMA, Response.SCHEMA);

    private DeleteGroupsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The group names to delete. */
        public static final Field<List<String>> GROUPS_NAMES = Field.array("GroupsNames", Types.STRING);
        public static final Schema SCHEMA = Schema.of(GROUPS_NAMES);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Results}. */
        public static final class DeletableGroupResult {
            private DeletableGroupResult() {
            }

            /** The group id. */
            public static final Field<String> GROUP_ID = Field.string("GroupId");
            /** The deletion error, or 0 if the deletion succeeded. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The error message, or null if there was no error. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").versions(3).nullable();
            public static final Schema SCHEMA = Schema.of(GROUP_ID, ERROR_CODE, ERROR_MESSAGE);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The deletion results. */
        public static final Field<List<Struct>> RESULTS = Field.array("Results", DeletableGroupResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, RESULTS);
    }
}
