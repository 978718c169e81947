package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * AlterReplicaLogDirs (key 34): versions 0-2, flexible from v2. Fields and version ranges as in Kafka 4.4's message
 * schemas, plus v0 (same fields as v1), which Kafka 4.0 dropped (KIP-896) and Kafka 3.9.1's schema lists.
 */
public final class AlterReplicaLogDirsApi {
    public static final ApiSpec SPEC = new ApiSpec(34, "AlterReplicaLogDirs", 0, 2, 2,
            Request.SCHEMA, Response.SCHEMA);

    private AlterReplicaLogDirsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Dirs}. */
        public static final class AlterReplicaLogDir {
            private AlterReplicaLogDir() {
            }

            /** An element of {@code Topics}. */
            public static final class AlterReplicaLogDirTopic {
                private AlterReplicaLogDirTopic() {
                }

                /** The topic name. */
                public static final Field<String> NAME = Field.string("Name");
                /** The partition indexes. */
                public static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
                public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
            }

            /** The absolute directory path. */
            public static final Field<String> PATH = Field.string("Path");
            /** The topics to add to the directory. */
            public static final Field<List<Struct>> TOPICS = Field.array("Topics", AlterReplicaLogDirTopic.SCHEMA);
            public static final Schema SCHEMA = Schema.of(PATH, TOPICS);
        }

        /** The alterations to make for each directory. */
        public static final Field<List<Struct>> DIRS = Field.array("Dirs", AlterReplicaLogDir.SCHEMA);
        public static final Schema SCHEMA = Schema.of(DIRS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Results}. */
        public static final class AlterReplicaLogDirTopicResult {
            private AlterReplicaLogDirTopicResult() {
            }

            /** An element of {@code Partitions}. */
            public static final class AlterReplicaLogDirPartitionResult {
                private AlterReplicaLogDirPartitionResult() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The error code, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ERROR_CODE);
            }

            /** The name of the topic. */
            public static final Field<String> TOPIC_NAME = Field.string("TopicName");
            /** The results for each partition. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", AlterReplicaLogDirPartitionResult.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC_NAME, PARTITIONS);
        }

        /** Duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The results for each topic. */
        public static final Field<List<Struct>> RESULTS = Field.array("Results", AlterReplicaLogDirTopicResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, RESULTS);
    }
}
