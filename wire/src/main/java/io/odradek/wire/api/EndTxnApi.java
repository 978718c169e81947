package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;

/**
 * EndTxn (key 26): versions 0-5, flexible from v3. Fields and version ranges as in Kafka 4.4's message schemas.
 * v5+ is transaction.version 2 (KIP-890): the response carries the producer id and the bumped epoch.
 */
public final class EndTxnApi {
    public static final ApiSpec SPEC = new ApiSpec(26, "EndTxn", 0, 5, 3,
            Request.SCHEMA, Response.SCHEMA);

    private EndTxnApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The ID of the transaction to end. */
        public static final Field<String> TRANSACTIONAL_ID = Field.string("TransactionalId");
        /** The producer ID. */
        public static final Field<Long> PRODUCER_ID = Field.int64("ProducerId");
        /** The current epoch associated with the producer. */
        public static final Field<Short> PRODUCER_EPOCH = Field.int16("ProducerEpoch");
        /** True if the transaction was committed, false if it was aborted. */
        public static final Field<Boolean> COMMITTED = Field.bool("Committed");
        public static final Schema SCHEMA = Schema.of(TRANSACTIONAL_ID, PRODUCER_ID, PRODUCER_EPOCH, COMMITTED);
    }

    public static final class Response {
        private Response() {
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The producer ID. */
        public static final Field<Long> PRODUCER_ID = Field.int64("ProducerId").versions(5).withDefault(-1L);
        /** The current epoch associated with the producer. */
        public static final Field<Short> PRODUCER_EPOCH = Field.int16("ProducerEpoch").versions(5).withDefault((short) -1);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, PRODUCER_ID, PRODUCER_EPOCH);
    }
}
