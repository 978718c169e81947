package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;
import java.util.UUID;

/**
 * OffsetFetch (key 9): versions 0-10, flexible from v6. Fields and version ranges as in Kafka 4.4's message
 * schemas; v0, which Kafka 4.0 dropped (KIP-896), as in Kafka 3.9.1's.
 */
public final class OffsetFetchApi {
    public static final ApiSpec SPEC = new ApiSpec(9, "OffsetFetch", 0, 10, 6,
            Request.SCHEMA, Response.SCHEMA);

    private OffsetFetchApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class OffsetFetchRequestTopic {
            private OffsetFetchRequestTopic() {
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name").versions(0, 7);
            /** The partition indexes we would like to fetch offsets for. */
            public static final Field<List<Integer>> PARTITION_INDEXES = Field.array("PartitionIndexes", Types.INT32).versions(0, 7);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITION_INDEXES);
        }

        /** An element of {@code Groups}. */
        public static final class OffsetFetchRequestGroup {
            private OffsetFetchRequestGroup() {
            }

            /** An element of {@code Topics}. */
            public static final class OffsetFetchRequestTopics {
                private OffsetFetchRequestTopics() {
                }

                /** The topic name. */
                public static final Field<String> NAME = Field.string("Name").versions(8, 9);
                /** The topic ID. */
                public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(10);
                /** The partition indexes we would like to fetch offsets for. */
                public static final Field<List<Integer>> PARTITION_INDEXES = Field.array("PartitionIndexes", Types.INT32).versions(8);
                public static final Schema SCHEMA = Schema.of(NAME, TOPIC_ID, PARTITION_INDEXES);
            }

            /** The group ID. */
            public static final Field<String> GROUP_ID = Field.string("GroupId").versions(8);
            /** The member id. */
            public static final Field<String> MEMBER_ID = Field.string("MemberId").versions(9).nullable();
            /** The member epoch if using the new consumer protocol (KIP-848). */
            public static final Field<Integer> MEMBER_EPOCH = Field.int32("MemberEpoch").versions(9).withDefault(-1);
            /** Each topic we would like to fetch offsets for, or null to fetch offsets for all topics. */
            public static final Field<List<Struct>> TOPICS = Field.array("Topics", OffsetFetchRequestTopics.SCHEMA).versions(8).nullable().withDefault(List.of());
            public static final Schema SCHEMA = Schema.of(GROUP_ID, MEMBER_ID, MEMBER_EPOCH, TOPICS);
        }

        /** The group to fetch offsets for. */
        public static final Field<String> GROUP_ID = Field.string("GroupId").versions(0, 7);
        /** Each topic we would like to fetch offsets for, or null to fetch offsets for all topics. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", OffsetFetchRequestTopic.SCHEMA).versions(0, 7).nullableFrom(2).withDefault(List.of());
        /** Each group we would like to fetch offsets for. */
        public static final Field<List<Struct>> GROUPS = Field.array("Groups", OffsetFetchRequestGroup.SCHEMA).versions(8);
        /** Whether broker should hold on returning unstable offsets but set a retriable error code for the partitions. */
        public static final Field<Boolean> REQUIRE_STABLE = Field.bool("RequireStable").versions(7);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, TOPICS, GROUPS, REQUIRE_STABLE);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Topics}. */
        public static final class OffsetFetchResponseTopic {
            private OffsetFetchResponseTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class OffsetFetchResponsePartition {
                private OffsetFetchResponsePartition() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex").versions(0, 7);
                /** The committed message offset. */
                public static final Field<Long> COMMITTED_OFFSET = Field.int64("CommittedOffset").versions(0, 7);
                /** The leader epoch. */
                public static final Field<Integer> COMMITTED_LEADER_EPOCH = Field.int32("CommittedLeaderEpoch").versions(5, 7).withDefault(-1);
                /** The partition metadata. */
                public static final Field<String> METADATA = Field.string("Metadata").versions(0, 7).nullable().withDefault("");
                /** The error code, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode").versions(0, 7);
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, COMMITTED_OFFSET, COMMITTED_LEADER_EPOCH, METADATA, ERROR_CODE);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name").versions(0, 7);
            /** The responses per partition. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", OffsetFetchResponsePartition.SCHEMA).versions(0, 7);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
        }

        /** An element of {@code Groups}. */
        public static final class OffsetFetchResponseGroup {
            private OffsetFetchResponseGroup() {
            }

            /** An element of {@code Topics}. */
            public static final class OffsetFetchResponseTopics {
                private OffsetFetchResponseTopics() {
                }

                /** An element of {@code Partitions}. */
                public static final class OffsetFetchResponsePartitions {
                    private OffsetFetchResponsePartitions() {
                    }

                    /** The partition index. */
                    public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex").versions(8);
                    /** The committed message offset. */
                    public static final Field<Long> COMMITTED_OFFSET = Field.int64("CommittedOffset").versions(8);
                    /** The leader epoch. */
                    public static final Field<Integer> COMMITTED_LEADER_EPOCH = Field.int32("CommittedLeaderEpoch").versions(8).withDefault(-1);
                    /** The partition metadata. */
                    public static final Field<String> METADATA = Field.string("Metadata").versions(8).nullable().withDefault("");
                    /** The partition-level error code, or 0 if there was no error. */
                    public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode").versions(8);
                    public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, COMMITTED_OFFSET, COMMITTED_LEADER_EPOCH, METADATA, ERROR_CODE);
                }

                /** The topic name. */
                public static final Field<String> NAME = Field.string("Name").versions(8, 9);
                /** The topic ID. */
                public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(10);
                /** The responses per partition. */
                public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", OffsetFetchResponsePartitions.SCHEMA).versions(8);
                public static final Schema SCHEMA = Schema.of(NAME, TOPIC_ID, PARTITIONS);
            }

            /** The group ID. */
            public static final Field<String> GROUP_ID = Field.string("GroupId").versions(8);
            /** The responses per topic. */
            public static final Field<List<Struct>> TOPICS = Field.array("Topics", OffsetFetchResponseTopics.SCHEMA).versions(8);
            /** The group-level error code, or 0 if there was no error. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode").versions(8);
            public static final Schema SCHEMA = Schema.of(GROUP_ID, TOPICS, ERROR_CODE);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(3);
        /** The responses per topic. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", OffsetFetchResponseTopic.SCHEMA).versions(0, 7);
        /** The top-level error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode").versions(2, 7);
        /** The responses per group id. */
        public static final Field<List<Struct>> GROUPS = Field.array("Groups", OffsetFetchResponseGroup.SCHEMA).versions(8);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, TOPICS, ERROR_CODE, GROUPS);
    }
}
