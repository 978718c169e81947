package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * ListConfigResources (key 74): versions 0-1, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class ListConfigResourcesApi {
    public static final ApiSpec SPEC = new ApiSpec(74, "ListConfigResources", 0, 1, 0,
            Request.SCHEMA, Response.SCHEMA);

    private ListConfigResourcesApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The list of resource type. If the list is empty, it uses default supported config resource types. */
        public static final Field<List<Byte>> RESOURCE_TYPES = Field.array("ResourceTypes", Types.INT8).versions(1);
        public static final Schema SCHEMA = Schema.of(RESOURCE_TYPES);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code ConfigResource}. */
        public static final class ConfigResource {
            private ConfigResource() {
            }

            /** The resource name. */
            public static final Field<String> RESOURCE_NAME = Field.string("ResourceName");
            /** The resource type. */
            public static final Field<Byte> RESOURCE_TYPE = Field.int8("ResourceType").versions(1).withDefault((byte) 16);
            public static final Schema SCHEMA = Schema.of(RESOURCE_NAME, RESOURCE_TYPE);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** Each config resource in the response. */
        public static final Field<List<Struct>> CONFIG_RESOURCES = Field.array("ConfigResources", ConfigResource.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, CONFIG_RESOURCES);
    }
}
