package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;
import java.util.UUID;

/**
 * CreateTopics (key 19): versions 0-7, flexible from v5. Fields and version ranges as in Kafka 4.4's message
 * schemas; v0-1, which Kafka 4.0 dropped (KIP-896), as in Kafka 3.9.1's.
 */
public final class CreateTopicsApi {
    public static final ApiSpec SPEC = new ApiSpec(19, "CreateTopics", 0, 7, 5,
            Request.SCHEMA, Response.SCHEMA);

    private CreateTopicsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class CreatableTopic {
            private CreatableTopic() {
            }

            /** An element of {@code Assignments}. */
            public static final class CreatableReplicaAssignment {
                private CreatableReplicaAssignment() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The brokers to place the partition on. */
                public static final Field<List<Integer>> BROKER_IDS = Field.array("BrokerIds", Types.INT32);
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, BROKER_IDS);
            }

            /** An element of {@code Configs}. */
            public static final class CreatableTopicConfig {
                private CreatableTopicConfig() {
                }

                /** The configuration name. */
                public static final Field<String> NAME = Field.string("Name");
                /** The configuration value. */
                public static final Field<String> VALUE = Field.string("Value").nullable().withDefault("");
                public static final Schema SCHEMA = Schema.of(NAME, VALUE);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** The number of partitions to create in the topic, or -1 if we are either specifying a manual partition assignment or using the default partitions. */
            public static final Field<Integer> NUM_PARTITIONS = Field.int32("NumPartitions");
            /** The number of replicas to create for each partition in the topic, or -1 if we are either specifying a manual partition assignment or using the default replication factor. */
            public static final Field<Short> REPLICATION_FACTOR = Field.int16("ReplicationFactor");
            /** The manual partition assignment, or the empty array if we are using automatic assignment. */
            public static final Field<List<Struct>> ASSIGNMENTS = Field.array("Assignments", CreatableReplicaAssignment.SCHEMA);
            /** The custom topic configurations to set. */
            public static final Field<List<Struct>> CONFIGS = Field.array("Configs", CreatableTopicConfig.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, NUM_PARTITIONS, REPLICATION_FACTOR, ASSIGNMENTS, CONFIGS);
        }

        /** The topics to create. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", CreatableTopic.SCHEMA);
        /** How long to wait in milliseconds before timing out the request. */
        public static final Field<Integer> TIMEOUT_MS = Field.int32("timeoutMs").withDefault(60000);
        /** If true, check that the topics can be created as specified, but don't create anything. */
        public static final Field<Boolean> VALIDATE_ONLY = Field.bool("validateOnly").versions(1);
        public static final Schema SCHEMA = Schema.of(TOPICS, TIMEOUT_MS, VALIDATE_ONLY);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Topics}. */
        public static final class CreatableTopicResult {
            private CreatableTopicResult() {
            }

            /** An element of {@code Configs}. */
            public static final class CreatableTopicConfigs {
                private CreatableTopicConfigs() {
                }

                /** The configuration name. */
                public static final Field<String> NAME = Field.string("Name").versions(5);
                /** The configuration value. */
                public static final Field<String> VALUE = Field.string("Value").versions(5).nullable().withDefault("");
                /** True if the configuration is read-only. */
                public static final Field<Boolean> READ_ONLY = Field.bool("ReadOnly").versions(5);
                /** The configuration source. */
                public static final Field<Byte> CONFIG_SOURCE = Field.int8("ConfigSource").versions(5).withDefault((byte) -1);
                /** True if this configuration is sensitive. */
                public static final Field<Boolean> IS_SENSITIVE = Field.bool("IsSensitive").versions(5);
                public static final Schema SCHEMA = Schema.of(NAME, VALUE, READ_ONLY, CONFIG_SOURCE, IS_SENSITIVE);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** The unique topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(7);
            /** The error code, or 0 if there was no error. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The error message, or null if there was no error. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").versions(1).nullable().withDefault("");
            /** Optional topic config error returned if configs are not returned in the response. */
            public static final Field<Short> TOPIC_CONFIG_ERROR_CODE = Field.int16("TopicConfigErrorCode").versions(5).tagged(0);
            /** Number of partitions of the topic. */
            public static final Field<Integer> NUM_PARTITIONS = Field.int32("NumPartitions").versions(5).withDefault(-1);
            /** Replication factor of the topic. */
            public static final Field<Short> REPLICATION_FACTOR = Field.int16("ReplicationFactor").versions(5).withDefault((short) -1);
            /** Configuration of the topic. */
            public static final Field<List<Struct>> CONFIGS = Field.array("Configs", CreatableTopicConfigs.SCHEMA).versions(5).nullable().withDefault(List.of());
            public static final Schema SCHEMA = Schema.of(NAME, TOPIC_ID, ERROR_CODE, ERROR_MESSAGE, TOPIC_CONFIG_ERROR_CODE, NUM_PARTITIONS, REPLICATION_FACTOR, CONFIGS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(2);
        /** Results for each topic we tried to create. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", CreatableTopicResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, TOPICS);
    }
}
