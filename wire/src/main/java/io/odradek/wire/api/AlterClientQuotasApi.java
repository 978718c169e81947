package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * AlterClientQuotas (key 49): versions 0-1, flexible from v1. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class AlterClientQuotasApi {
    public static final ApiSpec SPEC = new ApiSpec(49, "AlterClientQuotas", 0, 1, 1,
            Request.SCHEMA, Response.SCHEMA);

    private AlterClientQuotasApi() {
    }

    public static final class Request {
        private Request() {
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
                /** The name of the entity, or null if the default. */
                public static final Field<String> ENTITY_NAME = Field.string("EntityName").nullable().withDefault("");
                public static final Schema SCHEMA = Schema.of(ENTITY_TYPE, ENTITY_NAME);
            }

            /** An element of {@code Ops}. */
            public static final class OpData {
                private OpData() {
                }

                /** The quota configuration key. */
                public static final Field<String> KEY = Field.string("Key");
                /** The value to set, otherwise ignored if the value is to be removed. */
                public static final Field<Double> VALUE = Field.float64("Value");
                /** Whether the quota configuration value should be removed, otherwise set. */
                public static final Field<Boolean> REMOVE = Field.bool("Remove");
                public static final Schema SCHEMA = Schema.of(KEY, VALUE, REMOVE);
            }

            /** The quota entity to alter. */
            public static final Field<List<Struct>> ENTITY = Field.array("Entity", EntityData.SCHEMA);
            /** An individual quota configuration entry to alter. */
            public static final Field<List<Struct>> OPS = Field.array("Ops", OpData.SCHEMA);
            public static final Schema SCHEMA = Schema.of(ENTITY, OPS);
        }

        /** The quota configuration entries to alter. */
        public static final Field<List<Struct>> ENTRIES = Field.array("Entries", EntryData.SCHEMA);
        /** Whether the alteration should be validated, but not performed. */
        public static final Field<Boolean> VALIDATE_ONLY = Field.bool("ValidateOnly");
        public static final Schema SCHEMA = Schema.of(ENTRIES, VALIDATE_ONLY);
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
                /** The name of the entity, or null if the default. */
                public static final Field<String> ENTITY_NAME = Field.string("EntityName").nullable().withDefault("");
                public static final Schema SCHEMA = Schema.of(ENTITY_TYPE, ENTITY_NAME);
            }

            /** The error code, or `0` if the quota alteration succeeded. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The error message, or `null` if the quota alteration succeeded. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
            /** The quota entity to alter. */
            public static final Field<List<Struct>> ENTITY = Field.array("Entity", EntityData.SCHEMA);
            public static final Schema SCHEMA = Schema.of(ERROR_CODE, ERROR_MESSAGE, ENTITY);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The quota configuration entries to alter. */
        public static final Field<List<Struct>> ENTRIES = Field.array("Entries", EntryData.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ENTRIES);
    }
}
