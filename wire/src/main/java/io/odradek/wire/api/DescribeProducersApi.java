package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * DescribeProducers (key 61): version 0, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class DescribeProducersApi {
    public static final ApiSpec SPEC = new ApiSpec(61, "DescribeProducers", 0, 0, 0,
            Request.SCHEMA, Response.SCHEMA);

    private DescribeProducersApi() {
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
            /** The indexes of the partitions to list producers for. */
            public static final Field<List<Integer>> PARTITION_INDEXES = Field.array("PartitionIndexes", Types.INT32);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITION_INDEXES);
        }

        /** The topics to list producers for. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", TopicRequest.SCHEMA);
        public static final Schema SCHEMA = Schema.of(TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Topics}. */
        public static final class TopicResponse {
            private TopicResponse() {
            }

            /** An element of {@code Partitions}. */
            public static final class PartitionResponse {
                private PartitionResponse() {
                }

                /** An element of {@code ActiveProducers}. */
                public static final class ProducerState {
                    private ProducerState() {
                    }

                    /** The producer id. */
                    public static final Field<Long> PRODUCER_ID = Field.int64("ProducerId");
                    /** The producer epoch. */
                    public static final Field<Integer> PRODUCER_EPOCH = Field.int32("ProducerEpoch");
                    /** The last sequence number sent by the producer. */
                    public static final Field<Integer> LAST_SEQUENCE = Field.int32("LastSequence").withDefault(-1);
                    /** The last timestamp sent by the producer. */
                    public static final Field<Long> LAST_TIMESTAMP = Field.int64("LastTimestamp").withDefault(-1L);
                    /** The current epoch of the producer group. */
                    public static final Field<Integer> COORDINATOR_EPOCH = Field.int32("CoordinatorEpoch");
                    /** The current transaction start offset of the producer. */
                    public static final Field<Long> CURRENT_TXN_START_OFFSET = Field.int64("CurrentTxnStartOffset").withDefault(-1L);
                    public static final Schema SCHEMA = Schema.of(PRODUCER_ID, PRODUCER_EPOCH, LAST_SEQUENCE, LAST_TIMESTAMP, COORDINATOR_EPOCH, CURRENT_TXN_START_OFFSET);
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The partition error code, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The partition error message, which may be null if no additional details are available. */
                public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
                /** The active producers for the partition. */
                public static final Field<List<Struct>> ACTIVE_PRODUCERS = Field.array("ActiveProducers", ProducerState.SCHEMA);
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ERROR_CODE, ERROR_MESSAGE, ACTIVE_PRODUCERS);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** Each partition in the response. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", PartitionResponse.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** Each topic in the response. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", TopicResponse.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, TOPICS);
    }
}
