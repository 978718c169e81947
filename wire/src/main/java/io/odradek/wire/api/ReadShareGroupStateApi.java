package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.UUID;

/**
 * ReadShareGroupState (key 84): version 0, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class ReadShareGroupStateApi {
    public static final ApiSpec SPEC = new ApiSpec(84, "ReadShareGroupState", 0, 0, 0,
            Request.SCHEMA, Response.SCHEMA);

    private ReadShareGroupStateApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code ReadStateData}. */
        public static final class ReadStateData {
            private ReadStateData() {
            }

            /** An element of {@code PartitionData}. */
            public static final class PartitionData {
                private PartitionData() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION = Field.int32("Partition");
                /** The leader epoch of the share-partition. */
                public static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch");
                public static final Schema SCHEMA = Schema.of(PARTITION, LEADER_EPOCH);
            }

            /** The topic identifier. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            /** The data for the partitions. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", PartitionData.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC_ID, PARTITIONS);
        }

        /** The group identifier. */
        public static final Field<String> GROUP_ID = Field.string("GroupId");
        /** The data for the topics. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", ReadStateData.SCHEMA);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code ReadStateResult}. */
        public static final class ReadStateResult {
            private ReadStateResult() {
            }

            /** An element of {@code PartitionResult}. */
            public static final class PartitionResult {
                private PartitionResult() {
                }

                /** An element of {@code StateBatch}. */
                public static final class StateBatch {
                    private StateBatch() {
                    }

                    /** The first offset of this state batch. */
                    public static final Field<Long> FIRST_OFFSET = Field.int64("FirstOffset");
                    /** The last offset of this state batch. */
                    public static final Field<Long> LAST_OFFSET = Field.int64("LastOffset");
                    /** The delivery state - 0:Available,2:Acked,4:Archived. */
                    public static final Field<Byte> DELIVERY_STATE = Field.int8("DeliveryState");
                    /** The delivery count. */
                    public static final Field<Short> DELIVERY_COUNT = Field.int16("DeliveryCount");
                    public static final Schema SCHEMA = Schema.of(FIRST_OFFSET, LAST_OFFSET, DELIVERY_STATE, DELIVERY_COUNT);
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION = Field.int32("Partition");
                /** The error code, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The error message, or null if there was no error. */
                public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
                /** The state epoch of the share-partition. */
                public static final Field<Integer> STATE_EPOCH = Field.int32("StateEpoch");
                /** The share-partition start offset, which can be -1 if it is not yet initialized. */
                public static final Field<Long> START_OFFSET = Field.int64("StartOffset");
                /** The state batches for this share-partition. */
                public static final Field<List<Struct>> STATE_BATCHES = Field.array("StateBatches", StateBatch.SCHEMA);
                public static final Schema SCHEMA = Schema.of(PARTITION, ERROR_CODE, ERROR_MESSAGE, STATE_EPOCH, START_OFFSET, STATE_BATCHES);
            }

            /** The topic identifier. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            /** The results for the partitions. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", PartitionResult.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC_ID, PARTITIONS);
        }

        /** The read results. */
        public static final Field<List<Struct>> RESULTS = Field.array("Results", ReadStateResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(RESULTS);
    }
}
