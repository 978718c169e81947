package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.UUID;

/**
 * AlterShareGroupOffsets (key 91): version 0, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class AlterShareGroupOffsetsApi {
    public static final ApiSpec SPEC = new ApiSpec(91, "AlterShareGroupOffsets", 0, 0, 0,
            Request.SCHEMA, Response.SCHEMA);

    private AlterShareGroupOffsetsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code AlterShareGroupOffsetsRequestTopic}. */
        public static final class AlterShareGroupOffsetsRequestTopic {
            private AlterShareGroupOffsetsRequestTopic() {
            }

            /** An element of {@code AlterShareGroupOffsetsRequestPartition}. */
            public static final class AlterShareGroupOffsetsRequestPartition {
                private AlterShareGroupOffsetsRequestPartition() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The share-partition start offset. */
                public static final Field<Long> START_OFFSET = Field.int64("StartOffset");
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, START_OFFSET);
            }

            /** The topic name. */
            public static final Field<String> TOPIC_NAME = Field.string("TopicName");
            /** Each partition to alter offsets for. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", AlterShareGroupOffsetsRequestPartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC_NAME, PARTITIONS);
        }

        /** The group identifier. */
        public static final Field<String> GROUP_ID = Field.string("GroupId");
        /** The topics to alter offsets for. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", AlterShareGroupOffsetsRequestTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code AlterShareGroupOffsetsResponseTopic}. */
        public static final class AlterShareGroupOffsetsResponseTopic {
            private AlterShareGroupOffsetsResponseTopic() {
            }

            /** An element of {@code AlterShareGroupOffsetsResponsePartition}. */
            public static final class AlterShareGroupOffsetsResponsePartition {
                private AlterShareGroupOffsetsResponsePartition() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The error code, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The error message, or null if there was no error. */
                public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ERROR_CODE, ERROR_MESSAGE);
            }

            /** The topic name. */
            public static final Field<String> TOPIC_NAME = Field.string("TopicName");
            /** The unique topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            /**  */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", AlterShareGroupOffsetsResponsePartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC_NAME, TOPIC_ID, PARTITIONS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The top-level error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The top-level error message, or null if there was no error. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
        /** The results for each topic. */
        public static final Field<List<Struct>> RESPONSES = Field.array("Responses", AlterShareGroupOffsetsResponseTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, ERROR_MESSAGE, RESPONSES);
    }
}
