package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;
import java.util.UUID;

/**
 * DescribeTopicPartitions (key 75): version 0, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class DescribeTopicPartitionsApi {
    public static final ApiSpec SPEC = new ApiSpec(75, "DescribeTopicPartitions", 0, 0, 0,
            Request.SCHEMA, Response.SCHEMA);

    private DescribeTopicPartitionsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class TopicRequest {
            private TopicRequest() {
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            public static final Schema SCHEMA = Schema.of(NAME);
        }

        /** The {@code Cursor} struct. */
        public static final class Cursor {
            private Cursor() {
            }

            /** The name for the first topic to process. */
            public static final Field<String> TOPIC_NAME = Field.string("TopicName");
            /** The partition index to start with. */
            public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
            public static final Schema SCHEMA = Schema.of(TOPIC_NAME, PARTITION_INDEX);
        }

        /** The topics to fetch details for. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", TopicRequest.SCHEMA);
        /** The maximum number of partitions included in the response. */
        public static final Field<Integer> RESPONSE_PARTITION_LIMIT = Field.int32("ResponsePartitionLimit").withDefault(2000);
        /** The first topic and partition index to fetch details for. */
        public static final Field<Struct> CURSOR = Field.struct("Cursor", Cursor.SCHEMA).nullable();
        public static final Schema SCHEMA = Schema.of(TOPICS, RESPONSE_PARTITION_LIMIT, CURSOR);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Topics}. */
        public static final class DescribeTopicPartitionsResponseTopic {
            private DescribeTopicPartitionsResponseTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class DescribeTopicPartitionsResponsePartition {
                private DescribeTopicPartitionsResponsePartition() {
                }

                /** The partition error, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The ID of the leader broker. */
                public static final Field<Integer> LEADER_ID = Field.int32("LeaderId");
                /** The leader epoch of this partition. */
                public static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch").withDefault(-1);
                /** The set of all nodes that host this partition. */
                public static final Field<List<Integer>> REPLICA_NODES = Field.array("ReplicaNodes", Types.INT32);
                /** The set of nodes that are in sync with the leader for this partition. */
                public static final Field<List<Integer>> ISR_NODES = Field.array("IsrNodes", Types.INT32);
                /** The new eligible leader replicas otherwise. */
                public static final Field<List<Integer>> ELIGIBLE_LEADER_REPLICAS = Field.array("EligibleLeaderReplicas", Types.INT32).nullable();
                /** The last known ELR. */
                public static final Field<List<Integer>> LAST_KNOWN_ELR = Field.array("LastKnownElr", Types.INT32).nullable();
                /** The set of offline replicas of this partition. */
                public static final Field<List<Integer>> OFFLINE_REPLICAS = Field.array("OfflineReplicas", Types.INT32);
                public static final Schema SCHEMA = Schema.of(ERROR_CODE, PARTITION_INDEX, LEADER_ID, LEADER_EPOCH, REPLICA_NODES, ISR_NODES, ELIGIBLE_LEADER_REPLICAS, LAST_KNOWN_ELR, OFFLINE_REPLICAS);
            }

            /** The topic error, or 0 if there was no error. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name").nullable().withDefault("");
            /** The topic id. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            /** True if the topic is internal. */
            public static final Field<Boolean> IS_INTERNAL = Field.bool("IsInternal");
            /** Each partition in the topic. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", DescribeTopicPartitionsResponsePartition.SCHEMA);
            /** 32-bit bitfield to represent authorized operations for this topic. */
            public static final Field<Integer> TOPIC_AUTHORIZED_OPERATIONS = Field.int32("TopicAuthorizedOperations").withDefault(-2147483648);
            public static final Schema SCHEMA = Schema.of(ERROR_CODE, NAME, TOPIC_ID, IS_INTERNAL, PARTITIONS, TOPIC_AUTHORIZED_OPERATIONS);
        }

        /** The {@code NextCursor} struct. */
        public static final class Cursor {
            private Cursor() {
            }

            /** The name for the first topic to process. */
            public static final Field<String> TOPIC_NAME = Field.string("TopicName");
            /** The partition index to start with. */
            public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
            public static final Schema SCHEMA = Schema.of(TOPIC_NAME, PARTITION_INDEX);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** Each topic in the response. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", DescribeTopicPartitionsResponseTopic.SCHEMA);
        /** The next topic and partition index to fetch details for. */
        public static final Field<Struct> NEXT_CURSOR = Field.struct("NextCursor", Cursor.SCHEMA).nullable();
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, TOPICS, NEXT_CURSOR);
    }
}
