package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;

/**
 * InitProducerId (key 22): versions 0-6, flexible from v2. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class InitProducerIdApi {
    public static final ApiSpec SPEC = new ApiSpec(22, "InitProducerId", 0, 6, 2,
            Request.SCHEMA, Response.SCHEMA);

    private InitProducerIdApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The transactional id, or null if the producer is not transactional. */
        public static final Field<String> TRANSACTIONAL_ID = Field.string("TransactionalId").nullable().withDefault("");
        /** The time in ms to wait before aborting idle transactions sent by this producer. This is only relevant if a TransactionalId has been defined. */
        public static final Field<Integer> TRANSACTION_TIMEOUT_MS = Field.int32("TransactionTimeoutMs");
        /** The producer id. This is used to disambiguate requests if a transactional id is reused following its expiration. */
        public static final Field<Long> PRODUCER_ID = Field.int64("ProducerId").versions(3).withDefault(-1L);
        /** The producer's current epoch. This will be checked against the producer epoch on the broker, and the request will return an error if they do not match. */
        public static final Field<Short> PRODUCER_EPOCH = Field.int16("ProducerEpoch").versions(3).withDefault((short) -1);
        /** True if the client wants to enable two-phase commit (2PC) protocol for transactions. */
        public static final Field<Boolean> ENABLE2_PC = Field.bool("Enable2Pc").versions(6);
        /** True if the client wants to keep the currently ongoing transaction instead of aborting it. */
        public static final Field<Boolean> KEEP_PREPARED_TXN = Field.bool("KeepPreparedTxn").versions(6);
        public static final Schema SCHEMA = Schema.of(TRANSACTIONAL_ID, TRANSACTION_TIMEOUT_MS, PRODUCER_ID, PRODUCER_EPOCH, ENABLE2_PC, KEEP_PREPARED_TXN);
    }

    public static final class Response {
        private Response() {
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The current producer id. */
        public static final Field<Long> PRODUCER_ID = Field.int64("ProducerId").withDefault(-1L);
        /** The current epoch associated with the producer id. */
        public static final Field<Short> PRODUCER_EPOCH = Field.int16("ProducerEpoch");
        /** The producer id for ongoing transaction when KeepPreparedTxn is used, -1 if there is no transaction ongoing. */
        public static final Field<Long> ONGOING_TXN_PRODUCER_ID = Field.int64("OngoingTxnProducerId").versions(6).withDefault(-1L);
        /** The epoch associated with the  producer id for ongoing transaction when KeepPreparedTxn is used, -1 if there is no transaction ongoing. */
        public static final Field<Short> ONGOING_TXN_PRODUCER_EPOCH = Field.int16("OngoingTxnProducerEpoch").versions(6).withDefault((short) -1);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, PRODUCER_ID, PRODUCER_EPOCH, ONGOING_TXN_PRODUCER_ID, ONGOING_TXN_PRODUCER_EPOCH);
    }
}
