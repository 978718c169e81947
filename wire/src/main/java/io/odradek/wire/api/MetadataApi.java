package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;
import java.util.UUID;

/**
 * Metadata (key 3): versions 0-13, flexible from v9. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class MetadataApi {
    public static final ApiSpec SPEC = new ApiSpec(3, "Metadata", 0, 13, 9,
            Request.SCHEMA, Response.SCHEMA);

    private MetadataApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class MetadataRequestTopic {
            private MetadataRequestTopic() {
            }

            /** The topic id. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(10);
            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name").nullableFrom(10).withDefault("");
            public static final Schema SCHEMA = Schema.of(TOPIC_ID, NAME);
        }

        /** The topics to fetch metadata for. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", MetadataRequestTopic.SCHEMA).nullableFrom(1).withDefault(List.of());
        /** If this is true, the broker may auto-create topics that we requested which do not already exist, if it is configured to do so. */
        public static final Field<Boolean> ALLOW_AUTO_TOPIC_CREATION = Field.bool("AllowAutoTopicCreation").versions(4).withDefault(true);
        /** Whether to include cluster authorized operations. */
        public static final Field<Boolean> INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS = Field.bool("IncludeClusterAuthorizedOperations").versions(8, 10);
        /** Whether to include topic authorized operations. */
        public static final Field<Boolean> INCLUDE_TOPIC_AUTHORIZED_OPERATIONS = Field.bool("IncludeTopicAuthorizedOperations").versions(8);
        public static final Schema SCHEMA = Schema.of(TOPICS, ALLOW_AUTO_TOPIC_CREATION, INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS, INCLUDE_TOPIC_AUTHORIZED_OPERATIONS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Brokers}. */
        public static final class MetadataResponseBroker {
            private MetadataResponseBroker() {
            }

            /** The broker ID. */
            public static final Field<Integer> NODE_ID = Field.int32("NodeId");
            /** The broker hostname. */
            public static final Field<String> HOST = Field.string("Host");
            /** The broker port. */
            public static final Field<Integer> PORT = Field.int32("Port");
            /** The rack of the broker, or null if it has not been assigned to a rack. */
            public static final Field<String> RACK = Field.string("Rack").versions(1).nullable();
            public static final Schema SCHEMA = Schema.of(NODE_ID, HOST, PORT, RACK);
        }

        /** An element of {@code Topics}. */
        public static final class MetadataResponseTopic {
            private MetadataResponseTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class MetadataResponsePartition {
                private MetadataResponsePartition() {
                }

                /** The partition error, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The ID of the leader broker. */
                public static final Field<Integer> LEADER_ID = Field.int32("LeaderId");
                /** The leader epoch of this partition. */
                public static final Field<Integer> LEADER_EPOCH = Field.int32("LeaderEpoch").versions(7).withDefault(-1);
                /** The set of all nodes that host this partition. */
                public static final Field<List<Integer>> REPLICA_NODES = Field.array("ReplicaNodes", Types.INT32);
                /** The set of nodes that are in sync with the leader for this partition. */
                public static final Field<List<Integer>> ISR_NODES = Field.array("IsrNodes", Types.INT32);
                /** The set of offline replicas of this partition. */
                public static final Field<List<Integer>> OFFLINE_REPLICAS = Field.array("OfflineReplicas", Types.INT32).versions(5);
                public static final Schema SCHEMA = Schema.of(ERROR_CODE, PARTITION_INDEX, LEADER_ID, LEADER_EPOCH, REPLICA_NODES, ISR_NODES, OFFLINE_REPLICAS);
            }

            /** The topic error, or 0 if there was no error. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The topic name. Null for non-existing topics queried by ID. This is never null when ErrorCode is zero. One of Name and TopicId is always populated. */
            public static final Field<String> NAME = Field.string("Name").nullableFrom(12).withDefault("");
            /** The topic id. Zero for non-existing topics queried by name. This is never zero when ErrorCode is zero. One of Name and TopicId is always populated. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(10);
            /** True if the topic is internal. */
            public static final Field<Boolean> IS_INTERNAL = Field.bool("IsInternal").versions(1);
            /** Each partition in the topic. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", MetadataResponsePartition.SCHEMA);
            /** 32-bit bitfield to represent authorized operations for this topic. */
            public static final Field<Integer> TOPIC_AUTHORIZED_OPERATIONS = Field.int32("TopicAuthorizedOperations").versions(8).withDefault(-2147483648);
            public static final Schema SCHEMA = Schema.of(ERROR_CODE, NAME, TOPIC_ID, IS_INTERNAL, PARTITIONS, TOPIC_AUTHORIZED_OPERATIONS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(3);
        /** A list of brokers present in the cluster. */
        public static final Field<List<Struct>> BROKERS = Field.array("Brokers", MetadataResponseBroker.SCHEMA);
        /** The cluster ID that responding broker belongs to. */
        public static final Field<String> CLUSTER_ID = Field.string("ClusterId").versions(2).nullable();
        /** The ID of the controller broker. */
        public static final Field<Integer> CONTROLLER_ID = Field.int32("ControllerId").versions(1).withDefault(-1);
        /** Each topic in the response. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", MetadataResponseTopic.SCHEMA);
        /** 32-bit bitfield to represent authorized operations for this cluster. */
        public static final Field<Integer> CLUSTER_AUTHORIZED_OPERATIONS = Field.int32("ClusterAuthorizedOperations").versions(8, 10).withDefault(-2147483648);
        /** The top-level error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode").versions(13);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, BROKERS, CLUSTER_ID, CONTROLLER_ID, TOPICS, CLUSTER_AUTHORIZED_OPERATIONS, ERROR_CODE);
    }
}
