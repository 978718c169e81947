package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * CreatePartitions (key 37): versions 0-3, flexible from v2. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class CreatePartitionsApi {
    public static final ApiSpec SPEC = new ApiSpec(37, "CreatePartitions", 0, 3, 2,
            Request.SCHEMA, Response.SCHEMA);

    private CreatePartitionsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class CreatePartitionsTopic {
            private CreatePartitionsTopic() {
            }

            /** An element of {@code Assignments}. */
            public static final class CreatePartitionsAssignment {
                private CreatePartitionsAssignment() {
                }

                /** The assigned broker IDs. */
                public static final Field<List<Integer>> BROKER_IDS = Field.array("BrokerIds", Types.INT32);
                public static final Schema SCHEMA = Schema.of(BROKER_IDS);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** The new partition count. */
            public static final Field<Integer> COUNT = Field.int32("Count");
            /** The new partition assignments. */
            public static final Field<List<Struct>> ASSIGNMENTS = Field.array("Assignments", CreatePartitionsAssignment.SCHEMA).nullable().withDefault(List.of());
            public static final Schema SCHEMA = Schema.of(NAME, COUNT, ASSIGNMENTS);
        }

        /** Each topic that we want to create new partitions inside. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", CreatePartitionsTopic.SCHEMA);
        /** The time in ms to wait for the partitions to be created. */
        public static final Field<Integer> TIMEOUT_MS = Field.int32("TimeoutMs");
        /** If true, then validate the request, but don't actually increase the number of partitions. */
        public static final Field<Boolean> VALIDATE_ONLY = Field.bool("ValidateOnly");
        public static final Schema SCHEMA = Schema.of(TOPICS, TIMEOUT_MS, VALIDATE_ONLY);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Results}. */
        public static final class CreatePartitionsTopicResult {
            private CreatePartitionsTopicResult() {
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** The result error, or zero if there was no error. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The result message, or null if there was no error. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
            public static final Schema SCHEMA = Schema.of(NAME, ERROR_CODE, ERROR_MESSAGE);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The partition creation results for each topic. */
        public static final Field<List<Struct>> RESULTS = Field.array("Results", CreatePartitionsTopicResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, RESULTS);
    }
}
