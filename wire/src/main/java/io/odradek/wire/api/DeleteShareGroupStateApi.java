package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.UUID;

/**
 * DeleteShareGroupState (key 86): version 0, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class DeleteShareGroupStateApi {
    public static final ApiSpec SPEC = new ApiSpec(86, "DeleteShareGroupState", 0, 0, 0,
            Request.SCHEMA, Response.SCHEMA);

    private DeleteShareGroupStateApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code DeleteStateData}. */
        public static final class DeleteStateData {
            private DeleteStateData() {
            }

            /** An element of {@code PartitionData}. */
            public static final class PartitionData {
                private PartitionData() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION = Field.int32("Partition");
                public static final Schema SCHEMA = Schema.of(PARTITION);
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
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", DeleteStateData.SCHEMA);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code DeleteStateResult}. */
        public static final class DeleteStateResult {
            private DeleteStateResult() {
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

        /** The delete results. */
        public static final Field<List<Struct>> RESULTS = Field.array("Results", DeleteStateResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(RESULTS);
    }
}
