package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.UUID;

/**
 * DeleteShareGroupOffsets (key 92): version 0, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class DeleteShareGroupOffsetsApi {
    public static final ApiSpec SPEC = new ApiSpec(92, "DeleteShareGroupOffsets", 0, 0, 0,
            Request.SCHEMA, Response.SCHEMA);

    private DeleteShareGroupOffsetsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code DeleteShareGroupOffsetsRequestTopic}. */
        public static final class DeleteShareGroupOffsetsRequestTopic {
            private DeleteShareGroupOffsetsRequestTopic() {
            }

            /** The topic name. */
            public static final Field<String> TOPIC_NAME = Field.string("TopicName");
            public static final Schema SCHEMA = Schema.of(TOPIC_NAME);
        }

        /** The group identifier. */
        public static final Field<String> GROUP_ID = Field.string("GroupId");
        /** The topics to delete offsets for. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", DeleteShareGroupOffsetsRequestTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code DeleteShareGroupOffsetsResponseTopic}. */
        public static final class DeleteShareGroupOffsetsResponseTopic {
            private DeleteShareGroupOffsetsResponseTopic() {
            }

            /** The topic name. */
            public static final Field<String> TOPIC_NAME = Field.string("TopicName");
            /** The unique topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            /** The topic-level error code, or 0 if there was no error. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The topic-level error message, or null if there was no error. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
            public static final Schema SCHEMA = Schema.of(TOPIC_NAME, TOPIC_ID, ERROR_CODE, ERROR_MESSAGE);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The top-level error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The top-level error message, or null if there was no error. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
        /** The results for each topic. */
        public static final Field<List<Struct>> RESPONSES = Field.array("Responses", DeleteShareGroupOffsetsResponseTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, ERROR_MESSAGE, RESPONSES);
    }
}
