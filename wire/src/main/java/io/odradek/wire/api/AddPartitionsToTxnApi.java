package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * AddPartitionsToTxn (key 24): versions 0-5, flexible from v3. Fields and version ranges as in Kafka 4.4's message schemas.
 * v0-3 carry one transaction (the {@code V3AndBelow*} fields, sent by producers); v4+ carry a batch of
 * transactions (sent by partition leaders to verify or add partitions, KIP-890).
 */
public final class AddPartitionsToTxnApi {
    public static final ApiSpec SPEC = new ApiSpec(24, "AddPartitionsToTxn", 0, 5, 3,
            Request.SCHEMA, Response.SCHEMA);

    private AddPartitionsToTxnApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Topics} (v4+) and {@code V3AndBelowTopics} (v0-3); a common struct in Kafka's schema. */
        public static final class AddPartitionsToTxnTopic {
            private AddPartitionsToTxnTopic() {
            }

            /** The name of the topic. */
            public static final Field<String> NAME = Field.string("Name");
            /** The partition indexes to add to the transaction. */
            public static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
            public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
        }

        /** An element of {@code Transactions}. */
        public static final class AddPartitionsToTxnTransaction {
            private AddPartitionsToTxnTransaction() {
            }

            /** The transactional id corresponding to the transaction. */
            public static final Field<String> TRANSACTIONAL_ID = Field.string("TransactionalId").versions(4);
            /** Current producer id in use by the transactional id. */
            public static final Field<Long> PRODUCER_ID = Field.int64("ProducerId").versions(4);
            /** Current epoch associated with the producer id. */
            public static final Field<Short> PRODUCER_EPOCH = Field.int16("ProducerEpoch").versions(4);
            /** Boolean to signify if we want to check if the partition is in the transaction rather than add it. */
            public static final Field<Boolean> VERIFY_ONLY = Field.bool("VerifyOnly").versions(4);
            /** The partitions to add to the transaction. */
            public static final Field<List<Struct>> TOPICS = Field.array("Topics", AddPartitionsToTxnTopic.SCHEMA).versions(4);
            public static final Schema SCHEMA = Schema.of(TRANSACTIONAL_ID, PRODUCER_ID, PRODUCER_EPOCH, VERIFY_ONLY, TOPICS);
        }

        /** List of transactions to add partitions to. */
        public static final Field<List<Struct>> TRANSACTIONS = Field.array("Transactions", AddPartitionsToTxnTransaction.SCHEMA).versions(4);
        /** The transactional id corresponding to the transaction. */
        public static final Field<String> V3_AND_BELOW_TRANSACTIONAL_ID = Field.string("V3AndBelowTransactionalId").versions(0, 3);
        /** Current producer id in use by the transactional id. */
        public static final Field<Long> V3_AND_BELOW_PRODUCER_ID = Field.int64("V3AndBelowProducerId").versions(0, 3);
        /** Current epoch associated with the producer id. */
        public static final Field<Short> V3_AND_BELOW_PRODUCER_EPOCH = Field.int16("V3AndBelowProducerEpoch").versions(0, 3);
        /** The partitions to add to the transaction. */
        public static final Field<List<Struct>> V3_AND_BELOW_TOPICS = Field.array("V3AndBelowTopics", AddPartitionsToTxnTopic.SCHEMA).versions(0, 3);
        public static final Schema SCHEMA = Schema.of(TRANSACTIONS, V3_AND_BELOW_TRANSACTIONAL_ID, V3_AND_BELOW_PRODUCER_ID, V3_AND_BELOW_PRODUCER_EPOCH, V3_AND_BELOW_TOPICS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code ResultsByPartition}; a common struct in Kafka's schema. */
        public static final class AddPartitionsToTxnPartitionResult {
            private AddPartitionsToTxnPartitionResult() {
            }

            /** The partition indexes. */
            public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
            /** The response error code. */
            public static final Field<Short> PARTITION_ERROR_CODE = Field.int16("PartitionErrorCode");
            public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, PARTITION_ERROR_CODE);
        }

        /** An element of {@code TopicResults} (v4+) and {@code ResultsByTopicV3AndBelow} (v0-3); a common struct in Kafka's schema. */
        public static final class AddPartitionsToTxnTopicResult {
            private AddPartitionsToTxnTopicResult() {
            }

            /** The topic name. */
            public static final Field<String> NAME = Field.string("Name");
            /** The results for each partition. */
            public static final Field<List<Struct>> RESULTS_BY_PARTITION = Field.array("ResultsByPartition", AddPartitionsToTxnPartitionResult.SCHEMA);
            public static final Schema SCHEMA = Schema.of(NAME, RESULTS_BY_PARTITION);
        }

        /** An element of {@code ResultsByTransaction}. */
        public static final class AddPartitionsToTxnResult {
            private AddPartitionsToTxnResult() {
            }

            /** The transactional id corresponding to the transaction. */
            public static final Field<String> TRANSACTIONAL_ID = Field.string("TransactionalId").versions(4);
            /** The results for each topic. */
            public static final Field<List<Struct>> TOPIC_RESULTS = Field.array("TopicResults", AddPartitionsToTxnTopicResult.SCHEMA).versions(4);
            public static final Schema SCHEMA = Schema.of(TRANSACTIONAL_ID, TOPIC_RESULTS);
        }

        /** Duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The response top level error code. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode").versions(4);
        /** Results categorized by transactional ID. */
        public static final Field<List<Struct>> RESULTS_BY_TRANSACTION = Field.array("ResultsByTransaction", AddPartitionsToTxnResult.SCHEMA).versions(4);
        /** The results for each topic. */
        public static final Field<List<Struct>> RESULTS_BY_TOPIC_V3_AND_BELOW = Field.array("ResultsByTopicV3AndBelow", AddPartitionsToTxnTopicResult.SCHEMA).versions(0, 3);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, RESULTS_BY_TRANSACTION, RESULTS_BY_TOPIC_V3_AND_BELOW);
    }
}
