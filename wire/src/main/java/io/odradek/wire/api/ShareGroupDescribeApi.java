package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;
import java.util.UUID;

/**
 * ShareGroupDescribe (key 77): version 1, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class ShareGroupDescribeApi {
    public static final ApiSpec SPEC = new ApiSpec(77, "ShareGroupDescribe", 1, 1, 0,
            Request.SCHEMA, Response.SCHEMA);

    private ShareGroupDescribeApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The ids of the groups to describe. */
        public static final Field<List<String>> GROUP_IDS = Field.array("GroupIds", Types.STRING);
        /** Whether to include authorized operations. */
        public static final Field<Boolean> INCLUDE_AUTHORIZED_OPERATIONS = Field.bool("IncludeAuthorizedOperations");
        public static final Schema SCHEMA = Schema.of(GROUP_IDS, INCLUDE_AUTHORIZED_OPERATIONS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code TopicPartitions}. */
        public static final class TopicPartitions {
            private TopicPartitions() {
            }

            /** The topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId");
            /** The topic name. */
            public static final Field<String> TOPIC_NAME = Field.string("TopicName");
            /** The partitions. */
            public static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
            public static final Schema SCHEMA = Schema.of(TOPIC_ID, TOPIC_NAME, PARTITIONS);
        }

        /** An element of {@code Assignment}. */
        public static final class Assignment {
            private Assignment() {
            }

            /** The assigned topic-partitions to the member. */
            public static final Field<List<Struct>> TOPIC_PARTITIONS = Field.array("TopicPartitions", TopicPartitions.SCHEMA);
            public static final Schema SCHEMA = Schema.of(TOPIC_PARTITIONS);
        }

        /** An element of {@code DescribedGroup}. */
        public static final class DescribedGroup {
            private DescribedGroup() {
            }

            /** An element of {@code Member}. */
            public static final class Member {
                private Member() {
                }

                /** The member ID. */
                public static final Field<String> MEMBER_ID = Field.string("MemberId");
                /** The member rack ID. */
                public static final Field<String> RACK_ID = Field.string("RackId").nullable();
                /** The current member epoch. */
                public static final Field<Integer> MEMBER_EPOCH = Field.int32("MemberEpoch");
                /** The client ID. */
                public static final Field<String> CLIENT_ID = Field.string("ClientId");
                /** The client host. */
                public static final Field<String> CLIENT_HOST = Field.string("ClientHost");
                /** The subscribed topic names. */
                public static final Field<List<String>> SUBSCRIBED_TOPIC_NAMES = Field.array("SubscribedTopicNames", Types.STRING);
                /** The current assignment. */
                public static final Field<Struct> ASSIGNMENT = Field.struct("Assignment", Assignment.SCHEMA);
                public static final Schema SCHEMA = Schema.of(MEMBER_ID, RACK_ID, MEMBER_EPOCH, CLIENT_ID, CLIENT_HOST, SUBSCRIBED_TOPIC_NAMES, ASSIGNMENT);
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
            /** The selected assignor. */
            public static final Field<String> ASSIGNOR_NAME = Field.string("AssignorName");
            /** The members. */
            public static final Field<List<Struct>> MEMBERS = Field.array("Members", Member.SCHEMA);
            /** 32-bit bitfield to represent authorized operations for this group. */
            public static final Field<Integer> AUTHORIZED_OPERATIONS = Field.int32("AuthorizedOperations").withDefault(-2147483648);
            public static final Schema SCHEMA = Schema.of(ERROR_CODE, ERROR_MESSAGE, GROUP_ID, GROUP_STATE, GROUP_EPOCH, ASSIGNMENT_EPOCH, ASSIGNOR_NAME, MEMBERS, AUTHORIZED_OPERATIONS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** Each described group. */
        public static final Field<List<Struct>> GROUPS = Field.array("Groups", DescribedGroup.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, GROUPS);
    }
}
