package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.UUID;

/**
 * OffsetCommit (key 8): versions 0-10, flexible from v8. Fields and version ranges as in Kafka 4.4's message
 * schemas; v0-1, which Kafka 4.0 dropped (KIP-896), as in Kafka 3.9.1's.
 */
public final class OffsetCommitApi {
    public static final ApiSpec SPEC = new ApiSpec(8, "OffsetCommit", 0, 10, 8,
            Request.SCHEMA, Response.SCHEMA);

    private OffsetCommitApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class OffsetCommitRequestTopic {
            private OffsetCommitRequestTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class OffsetCommitRequestPartition {
                private OffsetCommitRequestPartition() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The message offset to be committed. */
                public static final Field<Long> COMMITTED_OFFSET = Field.int64("CommittedOffset");
                /** The leader epoch of this partition. */
                public static final Field<Integer> COMMITTED_LEADER_EPOCH = Field.int32("CommittedLeaderEpoch").versions(6).withDefault(-1);
                /** The timestamp of the commit. */
                public static final Field<Long> COMMIT_TIMESTAMP = Field.int64("CommitTimestamp").versions(1, 1).withDefault(-1L);
                /** Any associated metadata the client wants to keep. */
                public static final Field<String> COMMITTED_METADATA = Field.string("CommittedMetadata").nullable().withDefault("");
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, COMMITTED_OFFSET, COMMITTED_LEADER_EPOCH, COMMIT_TIMESTAMP, COMMITTED_METADATA);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name").versions(0, 9);
            /** The topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(10);
            /** Each partition to commit offsets for. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", OffsetCommitRequestPartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, TOPIC_ID, PARTITIONS);
        }

        /** The unique group identifier. */
        public static final Field<String> GROUP_ID = Field.string("GroupId");
        /** The generation of the group if using the classic group protocol or the member epoch if using the consumer protocol. */
        public static final Field<Integer> GENERATION_ID_OR_MEMBER_EPOCH = Field.int32("GenerationIdOrMemberEpoch").versions(1).withDefault(-1);
        /** The member ID assigned by the group coordinator. */
        public static final Field<String> MEMBER_ID = Field.string("MemberId").versions(1);
        /** The unique identifier of the consumer instance provided by end user. */
        public static final Field<String> GROUP_INSTANCE_ID = Field.string("GroupInstanceId").versions(7).nullable();
        /** The time period in ms to retain the offset. */
        public static final Field<Long> RETENTION_TIME_MS = Field.int64("RetentionTimeMs").versions(2, 4).withDefault(-1L);
        /** The topics to commit offsets for. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", OffsetCommitRequestTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(GROUP_ID, GENERATION_ID_OR_MEMBER_EPOCH, MEMBER_ID, GROUP_INSTANCE_ID, RETENTION_TIME_MS, TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Topics}. */
        public static final class OffsetCommitResponseTopic {
            private OffsetCommitResponseTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class OffsetCommitResponsePartition {
                private OffsetCommitResponsePartition() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The error code, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ERROR_CODE);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name").versions(0, 9);
            /** The topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(10);
            /** The responses for each partition in the topic. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", OffsetCommitResponsePartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, TOPIC_ID, PARTITIONS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(3);
        /** The responses for each topic. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", OffsetCommitResponseTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, TOPICS);
    }
}
