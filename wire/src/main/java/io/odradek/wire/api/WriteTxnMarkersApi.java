package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;

/**
 * WriteTxnMarkers (key 27): versions 0-2, flexible from v1. Fields and version ranges as in Kafka 4.4's message
 * schemas; v0 (the same fields, non-flexible, sent by brokers before Kafka 2.4), which Kafka 4.0 dropped
 * (KIP-896), as in Kafka 3.9.1's.
 */
public final class WriteTxnMarkersApi {
    public static final ApiSpec SPEC = new ApiSpec(27, "WriteTxnMarkers", 0, 2, 1,
            Request.SCHEMA, Response.SCHEMA);

    private WriteTxnMarkersApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Markers}. */
        public static final class WritableTxnMarker {
            private WritableTxnMarker() {
            }

            /** An element of {@code Topics}. */
            public static final class WritableTxnMarkerTopic {
                private WritableTxnMarkerTopic() {
                }

                /** The topic name. */
                public static final Field<String> NAME = Field.string("Name");
                /** The indexes of the partitions to write transaction markers for. */
                public static final Field<List<Integer>> PARTITION_INDEXES = Field.array("PartitionIndexes", Types.INT32);
                public static final Schema SCHEMA = Schema.of(NAME, PARTITION_INDEXES);
            }

            /** The current producer ID. */
            public static final Field<Long> PRODUCER_ID = Field.int64("ProducerId");
            /** The current epoch associated with the producer ID. */
            public static final Field<Short> PRODUCER_EPOCH = Field.int16("ProducerEpoch");
            /** The result of the transaction to write to the partitions (false = ABORT, true = COMMIT). */
            public static final Field<Boolean> TRANSACTION_RESULT = Field.bool("TransactionResult");
            /** Each topic that we want to write transaction marker(s) for. */
            public static final Field<List<Struct>> TOPICS = Field.array("Topics", WritableTxnMarkerTopic.SCHEMA);
            /** Epoch associated with the transaction state partition hosted by this transaction coordinator. */
            public static final Field<Integer> COORDINATOR_EPOCH = Field.int32("CoordinatorEpoch");
            /** Transaction version of the marker. Ex: 0/1 = legacy (TV0/TV1), 2 = TV2 etc. */
            public static final Field<Byte> TRANSACTION_VERSION = Field.int8("TransactionVersion").versions(2);
            public static final Schema SCHEMA = Schema.of(PRODUCER_ID, PRODUCER_EPOCH, TRANSACTION_RESULT, TOPICS, COORDINATOR_EPOCH, TRANSACTION_VERSION);
        }

        /** The transaction markers to be written. */
        public static final Field<List<Struct>> MARKERS = Field.array("Markers", WritableTxnMarker.SCHEMA);
        public static final Schema SCHEMA = Schema.of(MARKERS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Markers}. */
        public static final class WritableTxnMarkerResult {
            private WritableTxnMarkerResult() {
            }

            /** An element of {@code Topics}. */
            public static final class WritableTxnMarkerTopicResult {
                private WritableTxnMarkerTopicResult() {
                }

                /** An element of {@code Partitions}. */
                public static final class WritableTxnMarkerPartitionResult {
                    private WritableTxnMarkerPartitionResult() {
                    }

                    /** The partition index. */
                    public static final Field<Integer> PARTITION_INDEX = Field.int32("PartitionIndex");
                    /** The error code, or 0 if there was no error. */
                    public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
                    public static final Schema SCHEMA = Schema.of(PARTITION_INDEX, ERROR_CODE);
                }

                /** The topic name. */
                public static final Field<String> NAME = Field.string("Name");
                /** The results by partition. */
                public static final Field<List<Struct>> PARTITIONS = Field.array("Partitions", WritableTxnMarkerPartitionResult.SCHEMA);
                public static final Schema SCHEMA = Schema.of(NAME, PARTITIONS);
            }

            /** The current producer ID in use by the transactional ID. */
            public static final Field<Long> PRODUCER_ID = Field.int64("ProducerId");
            /** The results by topic. */
            public static final Field<List<Struct>> TOPICS = Field.array("Topics", WritableTxnMarkerTopicResult.SCHEMA);
            public static final Schema SCHEMA = Schema.of(PRODUCER_ID, TOPICS);
        }

        /** The results for writing makers. */
        public static final Field<List<Struct>> MARKERS = Field.array("Markers", WritableTxnMarkerResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(MARKERS);
    }
}
