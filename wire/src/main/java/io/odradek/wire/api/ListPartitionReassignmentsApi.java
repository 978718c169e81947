package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * ListPartitionReassignments (key 46): version 0, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class ListPartitionReassignmentsApi {
    public static final ApiSpec SPEC = new ApiSpec(46, "ListPartitionReassignments", 0, 0, 0,
            Request.SCHEMA, Response.SCHEMA);

    private ListPartitionReassignmentsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class ListPartitionReassignmentsTopics {
            private ListPartitionReassignmentsTopics() {
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** The partitions to list partition reassignments for. */
            public static final Field<List<Integer>> PARTITION_INDEXES = Field.array("PartitionIndexes", Types.INT32);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITION_INDEXES);
        }

        /** The time in ms to wait for the request to complete. */
        public static final Field<Integer> TIMEOUT_MS = Field.int32("TimeoutMs").withDefault(60000);
        /** The topics to list partition reassignments for, or null to list everything. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", ListPartitionReassignmentsTopics.SCHEMA).nullable();
        public static final Schema SCHEMA = Schema.of(TIMEOUT_MS, TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Topics}. */
        public static final class OngoingTopicReassignment {
            private OngoingTopicReassignment() {
            }

            /** An element of {@code Partitions}. */
            public static final class OngoingPartitionReassignment {
                private OngoingPartitionReassignment() {
                }

                /** The index of the partition. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The current replica set. */
                public static final Field<List<Integer>> REPLICAS = Field.array("Replicas", Types.INT32);
                /** The set of replicas we are currently adding. */
                public static final Field<List<Integer>> ADDING_REPLICAS = Field.array("AddingReplicas", Types.INT32);
                /** The set of replicas we are currently removing. */
                public static final Field<List<Integer>> REMOVING_REPLICAS = Field.array("RemovingReplicas", Types.INT32);
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, REPLICAS, ADDING_REPLICAS, REMOVING_REPLICAS);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** The ongoing reassignments for each partition. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", OngoingPartitionReassignment.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The top-level error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The top-level error message, or null if there was no error. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
        /** The ongoing reassignments for each topic. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", OngoingTopicReassignment.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, ERROR_MESSAGE, TOPICS);
    }
}
