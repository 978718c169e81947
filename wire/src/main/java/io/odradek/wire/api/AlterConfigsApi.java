package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * AlterConfigs (key 33): versions 0-2, flexible from v2. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class AlterConfigsApi {
    public static final ApiSpec SPEC = new ApiSpec(33, "AlterConfigs", 0, 2, 2,
            Request.SCHEMA, Response.SCHEMA);

    private AlterConfigsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Resources}. */
        public static final class AlterConfigsResource {
            private AlterConfigsResource() {
            }

            /** An element of {@code Configs}. */
            public static final class AlterableConfig {
                private AlterableConfig() {
                }

                /** The configuration key name. */
                public static final Field<String> NAME = Field.string("Name");
                /** The value to set for the configuration key. */
                public static final Field<String> VALUE = Field.string("Value").nullable().withDefault("");
                public static final Schema SCHEMA = Schema.of(NAME, VALUE);
            }

            /** The resource type. */
            public static final Field<Byte> RESOURCE_TYPE = Field.int8("ResourceType");
            /** The resource name. */
            public static final Field<String> RESOURCE_NAME = Field.string("ResourceName");
            /** The configurations. */
            public static final Field<List<Struct>> CONFIGS = Field.array("Configs", AlterableConfig.SCHEMA);
            public static final Schema SCHEMA = Schema.of(RESOURCE_TYPE, RESOURCE_NAME, CONFIGS);
        }

        /** The updates for each resource. */
        public static final Field<List<Struct>> RESOURCES = Field.array("Resources", AlterConfigsResource.SCHEMA);
        /** True if we should validate the request, but not change the configurations. */
        public static final Field<Boolean> VALIDATE_ONLY = Field.bool("ValidateOnly");
        public static final Schema SCHEMA = Schema.of(RESOURCES, VALIDATE_ONLY);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Responses}. */
        public static final class AlterConfigsResourceResponse {
            private AlterConfigsResourceResponse() {
            }

            /** The resource error code. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The resource error message, or null if there was no error. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
            /** The resource type. */
            public static final Field<Byte> RESOURCE_TYPE = Field.int8("ResourceType");
            /** The resource name. */
            public static final Field<String> RESOURCE_NAME = Field.string("ResourceName");
            public static final Schema SCHEMA = Schema.of(ERROR_CODE, ERROR_MESSAGE, RESOURCE_TYPE, RESOURCE_NAME);
        }

        /** Duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The responses for each resource. */
        public static final Field<List<Struct>> RESPONSES = Field.array("Responses", AlterConfigsResourceResponse.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, RESPONSES);
    }
}
