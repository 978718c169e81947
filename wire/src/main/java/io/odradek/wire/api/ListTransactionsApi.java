package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * ListTransactions (key 66): versions 0-2, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class ListTransactionsApi {
    public static final ApiSpec SPEC = new ApiSpec(66, "ListTransactions", 0, 2, 0,
            Request.SCHEMA, Response.SCHEMA);

    private ListTransactionsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The transaction states to filter by: if empty, all transactions are returned; if non-empty, then only transactions matching one of the filtered states will be returned. */
        public static final Field<List<String>> STATE_FILTERS = Field.array("StateFilters", Types.STRING);
        /** The producerIds to filter by: if empty, all transactions will be returned; if non-empty, only transactions which match one of the filtered producerIds will be returned. */
        public static final Field<List<Long>> PRODUCER_ID_FILTERS = Field.array("ProducerIdFilters", Types.INT64);
        /** Duration (in millis) to filter by: if &lt; 0, all transactions will be returned; otherwise, only transactions running longer than this duration will be returned. */
        public static final Field<Long> DURATION_FILTER = Field.int64("DurationFilter").versions(1).withDefault(-1L);
        /** The transactional ID regular expression pattern to filter by: if it is empty or null, all transactions are returned; Otherwise then only the transactions matching the given regular expression will be returned. */
        public static final Field<String> TRANSACTIONAL_ID_PATTERN = Field.string("TransactionalIdPattern").versions(2).nullable();
        public static final Schema SCHEMA = Schema.of(STATE_FILTERS, PRODUCER_ID_FILTERS, DURATION_FILTER, TRANSACTIONAL_ID_PATTERN);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code TransactionStates}. */
        public static final class TransactionState {
            private TransactionState() {
            }

            /** The transactional id. */
            public static final Field<String> TRANSACTIONAL_ID = Field.string("TransactionalId");
            /** The producer id. */
            public static final Field<Long> PRODUCER_ID = Field.int64("ProducerId");
            /** The current transaction state of the producer. */
            public static final Field<String> TRANSACTION_STATE = Field.string("TransactionState");
            public static final Schema SCHEMA = Schema.of(TRANSACTIONAL_ID, PRODUCER_ID, TRANSACTION_STATE);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** Set of state filters provided in the request which were unknown to the transaction coordinator. */
        public static final Field<List<String>> UNKNOWN_STATE_FILTERS = Field.array("UnknownStateFilters", Types.STRING);
        /** The current state of the transaction for the transactional id. */
        public static final Field<List<Struct>> TRANSACTION_STATES = Field.array("TransactionStates", TransactionState.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, UNKNOWN_STATE_FILTERS, TRANSACTION_STATES);
    }
}
