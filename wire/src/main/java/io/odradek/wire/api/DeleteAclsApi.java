package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * DeleteAcls (key 31): versions 0-3, flexible from v2. Fields and version ranges as in Kafka 4.4's message
 * schemas; v0, which Kafka 4.0 dropped (KIP-896), as in Kafka 3.9.1's (no pattern type: always LITERAL).
 */
public final class DeleteAclsApi {
    public static final ApiSpec SPEC = new ApiSpec(31, "DeleteAcls", 0, 3, 2,
            Request.SCHEMA, Response.SCHEMA);

    private DeleteAclsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Filters}. */
        public static final class DeleteAclsFilter {
            private DeleteAclsFilter() {
            }

            /** The resource type. */
            public static final Field<Byte> RESOURCE_TYPE_FILTER = Field.int8("ResourceTypeFilter");
            /** The resource name, or null to match any resource name. */
            public static final Field<String> RESOURCE_NAME_FILTER = Field.string("ResourceNameFilter").nullable().withDefault("");
            /** The pattern type (v1+; v0 is LITERAL, 3). */
            public static final Field<Byte> PATTERN_TYPE_FILTER = Field.int8("PatternTypeFilter").versions(1).withDefault((byte) 3);
            /** The principal filter, or null to accept all principals. */
            public static final Field<String> PRINCIPAL_FILTER = Field.string("PrincipalFilter").nullable().withDefault("");
            /** The host filter, or null to accept all hosts. */
            public static final Field<String> HOST_FILTER = Field.string("HostFilter").nullable().withDefault("");
            /** The ACL operation. */
            public static final Field<Byte> OPERATION = Field.int8("Operation");
            /** The permission type. */
            public static final Field<Byte> PERMISSION_TYPE = Field.int8("PermissionType");
            public static final Schema SCHEMA = Schema.of(RESOURCE_TYPE_FILTER, RESOURCE_NAME_FILTER, PATTERN_TYPE_FILTER,
                    PRINCIPAL_FILTER, HOST_FILTER, OPERATION, PERMISSION_TYPE);
        }

        /** The filters to use when deleting ACLs. */
        public static final Field<List<Struct>> FILTERS = Field.array("Filters", DeleteAclsFilter.SCHEMA);
        public static final Schema SCHEMA = Schema.of(FILTERS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code FilterResults}. */
        public static final class DeleteAclsFilterResult {
            private DeleteAclsFilterResult() {
            }

            /** An element of {@code MatchingAcls}. */
            public static final class DeleteAclsMatchingAcl {
                private DeleteAclsMatchingAcl() {
                }

                /** The deletion error code, or 0 if the deletion succeeded. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The deletion error message, or null if the deletion succeeded. */
                public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
                /** The ACL resource type. */
                public static final Field<Byte> RESOURCE_TYPE = Field.int8("ResourceType");
                /** The ACL resource name. */
                public static final Field<String> RESOURCE_NAME = Field.string("ResourceName");
                /** The ACL resource pattern type (v1+; v0 is LITERAL, 3). */
                public static final Field<Byte> PATTERN_TYPE = Field.int8("PatternType").versions(1).withDefault((byte) 3);
                /** The ACL principal. */
                public static final Field<String> PRINCIPAL = Field.string("Principal");
                /** The ACL host. */
                public static final Field<String> HOST = Field.string("Host");
                /** The ACL operation. */
                public static final Field<Byte> OPERATION = Field.int8("Operation");
                /** The ACL permission type. */
                public static final Field<Byte> PERMISSION_TYPE = Field.int8("PermissionType");
                public static final Schema SCHEMA = Schema.of(ERROR_CODE, ERROR_MESSAGE, RESOURCE_TYPE, RESOURCE_NAME,
                        PATTERN_TYPE, PRINCIPAL, HOST, OPERATION, PERMISSION_TYPE);
            }

            /** The error code, or 0 if the filter succeeded. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The error message, or null if the filter succeeded. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
            /** The ACLs which matched this filter. */
            public static final Field<List<Struct>> MATCHING_ACLS = Field.array("MatchingAcls", DeleteAclsMatchingAcl.SCHEMA);
            public static final Schema SCHEMA = Schema.of(ERROR_CODE, ERROR_MESSAGE, MATCHING_ACLS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The results for each filter. */
        public static final Field<List<Struct>> FILTER_RESULTS = Field.array("FilterResults", DeleteAclsFilterResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, FILTER_RESULTS);
    }
}
