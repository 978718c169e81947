package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * DescribeAcls (key 29): versions 0-3, flexible from v2. Fields and version ranges as in Kafka 4.4's message
 * schemas; v0, which Kafka 4.0 dropped (KIP-896), as in Kafka 3.9.1's (no pattern type: always LITERAL).
 */
public final class DescribeAclsApi {
    public static final ApiSpec SPEC = new ApiSpec(29, "DescribeAcls", 0, 3, 2,
            Request.SCHEMA, Response.SCHEMA);

    private DescribeAclsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The resource type. */
        public static final Field<Byte> RESOURCE_TYPE_FILTER = Field.int8("ResourceTypeFilter");
        /** The resource name, or null to match any resource name. */
        public static final Field<String> RESOURCE_NAME_FILTER = Field.string("ResourceNameFilter").nullable().withDefault("");
        /** The resource pattern to match (v1+; v0 is LITERAL, 3). */
        public static final Field<Byte> PATTERN_TYPE_FILTER = Field.int8("PatternTypeFilter").versions(1).withDefault((byte) 3);
        /** The principal to match, or null to match any principal. */
        public static final Field<String> PRINCIPAL_FILTER = Field.string("PrincipalFilter").nullable().withDefault("");
        /** The host to match, or null to match any host. */
        public static final Field<String> HOST_FILTER = Field.string("HostFilter").nullable().withDefault("");
        /** The operation to match. */
        public static final Field<Byte> OPERATION = Field.int8("Operation");
        /** The permission type to match. */
        public static final Field<Byte> PERMISSION_TYPE = Field.int8("PermissionType");
        public static final Schema SCHEMA = Schema.of(RESOURCE_TYPE_FILTER, RESOURCE_NAME_FILTER, PATTERN_TYPE_FILTER,
                PRINCIPAL_FILTER, HOST_FILTER, OPERATION, PERMISSION_TYPE);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Resources}. */
        public static final class DescribeAclsResource {
            private DescribeAclsResource() {
            }

            /** An element of {@code Acls}. */
            public static final class AclDescription {
                private AclDescription() {
                }

                /** The ACL principal. */
                public static final Field<String> PRINCIPAL = Field.string("Principal");
                /** The ACL host. */
                public static final Field<String> HOST = Field.string("Host");
                /** The ACL operation. */
                public static final Field<Byte> OPERATION = Field.int8("Operation");
                /** The ACL permission type. */
                public static final Field<Byte> PERMISSION_TYPE = Field.int8("PermissionType");
                public static final Schema SCHEMA = Schema.of(PRINCIPAL, HOST, OPERATION, PERMISSION_TYPE);
            }

            /** The resource type. */
            public static final Field<Byte> RESOURCE_TYPE = Field.int8("ResourceType");
            /** The resource name. */
            public static final Field<String> RESOURCE_NAME = Field.string("ResourceName");
            /** The resource pattern type (v1+; v0 is LITERAL, 3). */
            public static final Field<Byte> PATTERN_TYPE = Field.int8("PatternType").versions(1).withDefault((byte) 3);
            /** The ACLs. */
            public static final Field<List<Struct>> ACLS = Field.array("Acls", AclDescription.SCHEMA);
            public static final Schema SCHEMA = Schema.of(RESOURCE_TYPE, RESOURCE_NAME, PATTERN_TYPE, ACLS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The error message, or null if there was no error. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
        /** Each Resource that is referenced in an ACL. */
        public static final Field<List<Struct>> RESOURCES = Field.array("Resources", DescribeAclsResource.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, ERROR_MESSAGE, RESOURCES);
    }
}
