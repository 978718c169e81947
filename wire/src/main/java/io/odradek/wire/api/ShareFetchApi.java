package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;
import java.util.UUID;

/**
 * ShareFetch (key 78): versions 1-2, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class ShareFetchApi {
    public static final ApiSpec SPEC = new ApiSpec(78, "ShareFetch", 1, 2, 0,
            Request.SCHEMA, Response.SCHEMA);

    private ShareFetchApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code FetchTopic}. */
        public static final class FetchTopic {
            private FetchTopic() {
            }

            /** An element of {@code FetchPartition}. */
            public static final class FetchPartition {
                private FetchPartition() {
                }

                /** An element of {@code AcknowledgementBatch}. */
                public static final class AcknowledgementBatch {
                    private AcknowledgementBatch() {
                    }

                    /** First offset of batch of records to acknowledge. */
                    public static final Field<Long> FIRST_OFFSET = Field.int64("FirstOffset");
                    /** Last offset (inclusive) of batch of records to acknowledge. */
                    public static final Field<Long> LAST_OFFSET = Field.int64("LastOffset");
                    /** Array of acknowledge types - 0:Gap,1:Accept,2:Release,3:Reject,4:Renew. */
                    public static final Field<List<Byte>> ACKNOWLEDGE_TYPES = Field.array("AcknowledgeTypes", Types.INT8);
                    public static final Schema SCHEMA = Schema.of(FIRST_OFFSET, LAST_OFFSET, ACKNOWLEDGE_TYPES);
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The maximum bytes to fetch from this partition. 0 when only acknowledgement with no fetching is required. See KIP-74 for cases where this limit may not be honored. */
                public static final Field<Integer> PARTITION_MAX_BYTES = Field.int32("PartitionMaxBytes").versions(0, 0);
                /** Record batches to acknowledge. */
                public static final Field<List<Struct>> ACKNOWLEDGEMENT_BATCHES = Field.array("AcknowledgementBatches", AcknowledgementBatch.SCHEMA);
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, PARTITION_MAX_BYTES, ACKNOWLEDGEMENT_BATCHES);
            }

            /** The unique topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            /** The partitions to fetch. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", FetchPartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC_ID, PARTITIONS);
        }

        /** An element of {@code ForgottenTopic}. */
        public static final class ForgottenTopic {
            private ForgottenTopic() {
            }

            /** The unique topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            /** The partitions indexes to forget. */
            public static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
            public static final Schema SCHEMA = Schema.of(TOPIC_ID, PARTITIONS);
        }

        /** The group identifier. */
        public static final Field<String> GROUP_ID = Field.string("GroupId").nullable();
        /** The member ID. */
        public static final Field<String> MEMBER_ID = Field.string("MemberId").nullable().withDefault("");
        /** The current share session epoch: 0 to open a share session; -1 to close it; otherwise increments for consecutive requests. */
        public static final Field<Integer> SHARE_SESSION_EPOCH = Field.int32("ShareSessionEpoch");
        /** The maximum time in milliseconds to wait for the response. */
        public static final Field<Integer> MAX_WAIT_MS = Field.int32("MaxWaitMs");
        /** The minimum bytes to accumulate in the response. */
        public static final Field<Integer> MIN_BYTES = Field.int32("MinBytes");
        /** The maximum bytes to fetch. See KIP-74 for cases where this limit may not be honored. */
        public static final Field<Integer> MAX_BYTES = Field.int32("MaxBytes").withDefault(0x7fffffff);
        /** The maximum number of records to fetch. This limit can be exceeded for alignment of batch boundaries. */
        public static final Field<Integer> MAX_RECORDS = Field.int32("MaxRecords");
        /** The optimal number of records for batches of acquired records and acknowledgements. */
        public static final Field<Integer> BATCH_SIZE = Field.int32("BatchSize");
        /** The acquire mode to control the fetch behavior - 0:batch-optimized,1:record-limit. */
        public static final Field<Byte> SHARE_ACQUIRE_MODE = Field.int8("ShareAcquireMode").versions(2).withDefault((byte) 0);
        /** Whether Renew type acknowledgements present in AcknowledgementBatches. */
        public static final Field<Boolean> IS_RENEW_ACK = Field.bool("IsRenewAck").versions(2).withDefault(false);
        /** The topics to fetch. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", FetchTopic.SCHEMA);
        /** The partitions to remove from this share session. */
        public static final Field<List<Struct>> FORGOTTEN_TOPICS_DATA = Field.array("ForgottenTopicsData", ForgottenTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, MEMBER_ID, SHARE_SESSION_EPOCH, MAX_WAIT_MS, MIN_BYTES, MAX_BYTES, MAX_RECORDS, BATCH_SIZE, SHARE_ACQUIRE_MODE, IS_RENEW_ACK, TOPICS, FORGOTTEN_TOPICS_DATA);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code ShareFetchableTopicResponse}. */
        public static final class ShareFetchableTopicResponse {
            private ShareFetchableTopicResponse() {
            }

            /** An element of {@code PartitionData}. */
            public static final class PartitionData {
                private PartitionData() {
                }

                /** An element of {@code LeaderIdAndEpoch}. */
                public static final class LeaderIdAndEpoch {
                    private LeaderIdAndEpoch() {
                    }

                    /** The ID of the current leader or -1 if the leader is unknown. */
                    public static final Field<Integer> LEADER_ID = Field.int32("LeaderId");
                    /** The latest known leader epoch. */
                    public static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch");
                    public static final Schema SCHEMA = Schema.of(LEADER_ID, LEADER_EPOCH);
                }

                /** An element of {@code AcquiredRecords}. */
                public static final class AcquiredRecords {
                    private AcquiredRecords() {
                    }

                    /** The earliest offset in this batch of acquired records. */
                    public static final Field<Long> FIRST_OFFSET = Field.int64("FirstOffset");
                    /** The last offset of this batch of acquired records. */
                    public static final Field<Long> LAST_OFFSET = Field.int64("LastOffset");
                    /** The delivery count of this batch of acquired records. */
                    public static final Field<Short> DELIVERY_COUNT = Field.int16("DeliveryCount");
                    public static final Schema SCHEMA = Schema.of(FIRST_OFFSET, LAST_OFFSET, DELIVERY_COUNT);
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The fetch error code, or 0 if there was no fetch error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The fetch error message, or null if there was no fetch error. */
                public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
                /** The acknowledge error code, or 0 if there was no acknowledge error. */
                public static final Field<Short> ACKNOWLEDGE_ERROR_CODE = Field.int16("AcknowledgeErrorCode");
                /** The acknowledge error message, or null if there was no acknowledge error. */
                public static final Field<String> ACKNOWLEDGE_ERROR_MESSAGE = Field.string("AcknowledgeErrorMessage").nullable();
                /** The current leader of the partition. */
                public static final Field<Struct> CURRENT_LEADER = Field.struct("CurrentLeader", LeaderIdAndEpoch.SCHEMA);
                /** The record data. */
                public static final Field<Records> RECORDS = Field.records("Records");
                /** The acquired records. */
                public static final Field<List<Struct>> ACQUIRED_RECORDS = Field.array("AcquiredRecords", AcquiredRecords.SCHEMA);
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ERROR_CODE, ERROR_MESSAGE, ACKNOWLEDGE_ERROR_CODE, ACKNOWLEDGE_ERROR_MESSAGE, CURRENT_LEADER, RECORDS, ACQUIRED_RECORDS);
            }

            /** The unique topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            /** The topic partitions. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", PartitionData.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC_ID, PARTITIONS);
        }

        /** An element of {@code NodeEndpoint}. */
        public static final class NodeEndpoint {
            private NodeEndpoint() {
            }

            /** The ID of the associated node. */
            public static final Field<Integer> NODE_ID = Field.int32("NodeId");
            /** The node's hostname. */
            public static final Field<String> HOST = Field.string("Host");
            /** The node's port. */
            public static final Field<Integer> PORT = Field.int32("Port");
            /** The rack of the node, or null if it has not been assigned to a rack. */
            public static final Field<String> RACK = Field.string("Rack").nullable();
            public static final Schema SCHEMA = Schema.of(NODE_ID, HOST, PORT, RACK);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The top-level response error code. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The top-level error message, or null if there was no error. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
        /** The time in milliseconds for which the acquired records are locked. */
        public static final Field<Integer> ACQUISITION_LOCK_TIMEOUT_MS = Field.int32("AcquisitionLockTimeoutMs");
        /** The response topics. */
        public static final Field<List<Struct>> RESPONSES = Field.array("Responses", ShareFetchableTopicResponse.SCHEMA);
        /** Endpoints for all current leaders enumerated in PartitionData with error NOT_LEADER_OR_FOLLOWER. */
        public static final Field<List<Struct>> NODE_ENDPOINTS = Field.array("NodeEndpoints", NodeEndpoint.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, ERROR_MESSAGE, ACQUISITION_LOCK_TIMEOUT_MS, RESPONSES, NODE_ENDPOINTS);
    }
}
