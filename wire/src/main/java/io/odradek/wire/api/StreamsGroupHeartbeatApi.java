package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * StreamsGroupHeartbeat (key 88): versions 0-1, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class StreamsGroupHeartbeatApi {
    public static final ApiSpec SPEC = new ApiSpec(88, "StreamsGroupHeartbeat", 0, 1, 0,
            Request.SCHEMA, Response.SCHEMA);

    private StreamsGroupHeartbeatApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code KeyValue}. */
        public static final class KeyValue {
            private KeyValue() {
            }

            /** key of the config */
            public static final Field<String> KEY = Field.string("Key");
            /** value of the config */
            public static final Field<String> VALUE = Field.string("Value");
            public static final Schema SCHEMA = Schema.of(KEY, VALUE);
        }

        /** An element of {@code TopicInfo}. */
        public static final class TopicInfo {
            private TopicInfo() {
            }

            /** The name of the topic. */
            public static final Field<String> NAME = Field.string("Name");
            /** The number of partitions in the topic. Can be 0 if no specific number of partitions is enforced. Always 0 for changelog topics. */
            public static final Field<Integer> PARTITIONS = Field.int32("Partitions");
            /** The replication factor of the topic. Can be 0 if the default replication factor should be used. */
            public static final Field<Short> REPLICATION_FACTOR = Field.int16("ReplicationFactor");
            /** Topic-level configurations as key-value pairs. */
            public static final Field<List<Struct>> TOPIC_CONFIGS = Field.array("TopicConfigs", KeyValue.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS, REPLICATION_FACTOR, TOPIC_CONFIGS);
        }

        /** An element of {@code Endpoint}. */
        public static final class Endpoint {
            private Endpoint() {
            }

            /** host of the endpoint */
            public static final Field<String> HOST = Field.string("Host");
            /** port of the endpoint */
            public static final Field<Integer> PORT = Field.uint16("Port");
            public static final Schema SCHEMA = Schema.of(HOST, PORT);
        }

        /** An element of {@code TaskOffset}. */
        public static final class TaskOffset {
            private TaskOffset() {
            }

            /** The subtopology identifier. */
            public static final Field<String> SUBTOPOLOGY_ID = Field.string("SubtopologyId");
            /** The partition. */
            public static final Field<Integer> PARTITION = Field.int32("Partition");
            /** The offset. */
            public static final Field<Long> OFFSET = Field.int64("Offset");
            public static final Schema SCHEMA = Schema.of(SUBTOPOLOGY_ID, PARTITION, OFFSET);
        }

        /** An element of {@code TaskIds}. */
        public static final class TaskIds {
            private TaskIds() {
            }

            /** The subtopology identifier. */
            public static final Field<String> SUBTOPOLOGY_ID = Field.string("SubtopologyId");
            /** The partitions of the input topics processed by this member. */
            public static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
            public static final Schema SCHEMA = Schema.of(SUBTOPOLOGY_ID, PARTITIONS);
        }

        /** An element of {@code Topology}. */
        public static final class Topology {
            private Topology() {
            }

            /** An element of {@code Subtopology}. */
            public static final class Subtopology {
                private Subtopology() {
                }

                /** An element of {@code CopartitionGroup}. */
                public static final class CopartitionGroup {
                    private CopartitionGroup() {
                    }

                    /** The topics the topology reads from. Index into the array on the subtopology level. */
                    public static final Field<List<Short>> SOURCE_TOPICS = Field.array("SourceTopics", Types.INT16);
                    /** Regular expressions identifying topics the subtopology reads from. Index into the array on the subtopology level. */
                    public static final Field<List<Short>> SOURCE_TOPIC_REGEX = Field.array("SourceTopicRegex", Types.INT16);
                    /** The set of source topics that are internally created repartition topics. Index into the array on the subtopology level. */
                    public static final Field<List<Short>> REPARTITION_SOURCE_TOPICS = Field.array("RepartitionSourceTopics", Types.INT16);
                    public static final Schema SCHEMA = Schema.of(SOURCE_TOPICS, SOURCE_TOPIC_REGEX, REPARTITION_SOURCE_TOPICS);
                }

                /** String to uniquely identify the subtopology. Deterministically generated from the topology */
                public static final Field<String> SUBTOPOLOGY_ID = Field.string("SubtopologyId");
                /** The topics the topology reads from. */
                public static final Field<List<String>> SOURCE_TOPICS = Field.array("SourceTopics", Types.STRING);
                /** The regular expressions identifying topics the subtopology reads from. */
                public static final Field<List<String>> SOURCE_TOPIC_REGEX = Field.array("SourceTopicRegex", Types.STRING);
                /** The set of state changelog topics associated with this subtopology. Created automatically. */
                public static final Field<List<Struct>> STATE_CHANGELOG_TOPICS = Field.array("StateChangelogTopics", TopicInfo.SCHEMA);
                /** The repartition topics the subtopology writes to. */
                public static final Field<List<String>> REPARTITION_SINK_TOPICS = Field.array("RepartitionSinkTopics", Types.STRING);
                /** The set of source topics that are internally created repartition topics. Created automatically. */
                public static final Field<List<Struct>> REPARTITION_SOURCE_TOPICS = Field.array("RepartitionSourceTopics", TopicInfo.SCHEMA);
                /** A subset of source topics that must be copartitioned. */
                public static final Field<List<Struct>> COPARTITION_GROUPS = Field.array("CopartitionGroups", CopartitionGroup.SCHEMA);
                public static final Schema SCHEMA = Schema.of(SUBTOPOLOGY_ID, SOURCE_TOPICS, SOURCE_TOPIC_REGEX, STATE_CHANGELOG_TOPICS, REPARTITION_SINK_TOPICS, REPARTITION_SOURCE_TOPICS, COPARTITION_GROUPS);
            }

            /** The epoch of the topology. Used to check if the topology corresponds to the topology initialized on the brokers. */
            public static final Field<Integer> EPOCH = Field.int32("Epoch");
            /** The sub-topologies of the streams application. */
            public static final Field<List<Struct>> SUBTOPOLOGIES = Field.array("Subtopologies", Subtopology.SCHEMA);
            public static final Schema SCHEMA = Schema.of(EPOCH, SUBTOPOLOGIES);
        }

        /** The group identifier. */
        public static final Field<String> GROUP_ID = Field.string("GroupId");
        /** The member ID generated by the streams consumer. The member ID must be kept during the entire lifetime of the streams consumer process. */
        public static final Field<String> MEMBER_ID = Field.string("MemberId");
        /** The current member epoch; 0 to join the group; -1 to leave the group; -2 to indicate that the static member will rejoin. */
        public static final Field<Integer> MEMBER_EPOCH = Field.int32("MemberEpoch");
        /** The current endpoint epoch of this client, represents the latest endpoint epoch this client received */
        public static final Field<Integer> ENDPOINT_INFORMATION_EPOCH = Field.int32("EndpointInformationEpoch");
        /** null if not provided or if it didn't change since the last heartbeat; the instance ID for static membership otherwise. */
        public static final Field<String> INSTANCE_ID = Field.string("InstanceId").nullable();
        /** null if not provided or if it didn't change since the last heartbeat; the rack ID of the member otherwise. */
        public static final Field<String> RACK_ID = Field.string("RackId").nullable();
        /** -1 if it didn't change since the last heartbeat; the maximum time in milliseconds that the coordinator will wait on the member to revoke its tasks otherwise. */
        public static final Field<Integer> REBALANCE_TIMEOUT_MS = Field.int32("RebalanceTimeoutMs").withDefault(-1);
        /** The topology metadata of the streams application. Used to initialize the topology of the group and to check if the topology corresponds to the topology initialized for the group. Only sent when memberEpoch = 0, must be non-empty. Null otherwise. */
        public static final Field<Struct> TOPOLOGY = Field.struct("Topology", Topology.SCHEMA).nullable();
        /** Currently owned active tasks for this client. Null if unchanged since last heartbeat. */
        public static final Field<List<Struct>> ACTIVE_TASKS = Field.array("ActiveTasks", TaskIds.SCHEMA).nullable();
        /** Currently owned standby tasks for this client. Null if unchanged since last heartbeat. */
        public static final Field<List<Struct>> STANDBY_TASKS = Field.array("StandbyTasks", TaskIds.SCHEMA).nullable();
        /** Currently owned warm-up tasks for this client. Null if unchanged since last heartbeat. */
        public static final Field<List<Struct>> WARMUP_TASKS = Field.array("WarmupTasks", TaskIds.SCHEMA).nullable();
        /** Identity of the streams instance that may have multiple consumers. Null if unchanged since last heartbeat. */
        public static final Field<String> PROCESS_ID = Field.string("ProcessId").nullable();
        /** User-defined endpoint for Interactive Queries. Null if unchanged since last heartbeat, or if not defined on the client. */
        public static final Field<Struct> USER_ENDPOINT = Field.struct("UserEndpoint", Endpoint.SCHEMA).nullable();
        /** Used for rack-aware assignment algorithm. Null if unchanged since last heartbeat. */
        public static final Field<List<Struct>> CLIENT_TAGS = Field.array("ClientTags", KeyValue.SCHEMA).nullable();
        /** Cumulative changelog offsets for tasks. Only updated when a warm-up task has caught up, and according to the task offset interval. Null if unchanged since last heartbeat. */
        public static final Field<List<Struct>> TASK_OFFSETS = Field.array("TaskOffsets", TaskOffset.SCHEMA).nullable();
        /** Cumulative changelog end-offsets for tasks. Only updated when a warm-up task has caught up, and according to the task offset interval. Null if unchanged since last heartbeat. */
        public static final Field<List<Struct>> TASK_END_OFFSETS = Field.array("TaskEndOffsets", TaskOffset.SCHEMA).nullable();
        /** Whether all Streams clients in the group should shut down. */
        public static final Field<Boolean> SHUTDOWN_APPLICATION = Field.bool("ShutdownApplication").withDefault(false);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, MEMBER_ID, MEMBER_EPOCH, ENDPOINT_INFORMATION_EPOCH, INSTANCE_ID, RACK_ID, REBALANCE_TIMEOUT_MS, TOPOLOGY, ACTIVE_TASKS, STANDBY_TASKS, WARMUP_TASKS, PROCESS_ID, USER_ENDPOINT, CLIENT_TAGS, TASK_OFFSETS, TASK_END_OFFSETS, SHUTDOWN_APPLICATION);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Status}. */
        public static final class Status {
            private Status() {
            }

            /** A code to indicate that a particular status is active for the group membership */
            public static final Field<Byte> STATUS_CODE = Field.int8("StatusCode");
            /** A string representation of the status. */
            public static final Field<String> STATUS_DETAIL = Field.string("StatusDetail");
            public static final Schema SCHEMA = Schema.of(STATUS_CODE, STATUS_DETAIL);
        }

        /** An element of {@code TopicPartition}. */
        public static final class TopicPartition {
            private TopicPartition() {
            }

            /** topic name */
            public static final Field<String> TOPIC = Field.string("Topic");
            /** partitions */
            public static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
            public static final Schema SCHEMA = Schema.of(TOPIC, PARTITIONS);
        }

        /** An element of {@code TaskIds}. */
        public static final class TaskIds {
            private TaskIds() {
            }

            /** The subtopology identifier. */
            public static final Field<String> SUBTOPOLOGY_ID = Field.string("SubtopologyId");
            /** The partitions of the input topics processed by this member. */
            public static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
            public static final Schema SCHEMA = Schema.of(SUBTOPOLOGY_ID, PARTITIONS);
        }

        /** An element of {@code Endpoint}. */
        public static final class Endpoint {
            private Endpoint() {
            }

            /** host of the endpoint */
            public static final Field<String> HOST = Field.string("Host");
            /** port of the endpoint */
            public static final Field<Integer> PORT = Field.uint16("Port");
            public static final Schema SCHEMA = Schema.of(HOST, PORT);
        }

        /** An element of {@code EndpointToPartitions}. */
        public static final class EndpointToPartitions {
            private EndpointToPartitions() {
            }

            /** User-defined endpoint to connect to the node */
            public static final Field<Struct> USER_ENDPOINT = Field.struct("UserEndpoint", Endpoint.SCHEMA);
            /** The source topic partitions, including repartition source topics, of the active tasks assigned to this member */
            public static final Field<List<Struct>> ACTIVE_PARTITIONS = Field.array("ActivePartitions", TopicPartition.SCHEMA);
            /** The source topic partitions, including repartition source topics, of the standby and warm-up tasks assigned to this member */
            public static final Field<List<Struct>> STANDBY_PARTITIONS = Field.array("StandbyPartitions", TopicPartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(USER_ENDPOINT, ACTIVE_PARTITIONS, STANDBY_PARTITIONS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The top-level error code, or 0 if there was no error */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The top-level error message, or null if there was no error. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
        /** The member id is always generated by the streams consumer. */
        public static final Field<String> MEMBER_ID = Field.string("MemberId");
        /** The member epoch. */
        public static final Field<Integer> MEMBER_EPOCH = Field.int32("MemberEpoch");
        /** The heartbeat interval in milliseconds. */
        public static final Field<Integer> HEARTBEAT_INTERVAL_MS = Field.int32("HeartbeatIntervalMs");
        /** Deprecated. The maximum acceptable lag (number of offsets to catch up) for a client to be considered caught-up enough to receive an active task assignment. Use AcceptableRecoveryLag instead. */
        public static final Field<Integer> ACCEPTABLE_RECOVERY_LAG_LEGACY = Field.int32("AcceptableRecoveryLagLegacy").versions(0, 0);
        /** The interval in which the task changelog offsets on a client are updated on the broker. The offsets are sent with the next heartbeat after this time has passed. */
        public static final Field<Integer> TASK_OFFSET_INTERVAL_MS = Field.int32("TaskOffsetIntervalMs");
        /** The maximum acceptable lag (number of offsets to catch up) for a client to be considered caught-up enough to receive an active task assignment. A value of -1 indicates the broker does not support this configuration. */
        public static final Field<Long> ACCEPTABLE_RECOVERY_LAG = Field.int64("AcceptableRecoveryLag").versions(1).withDefault(-1L);
        /** Indicate zero or more status for the group. */
        public static final Field<List<Struct>> STATUS = Field.array("Status", Status.SCHEMA).nullable().withDefault(List.of());
        /** Assigned active tasks for this client. Null if unchanged since last heartbeat. */
        public static final Field<List<Struct>> ACTIVE_TASKS = Field.array("ActiveTasks", TaskIds.SCHEMA).nullable();
        /** Assigned standby tasks for this client. Null if unchanged since last heartbeat. */
        public static final Field<List<Struct>> STANDBY_TASKS = Field.array("StandbyTasks", TaskIds.SCHEMA).nullable();
        /** Assigned warm-up tasks for this client. Null if unchanged since last heartbeat. */
        public static final Field<List<Struct>> WARMUP_TASKS = Field.array("WarmupTasks", TaskIds.SCHEMA).nullable();
        /** True if the broker does not have an up-to-date topology description for this group. The client should send the topology description via StreamsGroupTopologyDescriptionUpdate. */
        public static final Field<Boolean> TOPOLOGY_DESCRIPTION_REQUIRED = Field.bool("TopologyDescriptionRequired").versions(1).withDefault(false);
        /** The endpoint epoch set in the response */
        public static final Field<Integer> ENDPOINT_INFORMATION_EPOCH = Field.int32("EndpointInformationEpoch");
        /** Global assignment information used for IQ. There is one entry per member, so several entries carry the same UserEndpoint when a client runs more than one stream thread; clients must union the entries of an endpoint. Null if unchanged since last heartbeat. */
        public static final Field<List<Struct>> PARTITIONS_BY_USER_ENDPOINT = Field.array("PartitionsByUserEndpoint", EndpointToPartitions.SCHEMA).nullable();
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, ERROR_MESSAGE, MEMBER_ID, MEMBER_EPOCH, HEARTBEAT_INTERVAL_MS, ACCEPTABLE_RECOVERY_LAG_LEGACY, TASK_OFFSET_INTERVAL_MS, ACCEPTABLE_RECOVERY_LAG, STATUS, ACTIVE_TASKS, STANDBY_TASKS, WARMUP_TASKS, TOPOLOGY_DESCRIPTION_REQUIRED, ENDPOINT_INFORMATION_EPOCH, PARTITIONS_BY_USER_ENDPOINT);
    }
}
