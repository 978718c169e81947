package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * CreateAcls (key 30): versions 0-3, flexible from v2. Fields and version ranges as in Kafka 4.4's message
 * schemas; v0, which Kafka 4.0 dropped (KIP-896), as in Kafka 3.9.1's (no pattern type: always LITERAL).
 */
public final class CreateAclsApi {
    public static final ApiSpec SPEC = new ApiSpec(30, "CreateAcls", 0, 3, 2,
            Request.SCHEMA, Response.SCHEMA);

    private CreateAclsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Creations}. */
        public static final class AclCreation {
            private AclCreation() {
            }

            /** The type of the resource. */
            public static final Field<Byte> RESOURCE_TYPE = Field.int8("ResourceType");
            /** The resource name for the ACL. */
            public static final Field<String> RESOURCE_NAME = Field.string("ResourceName");
            /** The pattern type for the ACL (v1+; v0 is LITERAL, 3). */
            public static final Field<Byte> RESOURCE_PATTERN_TYPE = Field.int8("ResourcePatternType").versions(1).withDefault((byte) 3);
            /** The principal for the ACL. */
            public static final Field<String> PRINCIPAL = Field.string("Principal");
            /** The host for the ACL. */
            public static final Field<String> HOST = Field.string("Host");
            /** The operation type for the ACL (read, write, etc.). */
            public static final Field<Byte> OPERATION = Field.int8("Operation");
            /** The permission type for the ACL (allow, deny, etc.). */
            public static final Field<Byte> PERMISSION_TYPE = Field.int8("PermissionType");
            public static final Schema SCHEMA = Schema.of(RESOURCE_TYPE, RESOURCE_NAME, RESOURCE_PATTERN_TYPE, PRINCIPAL,
                    HOST, OPERATION, PERMISSION_TYPE);
        }

        /** The ACLs that we want to create. */
        public static final Field<List<Struct>> CREATIONS = Field.array("Creations", AclCreation.SCHEMA);
        public static final Schema SCHEMA = Schema.of(CREATIONS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Results}. */
        public static final class AclCreationResult {
            private AclCreationResult() {
            }

            /** The result error, or zero if there was no error. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The result message, or null if there was no error. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
            public static final Schema SCHEMA = Schema.of(ERROR_CODE, ERROR_MESSAGE);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The results for each ACL creation. */
        public static final Field<List<Struct>> RESULTS = Field.array("Results", AclCreationResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, RESULTS);
    }
}
