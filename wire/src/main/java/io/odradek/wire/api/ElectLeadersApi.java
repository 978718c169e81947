package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * ElectLeaders (key 43): versions 0-2, flexible from v2. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class ElectLeadersApi {
    public static final ApiSpec SPEC = new ApiSpec(43, "ElectLeaders", 0, 2, 2,
            Request.SCHEMA, Response.SCHEMA);

    private ElectLeadersApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code TopicPartitions}. */
        public static final class TopicPartitions {
            private TopicPartitions() {
            }

            /** The name of a topic. */
            public static final Field<String> TOPIC = Field.string("Topic");
            /** The partitions of this topic whose leader should be elected. */
            public static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
            public static final Schema SCHEMA = Schema.of(TOPIC, PARTITIONS);
        }

        /** Type of elections to conduct for the partition. A value of '0' elects the preferred replica. A value of '1' elects the first live replica if there are no in-sync replica. */
        public static final Field<Byte> ELECTION_TYPE = Field.int8("ElectionType").versions(1);
        /** The topic partitions to elect leaders. */
        public static final Field<List<Struct>> TOPIC_PARTITIONS = Field.array("TopicPartitions", TopicPartitions.SCHEMA).nullable().withDefault(List.of());
        /** The time in ms to wait for the election to complete. */
        public static final Field<Integer> TIMEOUT_MS = Field.int32("TimeoutMs").withDefault(60000);
        public static final Schema SCHEMA = Schema.of(ELECTION_TYPE, TOPIC_PARTITIONS, TIMEOUT_MS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code ReplicaElectionResults}. */
        public static final class ReplicaElectionResult {
            private ReplicaElectionResult() {
            }

            /** An element of {@code PartitionResult}. */
            public static final class PartitionResult {
                private PartitionResult() {
                }

                /** The partition id. */
                public static final Field<Integer> PARTITION_ID = Field.int32("PartitionId");
                /** The result error, or zero if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The result message, or null if there was no error. */
                public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
                public static final Schema SCHEMA = Schema.of(PARTITION_ID, ERROR_CODE, ERROR_MESSAGE);
            }

            /** The topic name. */
            public static final Field<String> TOPIC = Field.string("Topic");
            /** The results for each partition. */
            public static final Field<List<Struct>> PARTITION_RESULT = Field.array("PartitionResult", PartitionResult.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC, PARTITION_RESULT);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The top level response error code. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode").versions(1);
        /** The election results, or an empty array if the requester did not have permission and the request asks for all partitions. */
        public static final Field<List<Struct>> REPLICA_ELECTION_RESULTS = Field.array("ReplicaElectionResults", ReplicaElectionResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, REPLICA_ELECTION_RESULTS);
    }
}
