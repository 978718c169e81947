package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;
import java.util.UUID;

/**
 * DeleteTopics (key 20): versions 0-6, flexible from v4. Fields and version ranges as in Kafka 4.4's message
 * schemas; v0, which Kafka 4.0 dropped (KIP-896), as in Kafka 3.9.1's.
 */
public final class DeleteTopicsApi {
    public static final ApiSpec SPEC = new ApiSpec(20, "DeleteTopics", 0, 6, 4,
            Request.SCHEMA, Response.SCHEMA);

    private DeleteTopicsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class DeleteTopicState {
            private DeleteTopicState() {
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name").versions(6).nullable();
            /** The unique topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(6);
            public static final Schema SCHEMA = Schema.of(NAME, TOPIC_ID);
        }

        /** The name or topic ID of the topic. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", DeleteTopicState.SCHEMA).versions(6);
        /** The names of the topics to delete. */
        public static final Field<List<String>> TOPIC_NAMES = Field.array("TopicNames", Types.STRING).versions(0, 5);
        /** The length of time in milliseconds to wait for the deletions to complete. */
        public static final Field<Integer> TIMEOUT_MS = Field.int32("TimeoutMs");
        public static final Schema SCHEMA = Schema.of(TOPICS, TOPIC_NAMES, TIMEOUT_MS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Responses}. */
        public static final class DeletableTopicResult {
            private DeletableTopicResult() {
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name").nullableFrom(6).withDefault("");
            /** The unique topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(6);
            /** The deletion error, or 0 if the deletion succeeded. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The error message, or null if there was no error. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").versions(5).nullable();
            public static final Schema SCHEMA = Schema.of(NAME, TOPIC_ID, ERROR_CODE, ERROR_MESSAGE);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(1);
        /** The results for each topic we tried to delete. */
        public static final Field<List<Struct>> RESPONSES = Field.array("Responses", DeletableTopicResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, RESPONSES);
    }
}
