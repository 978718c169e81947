package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.UUID;

/**
 * Produce (key 0): versions 0-13, flexible from v9. Fields and version ranges as in Kafka 4.4's message
 * schemas; v0-2, which Kafka 4.0 dropped (KIP-896), as in Kafka 3.9.1's.
 */
public final class ProduceApi {
    public static final ApiSpec SPEC = new ApiSpec(0, "Produce", 0, 13, 9,
            Request.SCHEMA, Response.SCHEMA);

    private ProduceApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code TopicData}. */
        public static final class TopicProduceData {
            private TopicProduceData() {
            }

            /** An element of {@code PartitionData}. */
            public static final class PartitionProduceData {
                private PartitionProduceData() {
                }

                /** The partition index. */
                public static final Field<Integer> INDEX = Field.int32("Index");
                /** The record data to be produced. */
                public static final Field<Records> RECORDS = Field.records("Records").nullable();
                public static final Schema SCHEMA = Schema.of(INDEX, RECORDS);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name").versions(0, 12);
            /** The unique topic ID */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(13);
            /** Each partition to produce to. */
            public static final Field<List<Struct>> PARTITION_DATA = Field.array("PartitionData", PartitionProduceData.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, TOPIC_ID, PARTITION_DATA);
        }

        /** The transactional ID, or null if the producer is not transactional. */
        public static final Field<String> TRANSACTIONAL_ID = Field.string("TransactionalId").versions(3).nullable();
        /** The number of acknowledgments the producer requires the leader to have received before considering a request complete. Allowed values: 0 for no acknowledgments, 1 for only the leader and -1 for the full ISR. */
        public static final Field<Short> ACKS = Field.int16("Acks");
        /** The timeout to await a response in milliseconds. */
        public static final Field<Integer> TIMEOUT_MS = Field.int32("TimeoutMs");
        /** Each topic to produce to. */
        public static final Field<List<Struct>> TOPIC_DATA = Field.array("TopicData", TopicProduceData.SCHEMA);
        public static final Schema SCHEMA = Schema.of(TRANSACTIONAL_ID, ACKS, TIMEOUT_MS, TOPIC_DATA);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Responses}. */
        public static final class TopicProduceResponse {
            private TopicProduceResponse() {
            }

            /** An element of {@code PartitionResponses}. */
            public static final class PartitionProduceResponse {
                private PartitionProduceResponse() {
                }

                /** An element of {@code RecordErrors}. */
                public static final class BatchIndexAndErrorMessage {
                    private BatchIndexAndErrorMessage() {
                    }

                    /** The batch index of the record that caused the batch to be dropped. */
                    public static final Field<Integer> BATCH_INDEX = Field.int32("BatchIndex").versions(8);
                    /** The error message of the record that caused the batch to be dropped. */
                    public static final Field<String> BATCH_INDEX_ERROR_MESSAGE = Field.string("BatchIndexErrorMessage").versions(8).nullable();
                    public static final Schema SCHEMA = Schema.of(BATCH_INDEX, BATCH_INDEX_ERROR_MESSAGE);
                }

                /** An element of {@code CurrentLeader}. */
                public static final class LeaderIdAndEpoch {
                    private LeaderIdAndEpoch() {
                    }

                    /** The ID of the current leader or -1 if the leader is unknown. */
                    public static final Field<Integer> LEADER_ID = Field.int32("LeaderId").versions(10).withDefault(-1);
                    /** The latest known leader epoch. */
                    public static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch").versions(10).withDefault(-1);
                    public static final Schema SCHEMA = Schema.of(LEADER_ID, LEADER_EPOCH);
                }

                /** The partition index. */
                public static final Field<Integer> INDEX = Field.int32("Index");
                /** The error code, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The base offset. */
                public static final Field<Long> BASE_OFFSET = Field.int64("BaseOffset");
                /** The timestamp returned by broker after appending the messages. If CreateTime is used for the topic, the timestamp will be -1.  If LogAppendTime is used for the topic, the timestamp will be the broker local time when the messages are appended. */
                public static final Field<Long> LOG_APPEND_TIME_MS = Field.int64("LogAppendTimeMs").versions(2).withDefault(-1L);
                /** The log start offset. */
                public static final Field<Long> LOG_START_OFFSET = Field.int64("LogStartOffset").versions(5).withDefault(-1L);
                /** The batch indices of records that caused the batch to be dropped. */
                public static final Field<List<Struct>> RECORD_ERRORS = Field.array("RecordErrors", BatchIndexAndErrorMessage.SCHEMA).versions(8);
                /** The global error message summarizing the common root cause of the records that caused the batch to be dropped. */
                public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").versions(8).nullable();
                /** The leader broker that the producer should use for future requests. */
                public static final Field<Struct> CURRENT_LEADER = Field.struct("CurrentLeader", LeaderIdAndEpoch.SCHEMA).versions(10).tagged(0);
                public static final Schema SCHEMA = Schema.of(INDEX, ERROR_CODE, BASE_OFFSET, LOG_APPEND_TIME_MS, LOG_START_OFFSET, RECORD_ERRORS, ERROR_MESSAGE, CURRENT_LEADER);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name").versions(0, 12);
            /** The unique topic ID */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(13);
            /** Each partition that we produced to within the topic. */
            public static final Field<List<Struct>> PARTITION_RESPONSES = Field.array("PartitionResponses", PartitionProduceResponse.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, TOPIC_ID, PARTITION_RESPONSES);
        }

        /** An element of {@code NodeEndpoints}. */
        public static final class NodeEndpoint {
            private NodeEndpoint() {
            }

            /** The ID of the associated node. */
            public static final Field<Integer> NODE_ID = Field.int32("NodeId").versions(10);
            /** The node's hostname. */
            public static final Field<String> HOST = Field.string("Host").versions(10);
            /** The node's port. */
            public static final Field<Integer> PORT = Field.int32("Port").versions(10);
            /** The rack of the node, or null if it has not been assigned to a rack. */
            public static final Field<String> RACK = Field.string("Rack").versions(10).nullable();
            public static final Schema SCHEMA = Schema.of(NODE_ID, HOST, PORT, RACK);
        }

        /** Each produce response. */
        public static final Field<List<Struct>> RESPONSES = Field.array("Responses", TopicProduceResponse.SCHEMA);
        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(1);
        /** Endpoints for all current-leaders enumerated in PartitionProduceResponses, with errors NOT_LEADER_OR_FOLLOWER. */
        public static final Field<List<Struct>> NODE_ENDPOINTS = Field.array("NodeEndpoints", NodeEndpoint.SCHEMA).versions(10).tagged(0);
        public static final Schema SCHEMA = Schema.of(RESPONSES, THROTTLE_TIME_MS, NODE_ENDPOINTS);
    }
}
