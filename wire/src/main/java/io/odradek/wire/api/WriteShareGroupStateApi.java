package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.UUID;

/**
 * WriteShareGroupState (key 85): versions 0-1, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class WriteShareGroupStateApi {
    public static final ApiSpec SPEC = new ApiSpec(85, "WriteShareGroupState", 0, 1, 0,
            Request.SCHEMA, Response.SCHEMA);

    private WriteShareGroupStateApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code WriteStateData}. */
        public static final class WriteStateData {
            private WriteStateData() {
            }

            /** An element of {@code PartitionData}. */
            public static final class PartitionData {
                private PartitionData() {
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
                /** The state epoch of the share-partition. */
                public static final Field<Integer> STATE_EPOCH = Field.int32("StateEpoch");
                /** The leader epoch of the share-partition. */
                public static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch");
                /** The share-partition start offset, or -1 if the start offset is not being written. */
                public static final Field<Long> START_OFFSET = Field.int64("StartOffset");
                /** The number of offsets greater than or equal to share-partition start offset for which delivery has been completed. */
                public static final Field<Integer> DELIVERY_COMPLETE_COUNT = Field.int32("DeliveryCompleteCount").versions(1).withDefault(-1);
                /** The state batches for the share-partition. */
                public static final Field<List<Struct>> STATE_BATCHES = Field.array("StateBatches", StateBatch.SCHEMA);
                public static final Schema SCHEMA = Schema.of(PARTITION, STATE_EPOCH, LEADER_EPOCH, START_OFFSET, DELIVERY_COMPLETE_COUNT, STATE_BATCHES);
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
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", WriteStateData.SCHEMA);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code WriteStateResult}. */
        public static final class WriteStateResult {
            private WriteStateResult() {
            }

            /** An element of {@code PartitionResult}. */
            public static final class PartitionResult {
                private PartitionResult() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION = Field.int32("Partition");
                /** The error code, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The error message, or null if there was no error. */
                public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
                public static final Schema SCHEMA = Schema.of(PARTITION, ERROR_CODE, ERROR_MESSAGE);
            }

            /** The topic identifier. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            /** The results for the partitions. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", PartitionResult.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC_ID, PARTITIONS);
        }

        /** The write results. */
        public static final Field<List<Struct>> RESULTS = Field.array("Results", WriteStateResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(RESULTS);
    }
}
