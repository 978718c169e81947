package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * FindCoordinator (key 10): versions 0-6, flexible from v3. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class FindCoordinatorApi {
    public static final ApiSpec SPEC = new ApiSpec(10, "FindCoordinator", 0, 6, 3,
            Request.SCHEMA, Response.SCHEMA);

    private FindCoordinatorApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The coordinator key. */
        public static final Field<String> KEY = Field.string("Key").versions(0, 3);
        /** The coordinator key type. (group, transaction, share). */
        public static final Field<Byte> KEY_TYPE = Field.int8("KeyType").versions(1);
        /** The coordinator keys. */
        public static final Field<List<String>> COORDINATOR_KEYS = Field.array("CoordinatorKeys", Types.STRING).versions(4);
        public static final Schema SCHEMA = Schema.of(KEY, KEY_TYPE, COORDINATOR_KEYS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Coordinators}. */
        public static final class Coordinator {
            private Coordinator() {
            }

            /** The coordinator key. */
            public static final Field<String> KEY = Field.string("Key").versions(4);
            /** The node id. */
            public static final Field<Integer> NODE_ID = Field.int32("NodeId").versions(4);
            /** The host name. */
            public static final Field<String> HOST = Field.string("Host").versions(4);
            /** The port. */
            public static final Field<Integer> PORT = Field.int32("Port").versions(4);
            /** The error code, or 0 if there was no error. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode").versions(4);
            /** The error message, or null if there was no error. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").versions(4).nullable().withDefault("");
            public static final Schema SCHEMA = Schema.of(KEY, NODE_ID, HOST, PORT, ERROR_CODE, ERROR_MESSAGE);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(1);
        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode").versions(0, 3);
        /** The error message, or null if there was no error. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").versions(1, 3).nullable().withDefault("");
        /** The node id. */
        public static final Field<Integer> NODE_ID = Field.int32("NodeId").versions(0, 3);
        /** The host name. */
        public static final Field<String> HOST = Field.string("Host").versions(0, 3);
        /** The port. */
        public static final Field<Integer> PORT = Field.int32("Port").versions(0, 3);
        /** Each coordinator result in the response. */
        public static final Field<List<Struct>> COORDINATORS = Field.array("Coordinators", Coordinator.SCHEMA).versions(4);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, ERROR_MESSAGE, NODE_ID, HOST, PORT, COORDINATORS);
    }
}
