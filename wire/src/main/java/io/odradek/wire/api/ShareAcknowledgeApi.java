package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;
import java.util.UUID;

/**
 * ShareAcknowledge (key 79): versions 1-2, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class ShareAcknowledgeApi {
    public static final ApiSpec SPEC = new ApiSpec(79, "ShareAcknowledge", 1, 2, 0,
            Request.SCHEMA, Response.SCHEMA);

    private ShareAcknowledgeApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code AcknowledgeTopic}. */
        public static final class AcknowledgeTopic {
            private AcknowledgeTopic() {
            }

            /** An element of {@code AcknowledgePartition}. */
            public static final class AcknowledgePartition {
                private AcknowledgePartition() {
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
                /** Record batches to acknowledge. */
                public static final Field<List<Struct>> ACKNOWLEDGEMENT_BATCHES = Field.array("AcknowledgementBatches", AcknowledgementBatch.SCHEMA);
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ACKNOWLEDGEMENT_BATCHES);
            }

            /** The unique topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            /** The partitions containing records to acknowledge. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", AcknowledgePartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC_ID, PARTITIONS);
        }

        /** The group identifier. */
        public static final Field<String> GROUP_ID = Field.string("GroupId").nullable();
        /** The member ID. */
        public static final Field<String> MEMBER_ID = Field.string("MemberId").nullable().withDefault("");
        /** The current share session epoch: 0 to open a share session; -1 to close it; otherwise increments for consecutive requests. */
        public static final Field<Integer> SHARE_SESSION_EPOCH = Field.int32("ShareSessionEpoch");
        /** Whether Renew type acknowledgements present in AcknowledgementBatches. */
        public static final Field<Boolean> IS_RENEW_ACK = Field.bool("IsRenewAck").versions(2).withDefault(false);
        /** The topics containing records to acknowledge. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", AcknowledgeTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, MEMBER_ID, SHARE_SESSION_EPOCH, IS_RENEW_ACK, TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code ShareAcknowledgeTopicResponse}. */
        public static final class ShareAcknowledgeTopicResponse {
            private ShareAcknowledgeTopicResponse() {
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

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The error code, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The error message, or null if there was no error. */
                public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
                /** The current leader of the partition. */
                public static final Field<Struct> CURRENT_LEADER = Field.struct("CurrentLeader", LeaderIdAndEpoch.SCHEMA);
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ERROR_CODE, ERROR_MESSAGE, CURRENT_LEADER);
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
        /** The top level response error code. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The top-level error message, or null if there was no error. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
        /** The time in milliseconds for which the acquired records are locked. */
        public static final Field<Integer> ACQUISITION_LOCK_TIMEOUT_MS = Field.int32("AcquisitionLockTimeoutMs").versions(2);
        /** The response topics. */
        public static final Field<List<Struct>> RESPONSES = Field.array("Responses", ShareAcknowledgeTopicResponse.SCHEMA);
        /** Endpoints for all current leaders enumerated in PartitionData with error NOT_LEADER_OR_FOLLOWER. */
        public static final Field<List<Struct>> NODE_ENDPOINTS = Field.array("NodeEndpoints", NodeEndpoint.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, ERROR_MESSAGE, ACQUISITION_LOCK_TIMEOUT_MS, RESPONSES, NODE_ENDPOINTS);
    }
}
