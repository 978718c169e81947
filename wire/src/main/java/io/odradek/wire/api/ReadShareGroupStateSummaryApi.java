package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.UUID;

/**
 * ReadShareGroupStateSummary (key 87): versions 0-1, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class ReadShareGroupStateSummaryApi {
    public static final ApiSpec SPEC = new ApiSpec(87, "ReadShareGroupStateSummary", 0, 1, 0,
            Request.SCHEMA, Response.SCHEMA);

    private ReadShareGroupStateSummaryApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code ReadStateSummaryData}. */
        public static final class ReadStateSummaryData {
            private ReadStateSummaryData() {
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
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", ReadStateSummaryData.SCHEMA);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code ReadStateSummaryResult}. */
        public static final class ReadStateSummaryResult {
            private ReadStateSummaryResult() {
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
                /** The state epoch of the share-partition. */
                public static final Field<Integer> STATE_EPOCH = Field.int32("StateEpoch");
                /** The leader epoch of the share-partition. */
                public static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch");
                /** The share-partition start offset. */
                public static final Field<Long> START_OFFSET = Field.int64("StartOffset");
                /** The number of offsets greater than or equal to share-partition start offset for which delivery has been completed. */
                public static final Field<Integer> DELIVERY_COMPLETE_COUNT = Field.int32("DeliveryCompleteCount").versions(1).withDefault(-1);
                public static final Schema SCHEMA = Schema.of(PARTITION, ERROR_CODE, ERROR_MESSAGE, STATE_EPOCH, LEADER_EPOCH, START_OFFSET, DELIVERY_COMPLETE_COUNT);
            }

            /** The topic identifier. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            /** The results for the partitions. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", PartitionResult.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC_ID, PARTITIONS);
        }

        /** The read results. */
        public static final Field<List<Struct>> RESULTS = Field.array("Results", ReadStateSummaryResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(RESULTS);
    }
}
