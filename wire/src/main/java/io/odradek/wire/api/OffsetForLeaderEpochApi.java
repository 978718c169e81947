package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * OffsetForLeaderEpoch (key 23): versions 0-4, flexible from v4. Fields and version ranges as in Kafka 4.4's
 * message schemas; v0-1, which Kafka 4.0 dropped (KIP-896), as in Kafka 3.9.1's (v0 answers without the leader
 * epoch, v0-1 carry no current leader epoch and no throttle time).
 */
public final class OffsetForLeaderEpochApi {
    public static final ApiSpec SPEC = new ApiSpec(23, "OffsetForLeaderEpoch", 0, 4, 4,
            Request.SCHEMA, Response.SCHEMA);

    /** ReplicaId of a consumer. */
    public static final int CONSUMER_REPLICA_ID = -1;
    /** ReplicaId below v3 (Kafka's default): a "debug" consumer, allowed to see offsets beyond the high watermark. */
    public static final int DEBUG_REPLICA_ID = -2;

    private OffsetForLeaderEpochApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class OffsetForLeaderTopic {
            private OffsetForLeaderTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class OffsetForLeaderPartition {
                private OffsetForLeaderPartition() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION = Field.int32("Partition");
                /** An epoch used to fence consumers/replicas with old metadata (newer than ours: UNKNOWN_LEADER_EPOCH, older: FENCED_LEADER_EPOCH). */
                public static final Field<Integer> CURRENT_LEADER_EPOCH = Field.int32("CurrentLeaderEpoch").versions(2).withDefault(-1);
                /** The epoch to look up an offset for. */
                public static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch");
                public static final Schema SCHEMA = Schema.of(PARTITION, CURRENT_LEADER_EPOCH, LEADER_EPOCH);
            }

            /** The topic name. */
            public static final Field<String> TOPIC = Field.string("Topic");
            /** Each partition to get offsets for. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", OffsetForLeaderPartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC, PARTITIONS);
        }

        /** The broker ID of the follower, of -1 if this request is from a consumer. */
        public static final Field<Integer> REPLICA_ID = Field.int32("ReplicaId").versions(3).withDefault(DEBUG_REPLICA_ID);
        /** Each topic to get offsets for. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", OffsetForLeaderTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(REPLICA_ID, TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Topics}. */
        public static final class OffsetForLeaderTopicResult {
            private OffsetForLeaderTopicResult() {
            }

            /** An element of {@code Partitions}. */
            public static final class EpochEndOffset {
                private EpochEndOffset() {
                }

                /** The error code 0, or if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The partition index. */
                public static final Field<Integer> PARTITION = Field.int32("Partition");
                /** The leader epoch of the partition. */
                public static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch").versions(1).withDefault(-1);
                /** The end offset of the epoch. */
                public static final Field<Long> END_OFFSET = Field.int64("EndOffset").withDefault(-1L);
                public static final Schema SCHEMA = Schema.of(ERROR_CODE, PARTITION, LEADER_EPOCH, END_OFFSET);
            }

            /** The topic name. */
            public static final Field<String> TOPIC = Field.string("Topic");
            /** Each partition in the topic we fetched offsets for. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", EpochEndOffset.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC, PARTITIONS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(2);
        /** Each topic we fetched offsets for. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", OffsetForLeaderTopicResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, TOPICS);
    }
}
