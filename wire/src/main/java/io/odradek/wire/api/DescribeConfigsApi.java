package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * DescribeConfigs (key 32): versions 0-4, flexible from v4. Fields and version ranges as in Kafka 4.4's message
 * schemas; v0, which Kafka 4.0 dropped (KIP-896), as in Kafka 3.9.1's.
 */
public final class DescribeConfigsApi {
    public static final ApiSpec SPEC = new ApiSpec(32, "DescribeConfigs", 0, 4, 4,
            Request.SCHEMA, Response.SCHEMA);

    private DescribeConfigsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Resources}. */
        public static final class DescribeConfigsResource {
            private DescribeConfigsResource() {
            }

            /** The resource type. */
            public static final Field<Byte> RESOURCE_TYPE = Field.int8("ResourceType");
            /** The resource name. */
            public static final Field<String> RESOURCE_NAME = Field.string("ResourceName");
            /** The configuration keys to list, or null to list all configuration keys. */
            public static final Field<List<String>> CONFIGURATION_KEYS = Field.array("ConfigurationKeys", Types.STRING).nullable().withDefault(List.of());
            public static final Schema SCHEMA = Schema.of(RESOURCE_TYPE, RESOURCE_NAME, CONFIGURATION_KEYS);
        }

        /** The resources whose configurations we want to describe. */
        public static final Field<List<Struct>> RESOURCES = Field.array("Resources", DescribeConfigsResource.SCHEMA);
        /** True if we should include all synonyms. */
        public static final Field<Boolean> INCLUDE_SYNONYMS = Field.bool("IncludeSynonyms").versions(1);
        /** True if we should include configuration documentation. */
        public static final Field<Boolean> INCLUDE_DOCUMENTATION = Field.bool("IncludeDocumentation").versions(3);
        public static final Schema SCHEMA = Schema.of(RESOURCES, INCLUDE_SYNONYMS, INCLUDE_DOCUMENTATION);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Results}. */
        public static final class DescribeConfigsResult {
            private DescribeConfigsResult() {
            }

            /** An element of {@code Configs}. */
            public static final class DescribeConfigsResourceResult {
                private DescribeConfigsResourceResult() {
                }

                /** An element of {@code Synonyms}. */
                public static final class DescribeConfigsSynonym {
                    private DescribeConfigsSynonym() {
                    }

                    /** The synonym name. */
                    public static final Field<String> NAME = Field.string("Name").versions(1);
                    /** The synonym value. */
                    public static final Field<String> VALUE = Field.string("Value").versions(1).nullable().withDefault("");
                    /** The synonym source. */
                    public static final Field<Byte> SOURCE = Field.int8("Source").versions(1);
                    public static final Schema SCHEMA = Schema.of(NAME, VALUE, SOURCE);
                }

                /** The configuration name. */
                public static final Field<String> NAME = Field.string("Name");
                /** The configuration value. */
                public static final Field<String> VALUE = Field.string("Value").nullable().withDefault("");
                /** True if the configuration is read-only. */
                public static final Field<Boolean> READ_ONLY = Field.bool("ReadOnly");
                /** True if the configuration is not set. */
                public static final Field<Boolean> IS_DEFAULT = Field.bool("IsDefault").versions(0, 0);
                /** The configuration source. */
                public static final Field<Byte> CONFIG_SOURCE = Field.int8("ConfigSource").versions(1).withDefault((byte) -1);
                /** True if this configuration is sensitive. */
                public static final Field<Boolean> IS_SENSITIVE = Field.bool("IsSensitive");
                /** The synonyms for this configuration key. */
                public static final Field<List<Struct>> SYNONYMS = Field.array("Synonyms", DescribeConfigsSynonym.SCHEMA).versions(1);
                /** The configuration data type. Type can be one of the following values - BOOLEAN, STRING, INT, SHORT, LONG, DOUBLE, LIST, CLASS, PASSWORD. */
                public static final Field<Byte> CONFIG_TYPE = Field.int8("ConfigType").versions(3);
                /** The configuration documentation. */
                public static final Field<String> DOCUMENTATION = Field.string("Documentation").versions(3).nullable().withDefault("");
                public static final Schema SCHEMA = Schema.of(NAME, VALUE, READ_ONLY, IS_DEFAULT, CONFIG_SOURCE, IS_SENSITIVE, SYNONYMS, CONFIG_TYPE, DOCUMENTATION);
            }

            /** The error code, or 0 if we were able to successfully describe the configurations. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The error message, or null if we were able to successfully describe the configurations. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
            /** The resource type. */
            public static final Field<Byte> RESOURCE_TYPE = Field.int8("ResourceType");
            /** The resource name. */
            public static final Field<String> RESOURCE_NAME = Field.string("ResourceName");
            /** Each listed configuration. */
            public static final Field<List<Struct>> CONFIGS = Field.array("Configs", DescribeConfigsResourceResult.SCHEMA);
            public static final Schema SCHEMA = Schema.of(ERROR_CODE, ERROR_MESSAGE, RESOURCE_TYPE, RESOURCE_NAME, CONFIGS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The results for each resource. */
        public static final Field<List<Struct>> RESULTS = Field.array("Results", DescribeConfigsResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, RESULTS);
    }
}
