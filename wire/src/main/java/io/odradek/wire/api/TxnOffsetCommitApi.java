package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.UUID;

/**
 * TxnOffsetCommit (key 28): versions 0-6, flexible from v3. Fields and version ranges as in Kafka 4.4's message schemas.
 * v6 identifies topics by topic id instead of name.
 */
public final class TxnOffsetCommitApi {
    public static final ApiSpec SPEC = new ApiSpec(28, "TxnOffsetCommit", 0, 6, 3,
            Request.SCHEMA, Response.SCHEMA);

    private TxnOffsetCommitApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics}. */
        public static final class TxnOffsetCommitRequestTopic {
            private TxnOffsetCommitRequestTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class TxnOffsetCommitRequestPartition {
                private TxnOffsetCommitRequestPartition() {
                }

                /** The index of the partition within the topic. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The message offset to be committed. */
                public static final Field<Long> COMMITTED_OFFSET = Field.int64("CommittedOffset");
                /** The leader epoch of the last consumed record. */
                public static final Field<Integer> COMMITTED_LEADER_EPOCH = Field.int32("CommittedLeaderEpoch").versions(2).withDefault(-1);
                /** Any associated metadata the client wants to keep. */
                public static final Field<String> COMMITTED_METADATA = Field.string("CommittedMetadata").nullable().withDefault("");
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, COMMITTED_OFFSET, COMMITTED_LEADER_EPOCH, COMMITTED_METADATA);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name").versions(0, 5);
            /** The topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(6);
            /** The partitions inside the topic that we want to commit offsets for. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", TxnOffsetCommitRequestPartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, TOPIC_ID, PARTITIONS);
        }

        /** The ID of the transaction. */
        public static final Field<String> TRANSACTIONAL_ID = Field.string("TransactionalId");
        /** The ID of the group. */
        public static final Field<String> GROUP_ID = Field.string("GroupId");
        /** The current producer ID in use by the transactional ID. */
        public static final Field<Long> PRODUCER_ID = Field.int64("ProducerId");
        /** The current epoch associated with the producer ID. */
        public static final Field<Short> PRODUCER_EPOCH = Field.int16("ProducerEpoch");
        /** The generation of the group if using the classic group protocol or the member epoch if using the consumer protocol. */
        public static final Field<Integer> GENERATION_ID_OR_MEMBER_EPOCH = Field.int32("GenerationIdOrMemberEpoch").versions(3).withDefault(-1);
        /** The member ID assigned by the group coordinator. */
        public static final Field<String> MEMBER_ID = Field.string("MemberId").versions(3);
        /** The unique identifier of the consumer instance provided by end user. */
        public static final Field<String> GROUP_INSTANCE_ID = Field.string("GroupInstanceId").versions(3).nullable();
        /** Each topic that we want to commit offsets for. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", TxnOffsetCommitRequestTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(TRANSACTIONAL_ID, GROUP_ID, PRODUCER_ID, PRODUCER_EPOCH, GENERATION_ID_OR_MEMBER_EPOCH, MEMBER_ID, GROUP_INSTANCE_ID, TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Topics}. */
        public static final class TxnOffsetCommitResponseTopic {
            private TxnOffsetCommitResponseTopic() {
            }

            /** An element of {@code Partitions}. */
            public static final class TxnOffsetCommitResponsePartition {
                private TxnOffsetCommitResponsePartition() {
                }

                /** The partition index. */
                public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                /** The error code, or 0 if there was no error. */
                public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ERROR_CODE);
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name").versions(0, 5);
            /** The topic ID. */
            public static final Field<UUID> TOPIC_ID = Field.uuid("TopicId").versions(6);
            /** The responses for each partition in the topic. */
            public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", TxnOffsetCommitResponsePartition.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, TOPIC_ID, PARTITIONS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The responses for each topic. */
        public static final Field<List<Struct>> TOPICS = Field.array("Topics", TxnOffsetCommitResponseTopic.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, TOPICS);
    }
}
