package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * DescribeTransactions (key 65): version 0, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class DescribeTransactionsApi {
    public static final ApiSpec SPEC = new ApiSpec(65, "DescribeTransactions", 0, 0, 0,
            Request.SCHEMA, Response.SCHEMA);

    private DescribeTransactionsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** Array of transactionalIds to include in describe results. If empty, then no results will be returned. */
        public static final Field<List<String>> TRANSACTIONAL_IDS = Field.array("TransactionalIds", Types.STRING);
        public static final Schema SCHEMA = Schema.of(TRANSACTIONAL_IDS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code TransactionStates}. */
        public static final class TransactionState {
            private TransactionState() {
            }

            /** An element of {@code Topics}. */
            public static final class TopicData {
                private TopicData() {
                }

                /** The topic name. */
                public static final Field<String> TOPIC = Field.string("Topic");
                /** The partition ids included in the current transaction. */
                public static final Field<List<Integer>> PARTITIONS = Field.array("Partitions", Types.INT32);
                public static final Schema SCHEMA = Schema.of(TOPIC, PARTITIONS);
            }

            /** The error code. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The transactional id. */
            public static final Field<String> TRANSACTIONAL_ID = Field.string("TransactionalId");
            /** The current transaction state of the producer. */
            public static final Field<String> TRANSACTION_STATE = Field.string("TransactionState");
            /** The timeout in milliseconds for the transaction. */
            public static final Field<Integer> TRANSACTION_TIMEOUT_MS = Field.int32("TransactionTimeoutMs");
            /** The start time of the transaction in milliseconds. */
            public static final Field<Long> TRANSACTION_START_TIME_MS = Field.int64("TransactionStartTimeMs");
            /** The current producer id associated with the transaction. */
            public static final Field<Long> PRODUCER_ID = Field.int64("ProducerId");
            /** The current epoch associated with the producer id. */
            public static final Field<Short> PRODUCER_EPOCH = Field.int16("ProducerEpoch");
            /** The set of partitions included in the current transaction (if active). When a transaction is preparing to commit or abort, this will include only partitions which do not have markers. */
            public static final Field<List<Struct>> TOPICS = Field.array("Topics", TopicData.SCHEMA);
            public static final Schema SCHEMA = Schema.of(ERROR_CODE, TRANSACTIONAL_ID, TRANSACTION_STATE, TRANSACTION_TIMEOUT_MS, TRANSACTION_START_TIME_MS, PRODUCER_ID, PRODUCER_EPOCH, TOPICS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The current state of the transaction. */
        public static final Field<List<Struct>> TRANSACTION_STATES = Field.array("TransactionStates", TransactionState.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, TRANSACTION_STATES);
    }
}
