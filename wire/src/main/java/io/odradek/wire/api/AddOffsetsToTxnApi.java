package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;

/**
 * AddOffsetsToTxn (key 25): versions 0-4, flexible from v3. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class AddOffsetsToTxnApi {
    public static final ApiSpec SPEC = new ApiSpec(25, "AddOffsetsToTxn", 0, 4, 3,
            Request.SCHEMA, Response.SCHEMA);

    private AddOffsetsToTxnApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The transactional id corresponding to the transaction. */
        public static final Field<String> TRANSACTIONAL_ID = Field.string("TransactionalId");
        /** Current producer id in use by the transactional id. */
        public static final Field<Long> PRODUCER_ID = Field.int64("ProducerId");
        /** Current epoch associated with the producer id. */
        public static final Field<Short> PRODUCER_EPOCH = Field.int16("ProducerEpoch");
        /** The unique group identifier. */
        public static final Field<String> GROUP_ID = Field.string("GroupId");
        public static final Schema SCHEMA = Schema.of(TRANSACTIONAL_ID, PRODUCER_ID, PRODUCER_EPOCH, GROUP_ID);
    }

    public static final class Response {
        private Response() {
        }

        /** Duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The response error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE);
    }
}
