package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * StreamsGroupDescribe (key 89): versions 0-1, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class StreamsGroupDescribeApi {
    public static final ApiSpec SPEC = new ApiSpec(89, "StreamsGroupDescribe", 0, 1, 0,
            Request.SCHEMA, Response.SCHEMA);

    private StreamsGroupDescribeApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The ids of the groups to describe */
        public static final Field<List<String>> GROUP_IDS = Field.array("GroupIds", Types.STRING);
        /** Whether to include authorized operations. */
        public static final Field<Boolean> INCLUDE_AUTHORIZED_OPERATIONS = Field.bool("IncludeAuthorizedOperations");
        /** Whether to include the full topology description from the topology description plugin in the response. */
        public static final Field<Boolean> INCLUDE_TOPOLOGY_DESCRIPTION = Field.bool("IncludeTopologyDescription").versions(1).withDefault(false);
        public static final Schema SCHEMA = Schema.of(GROUP_IDS, INCLUDE_AUTHORIZED_OPERATIONS, INCLUDE_TOPOLOGY_DESCRIPTION);
    }

    public static final class Response {
        private Response() {
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

        /** An element of {@code Assignment}. */
        public static final class Assignment {
            private Assignment() {
            }

            /** Active tasks for this client. */
            public static final Field<List<Struct>> ACTIVE_TASKS = Field.array("ActiveTasks", TaskIds.SCHEMA);
            /** Standby tasks for this client. */
            public static final Field<List<Struct>> STANDBY_TASKS = Field.array("StandbyTasks", TaskIds.SCHEMA);
            /** Warm-up tasks for this client.  */
            public static final Field<List<Struct>> WARMUP_TASKS = Field.array("WarmupTasks", TaskIds.SCHEMA);
            public static final Schema SCHEMA = Schema.of(ACTIVE_TASKS, STANDBY_TASKS, WARMUP_TASKS);
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

        /** An element of {@code TopologyDescription}. */
        public static final class TopologyDescription {
            private TopologyDescription() {
            }

            /** The subtopologies that make up this topology. */
            public static final Field<List<Struct>> SUBTOPOLOGIES = Field.array("Subtopologies", TopologyDescriptionSubtopology.SCHEMA).versions(1);
            /** Global state stores used by this topology. */
            public static final Field<List<Struct>> GLOBAL_STORES = Field.array("GlobalStores", TopologyDescriptionGlobalStore.SCHEMA).versions(1);
            public static final Schema SCHEMA = Schema.of(SUBTOPOLOGIES, GLOBAL_STORES);
        }

        /** An element of {@code TopologyDescriptionSubtopology}. */
        public static final class TopologyDescriptionSubtopology {
            private TopologyDescriptionSubtopology() {
            }

            /** The subtopology identifier, unique within the topology. */
            public static final Field<String> SUBTOPOLOGY_ID = Field.string("SubtopologyId").versions(1);
            /** The processing nodes in this subtopology. */
            public static final Field<List<Struct>> NODES = Field.array("Nodes", TopologyDescriptionNode.SCHEMA).versions(1);
            public static final Schema SCHEMA = Schema.of(SUBTOPOLOGY_ID, NODES);
        }

        /** An element of {@code TopologyDescriptionNode}. */
        public static final class TopologyDescriptionNode {
            private TopologyDescriptionNode() {
            }

            /** The name of this node (e.g., KSTREAM-SOURCE-0000000000). */
            public static final Field<String> NAME = Field.string("Name").versions(1);
            /** The type of this node: 1=SOURCE, 2=PROCESSOR, 3=SINK. */
            public static final Field<Byte> NODE_TYPE = Field.int8("NodeType").versions(1);
            /** The source topics this node reads from. Defined only for source nodes, may be empty if source topics are dynamically determined. */
            public static final Field<List<String>> SOURCE_TOPICS = Field.array("SourceTopics", Types.STRING).versions(1);
            /** The topic this node writes to. Defined only for sink nodes, may be null if sink topic is dynamically determined. */
            public static final Field<String> SINK_TOPIC = Field.string("SinkTopic").versions(1).nullable();
            /** The state store names accessed by this node. Defined only for processor nodes. */
            public static final Field<List<String>> STORES = Field.array("Stores", Types.STRING).versions(1);
            /** The names of successor nodes in the processing graph. Predecessor relationships are reconstructed from this field. */
            public static final Field<List<String>> SUCCESSORS = Field.array("Successors", Types.STRING).versions(1);
            public static final Schema SCHEMA = Schema.of(NAME, NODE_TYPE, SOURCE_TOPICS, SINK_TOPIC, STORES, SUCCESSORS);
        }

        /** An element of {@code TopologyDescriptionGlobalStore}. */
        public static final class TopologyDescriptionGlobalStore {
            private TopologyDescriptionGlobalStore() {
            }

            /** The source node providing data to the global store. */
            public static final Field<Struct> SOURCE = Field.struct("Source", TopologyDescriptionNode.SCHEMA).versions(1);
            /** The processor node that populates the global store. */
            public static final Field<Struct> PROCESSOR = Field.struct("Processor", TopologyDescriptionNode.SCHEMA).versions(1);
            public static final Schema SCHEMA = Schema.of(SOURCE, PROCESSOR);
        }

        /** An element of {@code DescribedGroup}. */
        public static final class DescribedGroup {
            private DescribedGroup() {
            }

            /** An element of {@code Topology}. */
            public static final class Topology {
                private Topology() {
                }

                /** An element of {@code Subtopology}. */
                public static final class Subtopology {
                    private Subtopology() {
                    }

                    /** String to uniquely identify the subtopology. */
                    public static final Field<String> SUBTOPOLOGY_ID = Field.string("SubtopologyId");
                    /** The topics the subtopology reads from. */
                    public static final Field<List<String>> SOURCE_TOPICS = Field.array("SourceTopics", Types.STRING);
                    /** The repartition topics the subtopology writes to. */
                    public static final Field<List<String>> REPARTITION_SINK_TOPICS = Field.array("RepartitionSinkTopics", Types.STRING);
                    /** The set of state changelog topics associated with this subtopology. Created automatically. */
                    public static final Field<List<Struct>> STATE_CHANGELOG_TOPICS = Field.array("StateChangelogTopics", TopicInfo.SCHEMA);
                    /** The set of source topics that are internally created repartition topics. Created automatically. */
                    public static final Field<List<Struct>> REPARTITION_SOURCE_TOPICS = Field.array("RepartitionSourceTopics", TopicInfo.SCHEMA);
                    public static final Schema SCHEMA = Schema.of(SUBTOPOLOGY_ID, SOURCE_TOPICS, REPARTITION_SINK_TOPICS, STATE_CHANGELOG_TOPICS, REPARTITION_SOURCE_TOPICS);
                }

                /** The epoch of the currently initialized topology for this group. */
                public static final Field<Integer> EPOCH = Field.int32("Epoch");
                /** The subtopologies of the streams application. This contains the configured subtopologies, where the number of partitions are set and any regular expressions are resolved to actual topics. Null if the group is uninitialized, source topics are missing or incorrectly partitioned. */
                public static final Field<List<Struct>> SUBTOPOLOGIES = Field.array("Subtopologies", Subtopology.SCHEMA).nullable();
                public static final Schema SCHEMA = Schema.of(EPOCH, SUBTOPOLOGIES);
            }

            /** An element of {@code Member}. */
            public static final class Member {
                private Member() {
                }

                /** The member ID. */
                public static final Field<String> MEMBER_ID = Field.string("MemberId");
                /** The member epoch. */
                public static final Field<Integer> MEMBER_EPOCH = Field.int32("MemberEpoch");
                /** The member instance ID for static membership. */
                public static final Field<String> INSTANCE_ID = Field.string("InstanceId").nullable();
                /** The rack ID. */
                public static final Field<String> RACK_ID = Field.string("RackId").nullable();
                /** The client ID. */
                public static final Field<String> CLIENT_ID = Field.string("ClientId");
                /** The client host. */
                public static final Field<String> CLIENT_HOST = Field.string("ClientHost");
                /** The epoch of the topology on the client. */
                public static final Field<Integer> TOPOLOGY_EPOCH = Field.int32("TopologyEpoch");
                /** Identity of the streams instance that may have multiple clients.  */
                public static final Field<String> PROCESS_ID = Field.string("ProcessId");
                /** User-defined endpoint for Interactive Queries. Null if not defined for this client. */
                public static final Field<Struct> USER_ENDPOINT = Field.struct("UserEndpoint", Endpoint.SCHEMA).nullable();
                /** Used for rack-aware assignment algorithm. */
                public static final Field<List<Struct>> CLIENT_TAGS = Field.array("ClientTags", KeyValue.SCHEMA);
                /** Cumulative changelog offsets for tasks. */
                public static final Field<List<Struct>> TASK_OFFSETS = Field.array("TaskOffsets", TaskOffset.SCHEMA);
                /** Cumulative changelog end offsets for tasks. */
                public static final Field<List<Struct>> TASK_END_OFFSETS = Field.array("TaskEndOffsets", TaskOffset.SCHEMA);
                /** The current assignment. */
                public static final Field<Struct> ASSIGNMENT = Field.struct("Assignment", Assignment.SCHEMA);
                /** The target assignment. */
                public static final Field<Struct> TARGET_ASSIGNMENT = Field.struct("TargetAssignment", Assignment.SCHEMA);
                /** True for classic members that have not been upgraded yet. */
                public static final Field<Boolean> IS_CLASSIC = Field.bool("IsClassic");
                public static final Schema SCHEMA = Schema.of(MEMBER_ID, MEMBER_EPOCH, INSTANCE_ID, RACK_ID, CLIENT_ID, CLIENT_HOST, TOPOLOGY_EPOCH, PROCESS_ID, USER_ENDPOINT, CLIENT_TAGS, TASK_OFFSETS, TASK_END_OFFSETS, ASSIGNMENT, TARGET_ASSIGNMENT, IS_CLASSIC);
            }

            /** The describe error, or 0 if there was no error. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The top-level error message, or null if there was no error. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
            /** The group ID string. */
            public static final Field<String> GROUP_ID = Field.string("GroupId");
            /** The group state string, or the empty string. */
            public static final Field<String> GROUP_STATE = Field.string("GroupState");
            /** The group epoch. */
            public static final Field<Integer> GROUP_EPOCH = Field.int32("GroupEpoch");
            /** The assignment epoch. */
            public static final Field<Integer> ASSIGNMENT_EPOCH = Field.int32("AssignmentEpoch");
            /** The topology metadata currently initialized for the streams application. Can be null in case of a describe error. */
            public static final Field<Struct> TOPOLOGY = Field.struct("Topology", Topology.SCHEMA).nullable();
            /** The members. */
            public static final Field<List<Struct>> MEMBERS = Field.array("Members", Member.SCHEMA);
            /** 32-bit bitfield to represent authorized operations for this group. */
            public static final Field<Integer> AUTHORIZED_OPERATIONS = Field.int32("AuthorizedOperations").withDefault(-2147483648);
            /** The full topology description for this group. Non-null if and only if TopologyDescriptionStatus is AVAILABLE (3); null otherwise. */
            public static final Field<Struct> TOPOLOGY_DESCRIPTION = Field.struct("TopologyDescription", TopologyDescription.SCHEMA).versions(1).nullable();
            /** The status of the topology description for this group, paired with TopologyDescription: 0=NOT_REQUESTED (client did not set IncludeTopologyDescription; TopologyDescription is null); 1=NOT_STORED (no description recorded for this group; TopologyDescription is null); 2=ERROR (broker failed to fetch the description, see broker logs; TopologyDescription is null); 3=AVAILABLE (TopologyDescription is non-null and carries the description). */
            public static final Field<Byte> TOPOLOGY_DESCRIPTION_STATUS = Field.int8("TopologyDescriptionStatus").versions(1).withDefault((byte) 0);
            /** The task assignor that the group coordinator will use for the next assignment computation. This may differ from the assignor that computed the current assignment, because changing the assignor configuration does not trigger a rebalance. Null in case of a describe error. */
            public static final Field<String> ASSIGNOR_NAME = Field.string("AssignorName").versions(1).nullable();
            public static final Schema SCHEMA = Schema.of(ERROR_CODE, ERROR_MESSAGE, GROUP_ID, GROUP_STATE, GROUP_EPOCH, ASSIGNMENT_EPOCH, TOPOLOGY, MEMBERS, AUTHORIZED_OPERATIONS, TOPOLOGY_DESCRIPTION, TOPOLOGY_DESCRIPTION_STATUS, ASSIGNOR_NAME);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** Each described group. */
        public static final Field<List<Struct>> GROUPS = Field.array("Groups", DescribedGroup.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, GROUPS);
    }
}
