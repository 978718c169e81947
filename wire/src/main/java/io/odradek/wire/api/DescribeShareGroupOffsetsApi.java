package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;
import java.util.UUID;

/**
 * DescribeShareGroupOffsets (key 90): versions 0-1, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class DescribeShareGroupOffsetsApi {
    public static final ApiSpec SPEC = new ApiSpec(90, "DescribeShareGroupOffsets", 0, 1, 0,
            Request.SCHEMA, Response.SCHEMA);

    private DescribeShareGroupOffsetsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code DescribeShareGroupOffsetsRequestGroup}. */
        public static final class DescribeShareGroupOffsetsRequestGroup {
            private DescribeShareGroupOffsetsRequestGroup() {
            }

            /** An element of {@code DescribeShareGroupOffsetsRequestTopic}. */
            public static final class DescribeShareGroupOffsetsRequestTopic {
                private DescribeShareGroupOffsetsRequestTopic() {
                }

                /** The topic name. */
                public static final Field<String> TOPIC_NAME = Field.string("TopicName");
                /** The partitions. */
                public static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
                public static final Schema SCHEMA = Schema.of(TOPIC_NAME, PARTITIONS);
            }

            /** The group identifier. */
            public static final Field<String> GROUP_ID = Field.string("GroupId");
            /** The topics to describe offsets for, or null for all topic-partitions. */
            public static final Field<List<Struct>> TOPICS = Field.array("Topics", DescribeShareGroupOffsetsRequestTopic.SCHEMA).nullable().withDefault(List.of());
            public static final Schema SCHEMA = Schema.of(GROUP_ID, TOPICS);
        }

        /** The groups to describe offsets for. */
        public static final Field<List<Struct>> GROUPS = Field.array("Groups", DescribeShareGroupOffsetsRequestGroup.SCHEMA);
        public static final Schema SCHEMA = Schema.of(GROUPS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code DescribeShareGroupOffsetsResponseGroup}. */
        public static final class DescribeShareGroupOffsetsResponseGroup {
            private DescribeShareGroupOffsetsResponseGroup() {
            }

            /** An element of {@code DescribeShareGroupOffsetsResponseTopic}. */
            public static final class DescribeShareGroupOffsetsResponseTopic {
                private DescribeShareGroupOffsetsResponseTopic() {
                }

                /** An element of {@code DescribeShareGroupOffsetsResponsePartition}. */
                public static final class DescribeShareGroupOffsetsResponsePartition {
                    private DescribeShareGroupOffsetsResponsePartition() {
                    }

                    /** The partition index. */
                    public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                    /** The share-partition start offset. */
                    public static final Field<Long> START_OFFSET = Field.int64("StartOffset");
                    /** The leader epoch of the partition. */
                    public static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch");
                    /** The share-partition lag. */
                    public static final Field<Long> LAG = Field.int64("Lag").versions(1).withDefault(-1L);
                    /** The partition-level error code, or 0 if there was no error. */
                    public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                    /** The partition-level error message, or null if there was no error. */
                    public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
                    public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, START_OFFSET, LEADER_EPOCH, LAG, ERROR_CODE, ERROR_MESSAGE);
                }

                /** The topic name. */
                public static final Field<String> TOPIC_NAME = Field.string("TopicName");
                /** The unique topic ID. */
                public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
                /**  */
                public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", DescribeShareGroupOffsetsResponsePartition.SCHEMA);
                public static final Schema SCHEMA = Schema.of(TOPIC_NAME, TOPIC_ID, PARTITIONS);
            }

            /** The group identifier. */
            public static final Field<String> GROUP_ID = Field.string("GroupId");
            /** The results for each topic. */
            public static final Field<List<Struct>> TOPICS = Field.array("Topics", DescribeShareGroupOffsetsResponseTopic.SCHEMA);
            /** The group-level error code, or 0 if there was no error. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The group-level error message, or null if there was no error. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
            public static final Schema SCHEMA = Schema.of(GROUP_ID, TOPICS, ERROR_CODE, ERROR_MESSAGE);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The results for each group. */
        public static final Field<List<Struct>> GROUPS = Field.array("Groups", DescribeShareGroupOffsetsResponseGroup.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, GROUPS);
    }
}
