package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * OffsetDelete (key 47): versions 0-0, never flexible. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class OffsetDeleteApi {
    public static final ApiSpec SPEC = new ApiSpec(47, "OffsetDelete", 0, 0, -1,
            Request.SCHEMA, Response.SCHEMA);

    private OffsetDeleteApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class OffsetDeleteRequestTopic {
            private OffsetDeleteRequestTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class OffsetDeleteRequestPartition {
                private OffsetDeleteRequestPartition() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** Each partition to delete offsets for. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", OffsetDeleteRequestPartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
        }

        /** The unique group identifier. */
        public static final Field<String> GROUP_ID = Field.string("GroupId");
        /** The topics to delete offsets for. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", OffsetDeleteRequestTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Topics}. */
        public static final class OffsetDeleteResponseTopic {
            private OffsetDeleteResponseTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class OffsetDeleteResponsePartition {
                private OffsetDeleteResponsePartition() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The error code, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ERROR_CODE);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** The responses for each partition in the topic. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", OffsetDeleteResponsePartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
        }

        /** The top-level error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The responses for each topic. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", OffsetDeleteResponseTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(ERROR_CODE, THROTTLE_TIME_MS, TOPICS);
    }
}
