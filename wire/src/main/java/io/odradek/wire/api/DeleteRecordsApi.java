package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * DeleteRecords (key 21): versions 0-2, flexible from v2. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class DeleteRecordsApi {
    public static final ApiSpec SPEC = new ApiSpec(21, "DeleteRecords", 0, 2, 2,
            Request.SCHEMA, Response.SCHEMA);

    private DeleteRecordsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class DeleteRecordsTopic {
            private DeleteRecordsTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class DeleteRecordsPartition {
                private DeleteRecordsPartition() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The deletion offset. -1 means that records should be truncated to the high watermark. */
                public static final Field<Long> OFFSET = Field.int64("Offset");
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, OFFSET);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** Each partition that we want to delete records from. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", DeleteRecordsPartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
        }

        /** Each topic that we want to delete records from. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", DeleteRecordsTopic.SCHEMA);
        /** How long to wait for the deletion to complete, in milliseconds. */
        public static final Field<Integer> TIMEOUT_MS = Field.int32("TimeoutMs");
        public static final Schema SCHEMA = Schema.of(TOPICS, TIMEOUT_MS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Topics}. */
        public static final class DeleteRecordsTopicResult {
            private DeleteRecordsTopicResult() {
            }

            /** An element of {@code Partitions}. */
            public static final class DeleteRecordsPartitionResult {
                private DeleteRecordsPartitionResult() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The partition low water mark. */
                public static final Field<Long> LOW_WATERMARK = Field.int64("LowWatermark");
                /** The deletion error code, or 0 if the deletion succeeded. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, LOW_WATERMARK, ERROR_CODE);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** Each partition that we wanted to delete records from. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", DeleteRecordsPartitionResult.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** Each topic that we wanted to delete records from. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", DeleteRecordsTopicResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, TOPICS);
    }
}
