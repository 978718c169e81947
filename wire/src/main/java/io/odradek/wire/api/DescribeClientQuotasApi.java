package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * DescribeClientQuotas (key 48): versions 0-1, flexible from v1. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class DescribeClientQuotasApi {
    public static final ApiSpec SPEC = new ApiSpec(48, "DescribeClientQuotas", 0, 1, 1,
            Request.SCHEMA, Response.SCHEMA);

    private DescribeClientQuotasApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Components}. */
        public static final class ComponentData {
            private ComponentData() {
            }

            /** The entity type that the filter component applies to. */
            public static final Field<String> ENTITY_TYPE = Field.string("EntityType");
            /** How to match the entity {0 = exact name, 1 = default name, 2 = any specified name}. */
            public static final Field<Byte> MATCH_TYPE = Field.int8("MatchType");
            /** The string to match against, or null if unused for the match type. */
            public static final Field<String> MATCH = Field.string("Match").nullable().withDefault("");
            public static final Schema SCHEMA = Schema.of(ENTITY_TYPE, MATCH_TYPE, MATCH);
        }

        /** Filter components to apply to quota entities. */
        public static final Field<List<Struct>> COMPONENTS = Field.array("Components", ComponentData.SCHEMA);
        /** Whether the match is strict, i.e. should exclude entities with unspecified entity types. */
        public static final Field<Boolean> STRICT = Field.bool("Strict");
        public static final Schema SCHEMA = Schema.of(COMPONENTS, STRICT);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Entries}. */
        public static final class EntryData {
            private EntryData() {
            }

            /** An element of {@code Entity}. */
            public static final class EntityData {
                private EntityData() {
                }

                /** The entity type. */
                public static final Field<String> ENTITY_TYPE = Field.string("EntityType");
                /** The entity name, or null if the default. */
                public static final Field<String> ENTITY_NAME = Field.string("EntityName").nullable().withDefault("");
                public static final Schema SCHEMA = Schema.of(ENTITY_TYPE, ENTITY_NAME);
            }

            /** An element of {@code Values}. */
            public static final class ValueData {
                private ValueData() {
                }

                /** The quota configuration key. */
                public static final Field<String> KEY = Field.string("Key");
                /** The quota configuration value. */
                public static final Field<Double> VALUE = Field.float64("Value");
                public static final Schema SCHEMA = Schema.of(KEY, VALUE);
            }

            /** The quota entity description. */
            public static final Field<List<Struct>> ENTITY = Field.array("Entity", EntityData.SCHEMA);
            /** The quota values for the entity. */
            public static final Field<List<Struct>> VALUES = Field.array("Values", ValueData.SCHEMA);
            public static final Schema SCHEMA = Schema.of(ENTITY, VALUES);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The error code, or `0` if the quota description succeeded. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The error message, or `null` if the quota description succeeded. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
        /** A result entry. */
        public static final Field<List<Struct>> ENTRIES = Field.array("Entries", EntryData.SCHEMA).nullable().withDefault(List.of());
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, ERROR_MESSAGE, ENTRIES);
    }
}
