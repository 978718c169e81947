package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;
import java.util.UUID;

/**
 * Fetch (key 1): versions 0-18, flexible from v12. Fields and version ranges as in Kafka 4.4's message
 * schemas; v0-3, which Kafka 4.0 dropped (KIP-896), as in Kafka 3.9.1's.
 */
public final class FetchApi {
    public static final ApiSpec SPEC = new ApiSpec(1, "Fetch", 0, 18, 12,
            Request.SCHEMA, Response.SCHEMA);

    private FetchApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code ReplicaState}. */
        public static final class ReplicaState {
            private ReplicaState() {
            }

            /** The replica ID of the follower, or -1 if this request is from a consumer. */
            public static final Field<Integer> REPLICA_ID = Field.int32("ReplicaId").versions(15).withDefault(-1);
            /** The epoch of this follower, or -1 if not available. */
            public static final Field<Long> REPLICA_EPOCH = Field.int64("ReplicaEpoch").versions(15).withDefault(-1L);
            public static final Schema SCHEMA = Schema.of(REPLICA_ID, REPLICA_EPOCH);
        }

        /** An element of {@code Topics}. */
        public static final class FetchTopic {
            private FetchTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class FetchPartition {
                private FetchPartition() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION = Field.int32("Partition");
                /** The current leader epoch of the partition. */
                public static final Field<Integer> CURRENT_LEADER_EPOCH = Field.int32("CurrentLeaderEpoch").versions(9).withDefault(-1);
                /** The message offset. */
                public static final Field<Long> FETCH_OFFSET = Field.int64("FetchOffset");
                /** The epoch of the last fetched record or -1 if there is none. */
                public static final Field<Integer> LAST_FETCHED_EPOCH = Field.int32("LastFetchedEpoch").versions(12).withDefault(-1);
                /** The earliest available offset of the follower replica.  The field is only used when the request is sent by the follower. */
                public static final Field<Long> LOG_START_OFFSET = Field.int64("LogStartOffset").versions(5).withDefault(-1L);
                /** The maximum bytes to fetch from this partition.  See KIP-74 for cases where this limit may not be honored. */
                public static final Field<Integer> PARTITION_MAX_BYTES = Field.int32("PartitionMaxBytes");
                /** The directory id of the follower fetching. */
                public static final Field<UUID> REPLICA_DIRECTORY_ID = Field.uuid("ReplicaDirectoryId").versions(17).tagged(0);
                /** The high-watermark known by the replica. -1 if the high-watermark is not known and 9223372036854775807 if the feature is not supported. */
                public static final Field<Long> HIGH_WATERMARK = Field.int64("HighWatermark").versions(18).tagged(1).withDefault(9223372036854775807L);
                public static final Schema SCHEMA = Schema.of(PARTITION, CURRENT_LEADER_EPOCH, FETCH_OFFSET, LAST_FETCHED_EPOCH, LOG_START_OFFSET, PARTITION_MAX_BYTES, REPLICA_DIRECTORY_ID, HIGH_WATERMARK);
            }

            /** The name of the topic to fetch. */
            public static final Field<String> TOPIC = Field.string("Topic").versions(0, 12);
            /** The unique topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(13);
            /** The partitions to fetch. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", FetchPartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC, TOPIC_ID, PARTITIONS);
        }

        /** An element of {@code ForgottenTopicsData}. */
        public static final class ForgottenTopic {
            private ForgottenTopic() {
            }

            /** The topic name. */
            public static final Field<String> TOPIC = Field.string("Topic").versions(7, 12);
            /** The unique topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(13);
            /** The partitions indexes to forget. */
            public static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32).versions(7);
            public static final Schema SCHEMA = Schema.of(TOPIC, TOPIC_ID, PARTITIONS);
        }

        /** The clusterId if known. This is used to validate metadata fetches prior to broker registration. */
        public static final Field<String> CLUSTER_ID = Field.string("ClusterId").versions(12).tagged(0).nullable();
        /** The broker ID of the follower, of -1 if this request is from a consumer. */
        public static final Field<Integer> REPLICA_ID = Field.int32("ReplicaId").versions(0, 14).withDefault(-1);
        /** The state of the replica in the follower. */
        public static final Field<Struct> REPLICA_STATE = Field.struct("ReplicaState", ReplicaState.SCHEMA).versions(15).tagged(1);
        /** The maximum time in milliseconds to wait for the response. */
        public static final Field<Integer> MAX_WAIT_MS = Field.int32("MaxWaitMs");
        /** The minimum bytes to accumulate in the response. */
        public static final Field<Integer> MIN_BYTES = Field.int32("MinBytes");
        /** The maximum bytes to fetch.  See KIP-74 for cases where this limit may not be honored. */
        public static final Field<Integer> MAX_BYTES = Field.int32("MaxBytes").versions(3).withDefault(2147483647);
        /** This setting controls the visibility of transactional records. Using READ_UNCOMMITTED (isolation_level = 0) makes all records visible. With READ_COMMITTED (isolation_level = 1), non-transactional and COMMITTED transactional records are visible. To be more concrete, READ_COMMITTED returns all data from offsets smaller than the current LSO (last stable offset), and enables the inclusion of the list of aborted transactions in the result, which allows consumers to discard ABORTED transactional records. */
        public static final Field<Byte> ISOLATION_LEVEL = Field.int8("IsolationLevel").versions(4);
        /** The fetch session ID. */
        public static final Field<Integer> SESSION_ID = Field.int32("SessionId").versions(7);
        /** The fetch session epoch, which is used for ordering requests in a session. */
        public static final Field<Integer> SESSION_EPOCH = Field.int32("SessionEpoch").versions(7).withDefault(-1);
        /** The topics to fetch. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", FetchTopic.SCHEMA);
        /** In an incremental fetch request, the partitions to remove. */
        public static final Field<List<Struct>> FORGOTTEN_TOPICS_DATA = Field.array("ForgottenTopicsData", ForgottenTopic.SCHEMA).versions(7);
        /** Rack ID of the consumer making this request. */
        public static final Field<String> RACK_ID = Field.string("RackId").versions(11);
        public static final Schema SCHEMA = Schema.of(CLUSTER_ID, REPLICA_ID, REPLICA_STATE, MAX_WAIT_MS, MIN_BYTES, MAX_BYTES, ISOLATION_LEVEL, SESSION_ID, SESSION_EPOCH, TOPICS, FORGOTTEN_TOPICS_DATA, RACK_ID);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Responses}. */
        public static final class FetchableTopicResponse {
            private FetchableTopicResponse() {
            }

            /** An element of {@code Partitions}. */
            public static final class PartitionData {
                private PartitionData() {
                }

                /** An element of {@code DivergingEpoch}. */
                public static final class EpochEndOffset {
                    private EpochEndOffset() {
                    }

                    /** The largest epoch. */
                    public static final Field<Integer> EPOCH = Field.int32("Epoch").versions(12).withDefault(-1);
                    /** The end offset of the epoch. */
                    public static final Field<Long> END_OFFSET = Field.int64("EndOffset").versions(12).withDefault(-1L);
                    public static final Schema SCHEMA = Schema.of(EPOCH, END_OFFSET);
                }

                /** An element of {@code CurrentLeader}. */
                public static final class LeaderIdAndEpoch {
                    private LeaderIdAndEpoch() {
                    }

                    /** The ID of the current leader or -1 if the leader is unknown. */
                    public static final Field<Integer> LEADER_ID = Field.int32("LeaderId").versions(12).withDefault(-1);
                    /** The latest known leader epoch. */
                    public static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch").versions(12).withDefault(-1);
                    public static final Schema SCHEMA = Schema.of(LEADER_ID, LEADER_EPOCH);
                }

                /** An element of {@code SnapshotId}. */
                public static final class SnapshotId {
                    private SnapshotId() {
                    }

                    /** The end offset of the epoch. */
                    public static final Field<Long> END_OFFSET = Field.int64("EndOffset").withDefault(-1L);
                    /** The largest epoch. */
                    public static final Field<Integer> EPOCH = Field.int32("Epoch").withDefault(-1);
                    public static final Schema SCHEMA = Schema.of(END_OFFSET, EPOCH);
                }

                /** An element of {@code AbortedTransactions}. */
                public static final class AbortedTransaction {
                    private AbortedTransaction() {
                    }

                    /** The producer id associated with the aborted transaction. */
                    public static final Field<Long> PRODUCER_ID = Field.int64("ProducerId").versions(4);
                    /** The first offset in the aborted transaction. */
                    public static final Field<Long> FIRST_OFFSET = Field.int64("FirstOffset").versions(4);
                    public static final Schema SCHEMA = Schema.of(PRODUCER_ID, FIRST_OFFSET);
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The error code, or 0 if there was no fetch error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The current high water mark. */
                public static final Field<Long> HIGH_WATERMARK = Field.int64("HighWatermark");
                /** The last stable offset (or LSO) of the partition. This is the last offset such that the state of all transactional records prior to this offset have been decided (ABORTED or COMMITTED). */
                public static final Field<Long> LAST_STABLE_OFFSET = Field.int64("LastStableOffset").versions(4).withDefault(-1L);
                /** The current log start offset. */
                public static final Field<Long> LOG_START_OFFSET = Field.int64("LogStartOffset").versions(5).withDefault(-1L);
                /** In case divergence is detected based on the `LastFetchedEpoch` and `FetchOffset` in the request, this field indicates the largest epoch and its end offset such that subsequent records are known to diverge. */
                public static final Field<Struct> DIVERGING_EPOCH = Field.struct("DivergingEpoch", EpochEndOffset.SCHEMA).versions(12).tagged(0);
                /** The current leader of the partition. */
                public static final Field<Struct> CURRENT_LEADER = Field.struct("CurrentLeader", LeaderIdAndEpoch.SCHEMA).versions(12).tagged(1);
                /** In the case of fetching an offset less than the LogStartOffset, this is the end offset and epoch that should be used in the FetchSnapshot request. */
                public static final Field<Struct> SNAPSHOT_ID = Field.struct("SnapshotId", SnapshotId.SCHEMA).versions(12).tagged(2);
                /** The aborted transactions. */
                public static final Field<List<Struct>> ABORTED_TRANSACTIONS = Field.array("AbortedTransactions", AbortedTransaction.SCHEMA).versions(4).nullable().withDefault(List.of());
                /** The preferred read replica for the consumer to use on its next fetch request. */
                public static final Field<Integer> PREFERRED_READ_REPLICA = Field.int32("PreferredReadReplica").versions(11).withDefault(-1);
                /** The record data. */
                public static final Field<Records> RECORDS = Field.records("Records").nullable();
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ERROR_CODE, HIGH_WATERMARK, LAST_STABLE_OFFSET, LOG_START_OFFSET, DIVERGING_EPOCH, CURRENT_LEADER, SNAPSHOT_ID, ABORTED_TRANSACTIONS, PREFERRED_READ_REPLICA, RECORDS);
            }

            /** The topic name. */
            public static final Field<String> TOPIC = Field.string("Topic").versions(0, 12);
            /** The unique topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(13);
            /** The topic partitions. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", PartitionData.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC, TOPIC_ID, PARTITIONS);
        }

        /** An element of {@code NodeEndpoints}. */
        public static final class NodeEndpoint {
            private NodeEndpoint() {
            }

            /** The ID of the associated node. */
            public static final Field<Integer> NODE_ID = Field.int32("NodeId").versions(16);
            /** The node's hostname. */
            public static final Field<String> HOST = Field.string("Host").versions(16);
            /** The node's port. */
            public static final Field<Integer> PORT = Field.int32("Port").versions(16);
            /** The rack of the node, or null if it has not been assigned to a rack. */
            public static final Field<String> RACK = Field.string("Rack").versions(16).nullable();
            public static final Schema SCHEMA = Schema.of(NODE_ID, HOST, PORT, RACK);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(1);
        /** The top level response error code. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode").versions(7);
        /** The fetch session ID, or 0 if this is not part of a fetch session. */
        public static final Field<Integer> SESSION_ID = Field.int32("SessionId").versions(7);
        /** The response topics. */
        public static final Field<List<Struct>> RESPONSES = Field.array("Responses", FetchableTopicResponse.SCHEMA);
        /** Endpoints for all current-leaders enumerated in PartitionData, with errors NOT_LEADER_OR_FOLLOWER & FENCED_LEADER_EPOCH. */
        public static final Field<List<Struct>> NODE_ENDPOINTS = Field.array("NodeEndpoints", NodeEndpoint.SCHEMA).versions(16).tagged(0);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, SESSION_ID, RESPONSES, NODE_ENDPOINTS);
    }
}
