package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.UUID;

/**
 * DescribeQuorum (key 55): versions 0-2, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class DescribeQuorumApi {
    public static final ApiSpec SPEC = new ApiSpec(55, "DescribeQuorum", 0, 2, 0,
            Request.SCHEMA, Response.SCHEMA);

    private DescribeQuorumApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class TopicData {
            private TopicData() {
            }

            /** An element of {@code Partitions}. */
            public static final class PartitionData {
                private PartitionData() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX);
            }

            /** The topic name. */
            public static final Field<String> TOPIC_NAME = Field.string("TopicName");
            /** The partitions to describe. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", PartitionData.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC_NAME, PARTITIONS);
        }

        /** The topics to describe. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", TopicData.SCHEMA);
        public static final Schema SCHEMA = Schema.of(TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** Kafka's common struct {@code ReplicaState}. */
        public static final class ReplicaState {
            private ReplicaState() {
            }

            /** The ID of the replica. */
            public static final Field<Integer> REPLICA_ID = Field.int32("ReplicaId");
            /** The replica directory ID of the replica. */
            public static final Field<UUID> REPLICA_DIRECTORY_ID = Field.uuid("ReplicaDirectoryId").versions(2);
            /** The last known log end offset of the follower or -1 if it is unknown. */
            public static final Field<Long> LOG_END_OFFSET = Field.int64("LogEndOffset");
            /** The last known leader wall clock time time when a follower fetched from the leader. This is reported as -1 both for the current leader or if it is unknown for a voter. */
            public static final Field<Long> LAST_FETCH_TIMESTAMP = Field.int64("LastFetchTimestamp").versions(1).withDefault(-1L);
            /** The leader wall clock append time of the offset for which the follower made the most recent fetch request. This is reported as the current time for the leader and -1 if unknown for a voter. */
            public static final Field<Long> LAST_CAUGHT_UP_TIMESTAMP = Field.int64("LastCaughtUpTimestamp").versions(1).withDefault(-1L);
            public static final Schema SCHEMA = Schema.of(REPLICA_ID, REPLICA_DIRECTORY_ID, LOG_END_OFFSET, LAST_FETCH_TIMESTAMP, LAST_CAUGHT_UP_TIMESTAMP);
        }

        /** An element of {@code Topics}. */
        public static final class TopicData {
            private TopicData() {
            }

            /** An element of {@code Partitions}. */
            public static final class PartitionData {
                private PartitionData() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The partition error code. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The error message, or null if there was no error. */
                public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").versions(2).nullable().withDefault("");
                /** The ID of the current leader or -1 if the leader is unknown. */
                public static final Field<Integer> LEADER_ID = Field.int32("LeaderId");
                /** The latest known leader epoch. */
                public static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch");
                /** The high water mark. */
                public static final Field<Long> HIGH_WATERMARK = Field.int64("HighWatermark");
                /** The current voters of the partition. */
                public static final Field<List<Struct>> CURRENT_VOTERS = Field.array("CurrentVoters", ReplicaState.SCHEMA);
                /** The observers of the partition. */
                public static final Field<List<Struct>> OBSERVERS = Field.array("Observers", ReplicaState.SCHEMA);
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ERROR_CODE, ERROR_MESSAGE, LEADER_ID, LEADER_EPOCH, HIGH_WATERMARK, CURRENT_VOTERS, OBSERVERS);
            }

            /** The topic name. */
            public static final Field<String> TOPIC_NAME = Field.string("TopicName");
            /** The partition data. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", PartitionData.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC_NAME, PARTITIONS);
        }

        /** An element of {@code Nodes}. */
        public static final class Node {
            private Node() {
            }

            /** An element of {@code Listeners}. */
            public static final class Listener {
                private Listener() {
                }

                /** The name of the endpoint. */
                public static final Field<String> NAME = Field.string("Name").versions(2);
                /** The hostname. */
                public static final Field<String> HOST = Field.string("Host").versions(2);
                /** The port. */
                public static final Field<Integer> PORT = Field.uint16("Port").versions(2);
                public static final Schema SCHEMA = Schema.of(NAME, HOST, PORT);
            }

            /** The ID of the associated node. */
            public static final Field<Integer> NODE_ID = Field.int32("NodeId").versions(2);
            /** The listeners of this controller. */
            public static final Field<List<Struct>> LISTENERS = Field.array("Listeners", Listener.SCHEMA).versions(2);
            public static final Schema SCHEMA = Schema.of(NODE_ID, LISTENERS);
        }

        /** The top level error code. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The error message, or null if there was no error. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").versions(2).nullable().withDefault("");
        /** The response from the describe quorum API. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", TopicData.SCHEMA);
        /** The nodes in the quorum. */
        public static final Field<List<Struct>> NODES = Field.array("Nodes", Node.SCHEMA).versions(2);
        public static final Schema SCHEMA = Schema.of(ERROR_CODE, ERROR_MESSAGE, TOPICS, NODES);
    }
}
