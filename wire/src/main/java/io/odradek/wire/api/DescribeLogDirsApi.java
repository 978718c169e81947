package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * DescribeLogDirs (key 35): versions 0-5, flexible from v2. Fields and version ranges as in Kafka 4.4's message
 * schemas; v0, which Kafka 4.0 dropped (KIP-896), as in Kafka 3.9.1's.
 */
public final class DescribeLogDirsApi {
    public static final ApiSpec SPEC = new ApiSpec(35, "DescribeLogDirs", 0, 5, 2,
            Request.SCHEMA, Response.SCHEMA);

    private DescribeLogDirsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class DescribableLogDirTopic {
            private DescribableLogDirTopic() {
            }

            /** The topic name. */
            public static final Field<String> TOPIC = Field.string("Topic");
            /** The partition indexes. */
            public static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
            public static final Schema SCHEMA = Schema.of(TOPIC, PARTITIONS);
        }

        /** Each topic that we want to describe log directories for, or null for all topics. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", DescribableLogDirTopic.SCHEMA).nullable().withDefault(List.of());
        public static final Schema SCHEMA = Schema.of(TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Results}. */
        public static final class DescribeLogDirsResult {
            private DescribeLogDirsResult() {
            }

            /** An element of {@code Topics}. */
            public static final class DescribeLogDirsTopic {
                private DescribeLogDirsTopic() {
                }

                /** An element of {@code Partitions}. */
                public static final class DescribeLogDirsPartition {
                    private DescribeLogDirsPartition() {
                    }

                    /** The partition index. */
                    public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                    /** The size of the log segments in this partition in bytes. */
                    public static final Field<Long> PARTITION_SIZE = Field.int64("PartitionSize");
                    /** The lag of the log's LEO w.r.t. partition's HW (if it is the current log for the partition) or current replica's LEO (if it is the future log for the partition). */
                    public static final Field<Long> OFFSET_LAG = Field.int64("OffsetLag");
                    /** True if this log is created by AlterReplicaLogDirsRequest and will replace the current log of the replica in the future. */
                    public static final Field<Boolean> IS_FUTURE_KEY = Field.bool("IsFutureKey");
                    public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, PARTITION_SIZE, OFFSET_LAG, IS_FUTURE_KEY);
                }

                /** The topic name. */
                public static final Field<String> NAME = Field.string("Name");
                /** The partitions. */
                public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", DescribeLogDirsPartition.SCHEMA);
                public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
            }

            /** The error code, or 0 if there was no error. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The absolute log directory path. */
            public static final Field<String> LOG_DIR = Field.string("LogDir");
            /** The topics. */
            public static final Field<List<Struct>> TOPICS = Field.array("Topics", DescribeLogDirsTopic.SCHEMA);
            /** The total size in bytes of the volume the log directory is in. This value does not include the size of data stored in remote storage. */
            public static final Field<Long> TOTAL_BYTES = Field.int64("TotalBytes").versions(4).withDefault(-1L);
            /** The usable size in bytes of the volume the log directory is in. This value does not include the size of data stored in remote storage. */
            public static final Field<Long> USABLE_BYTES = Field.int64("UsableBytes").versions(4).withDefault(-1L);
            /** True if this log directory is cordoned. */
            public static final Field<Boolean> IS_CORDONED = Field.bool("IsCordoned").versions(5);
            public static final Schema SCHEMA = Schema.of(ERROR_CODE, LOG_DIR, TOPICS, TOTAL_BYTES, USABLE_BYTES, IS_CORDONED);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode").versions(3);
        /** The log directories. */
        public static final Field<List<Struct>> RESULTS = Field.array("Results", DescribeLogDirsResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, RESULTS);
    }
}
