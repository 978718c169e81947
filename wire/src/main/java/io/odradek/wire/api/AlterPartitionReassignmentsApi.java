package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * AlterPartitionReassignments (key 45): versions 0-1, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class AlterPartitionReassignmentsApi {
    public static final ApiSpec SPEC = new ApiSpec(45, "AlterPartitionReassignments", 0, 1, 0,
            Request.SCHEMA, Response.SCHEMA);

    private AlterPartitionReassignmentsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class ReassignableTopic {
            private ReassignableTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class ReassignablePartition {
                private ReassignablePartition() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The replicas to place the partitions on, or null to cancel a pending reassignment for this partition. */
                public static final Field<List<Integer>> REPLICAS = Field.array("Replicas", Types.INT32).nullable();
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, REPLICAS);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** The partitions to reassign. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", ReassignablePartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
        }

        /** The time in ms to wait for the request to complete. */
        public static final Field<Integer> TIMEOUT_MS = Field.int32("TimeoutMs").withDefault(60000);
        /** The option indicating whether changing the replication factor of any given partition as part of this request is a valid move. */
        public static final Field<Boolean> ALLOW_REPLICATION_FACTOR_CHANGE = Field.bool("AllowReplicationFactorChange").versions(1).withDefault(true);
        /** The topics to reassign. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", ReassignableTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(TIMEOUT_MS, ALLOW_REPLICATION_FACTOR_CHANGE, TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Responses}. */
        public static final class ReassignableTopicResponse {
            private ReassignableTopicResponse() {
            }

            /** An element of {@code Partitions}. */
            public static final class ReassignablePartitionResponse {
                private ReassignablePartitionResponse() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The error code for this partition, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The error message for this partition, or null if there was no error. */
                public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ERROR_CODE, ERROR_MESSAGE);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** The responses to partitions to reassign. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", ReassignablePartitionResponse.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The option indicating whether changing the replication factor of any given partition as part of the request was allowed. */
        public static final Field<Boolean> ALLOW_REPLICATION_FACTOR_CHANGE = Field.bool("AllowReplicationFactorChange").versions(1).withDefault(true);
        /** The top-level error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The top-level error message, or null if there was no error. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
        /** The responses to topics to reassign. */
        public static final Field<List<Struct>> RESPONSES = Field.array("Responses", ReassignableTopicResponse.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ALLOW_REPLICATION_FACTOR_CHANGE, ERROR_CODE, ERROR_MESSAGE, RESPONSES);
    }
}
