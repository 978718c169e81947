package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * ListOffsets (key 2): versions 0-11, flexible from v6. Fields and version ranges as in Kafka 4.4's message
 * schemas; v0, which Kafka 4.0 dropped (KIP-896), as in Kafka 3.9.1's.
 */
public final class ListOffsetsApi {
    public static final ApiSpec SPEC = new ApiSpec(2, "ListOffsets", 0, 11, 6,
            Request.SCHEMA, Response.SCHEMA);

    private ListOffsetsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class ListOffsetsTopic {
            private ListOffsetsTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class ListOffsetsPartition {
                private ListOffsetsPartition() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The current leader epoch. */
                public static final Field<Integer> CURRENT_LEADER_EPOCH = Field.int32("CurrentLeaderEpoch").versions(4).withDefault(-1);
                /** The current timestamp. */
                public static final Field<Long> TIMESTAMP = Field.int64("Timestamp");
                /** The maximum number of offsets to report. */
                public static final Field<Integer> MAX_NUM_OFFSETS = Field.int32("MaxNumOffsets").versions(0, 0).withDefault(1);
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, CURRENT_LEADER_EPOCH, TIMESTAMP, MAX_NUM_OFFSETS);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** Each partition in the request. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", ListOffsetsPartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
        }

        /** The broker ID of the requester, or -1 if this request is being made by a normal consumer. */
        public static final Field<Integer> REPLICA_ID = Field.int32("ReplicaId");
        /** This setting controls the visibility of transactional records. Using READ_UNCOMMITTED (isolation_level = 0) makes all records visible. With READ_COMMITTED (isolation_level = 1), non-transactional and COMMITTED transactional records are visible. To be more concrete, READ_COMMITTED returns all data from offsets smaller than the current LSO (last stable offset), and enables the inclusion of the list of aborted transactions in the result, which allows consumers to discard ABORTED transactional records. */
        public static final Field<Byte> ISOLATION_LEVEL = Field.int8("IsolationLevel").versions(2);
        /** Each topic in the request. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", ListOffsetsTopic.SCHEMA);
        /** The timeout to await a response in milliseconds for requests that require reading from remote storage for topics enabled with tiered storage. */
        public static final Field<Integer> TIMEOUT_MS = Field.int32("TimeoutMs").versions(10);
        public static final Schema SCHEMA = Schema.of(REPLICA_ID, ISOLATION_LEVEL, TOPICS, TIMEOUT_MS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Topics}. */
        public static final class ListOffsetsTopicResponse {
            private ListOffsetsTopicResponse() {
            }

            /** An element of {@code Partitions}. */
            public static final class ListOffsetsPartitionResponse {
                private ListOffsetsPartitionResponse() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The partition error code, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The result offsets. */
                public static final Field<List<Long>> OLD_STYLE_OFFSETS = Field.array("OldStyleOffsets", Types.INT64).versions(0, 0);
                /** The timestamp associated with the returned offset. */
                public static final Field<Long> TIMESTAMP = Field.int64("Timestamp").versions(1).withDefault(-1L);
                /** The returned offset. */
                public static final Field<Long> OFFSET = Field.int64("Offset").versions(1).withDefault(-1L);
                /** The leader epoch associated with the returned offset. */
                public static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch").versions(4).withDefault(-1);
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ERROR_CODE, OLD_STYLE_OFFSETS, TIMESTAMP, OFFSET, LEADER_EPOCH);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** Each partition in the response. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", ListOffsetsPartitionResponse.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(2);
        /** Each topic in the response. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", ListOffsetsTopicResponse.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, TOPICS);
    }
}
