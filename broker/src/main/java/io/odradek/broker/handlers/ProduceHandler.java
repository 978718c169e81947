package io.odradek.broker.handlers;

import io.netty.buffer.ByteBuf;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.fetch.DelayedFetches;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.log.AppendResult;
import io.odradek.log.LogAppendException;
import io.odradek.log.LogException;
import io.odradek.log.PartitionLog;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.api.ProduceApi.Request;
import io.odradek.wire.api.ProduceApi.Request.TopicProduceData;
import io.odradek.wire.api.ProduceApi.Request.TopicProduceData.PartitionProduceData;
import io.odradek.wire.api.ProduceApi.Response;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse;
import io.odradek.wire.api.ProduceApi.Response.TopicProduceResponse.PartitionProduceResponse;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Produce (key 0), versions 3-13.
 *
 * <p>Behaviour / version notes:
 * <ul>
 * <li>Each partition's records field is a slice of the request frame; its bytes go to
 *     {@link PartitionLog#append} synchronously, on the event loop, and are never decoded or copied (the
 *     log stamps offsets into the headers in place and writes them with one positional write).</li>
 * <li>Request checks as Kafka's {@code ProduceRequest.validateRecords}: exactly one v2 batch per partition,
 *     else INVALID_RECORD; ZSTD below v7 is UNSUPPORTED_COMPRESSION_TYPE. Null or empty records are
 *     INVALID_RECORD too (Kafka's check lets null through to fail later as an unknown server error).
 *     Everything else (CRC, lengths, max.message.bytes, producer epoch and sequence) is the log's, whose
 *     {@code LogAppendException} carries the error code; its message goes in error_message (v8+), and
 *     the records it names (a compacted topic's keyless records, out-of-range timestamps) go in
 *     record_errors (v8+) with their index in the batch, as Kafka's RecordValidationException. The log
 *     walks every record before appending (see {@code BatchValidator}) unless
 *     {@code odradek.produce.validation=header}.</li>
 * <li>acks must be -1, 0 or 1, else every partition gets INVALID_REQUIRED_ACKS. On one node acks=all is
 *     satisfied by the local append, so timeout_ms is not used. acks=0 sends no response; if a partition
 *     failed, the connection is closed instead, as Kafka does, so the client refreshes its metadata.</li>
 * <li>Unknown topic or partition: UNKNOWN_TOPIC_OR_PARTITION (Kafka 4 does not auto-create on produce);
 *     v13 names topics by id, an unknown id is UNKNOWN_TOPIC_ID. Internal topics (__consumer_offsets,
 *     __transaction_state) take no client writes: INVALID_TOPIC_EXCEPTION, as in Kafka.</li>
 * <li>Transactions are not implemented yet. As in Kafka, transactional batches without a transactional_id
 *     fail the whole request with TRANSACTIONAL_ID_AUTHORIZATION_FAILED; with one, each partition fails
 *     with INVALID_TXN_STATE, which is what Kafka answers when the coordinator does not know the partition
 *     to be in the transaction (clients treat it as fatal). Non-transactional batches are appended whether
 *     or not a transactional_id is set, as in Kafka.</li>
 * <li>A retried batch already in the log is answered with its original base offset and no error.</li>
 * <li>A successful append wakes the fetches parked on that partition.</li>
 * </ul>
 */
public final class ProduceHandler implements ApiHandler {
    private static final int ZSTD = 4;
    private static final long UNKNOWN = -1L;
    /** Written only by the broker itself; Kafka lets its own admin client id through, and so do we. */
    private static final Set<String> INTERNAL_TOPICS = Set.of("__consumer_offsets", "__transaction_state");
    private static final String ADMIN_CLIENT_ID = "__admin_client";

    private final PartitionLogs logs;
    private final DelayedFetches delayedFetches;

    public ProduceHandler(PartitionLogs logs, DelayedFetches delayedFetches) {
        this.logs = logs;
        this.delayedFetches = delayedFetches;
    }

    @Override
    public ApiSpec api() {
        return ProduceApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        short version = context.version();
        short acks = request.get(Request.ACKS);
        String transactionalId = request.get(Request.TRANSACTIONAL_ID);
        List<Struct> topics = request.get(Request.TOPIC_DATA);

        ErrorCode requestError = null;
        if (acks != -1 && acks != 0 && acks != 1) {
            requestError = ErrorCode.INVALID_REQUIRED_ACKS;
        } else if (transactionalId == null && hasTransactionalRecords(topics)) {
            requestError = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
        }

        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
        boolean failed = false;
        for (Struct topic : topics) {
            Struct topicResponse = response.add(Response.RESPONSES);
            String name;
            if (version >= 13) {
                UUID id = topic.get(TopicProduceData.TOPIC_ID);
                topicResponse.set(TopicProduceResponse.TOPIC_ID, id);
                name = logs.topicName(id).orElse(null);
            } else {
                name = topic.get(TopicProduceData.NAME);
                topicResponse.set(TopicProduceResponse.NAME, name);
            }
            for (Struct partition : topic.get(TopicProduceData.PARTITION_DATA)) {
                Struct out = topicResponse.add(TopicProduceResponse.PARTITION_RESPONSES);
                int index = partition.get(PartitionProduceData.INDEX);
                out.set(PartitionProduceResponse.INDEX, index);
                if (requestError != null) {
                    fail(out, requestError, null);
                    failed = true;
                } else if (!produce(version, context.clientId(), transactionalId, name, index,
                        partition.get(PartitionProduceData.RECORDS), out)) {
                    failed = true;
                }
            }
        }
        if (acks == 0) {
            return failed
                    ? CompletableFuture.failedFuture(new ProduceWithoutAcksFailed(describeErrors(response)))
                    : CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.completedFuture(response);
    }

    /** Appends one partition's records and fills in its response; false if it failed. */
    private boolean produce(short version, String clientId, String transactionalId, String topic, int partition,
            Records records, Struct out) {
        if (topic == null) {
            return fail(out, ErrorCode.UNKNOWN_TOPIC_ID, null);
        }
        Optional<PartitionLog> found = logs.partitionLog(topic, partition);
        if (found.isEmpty()) {
            return fail(out, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null);
        }
        if (INTERNAL_TOPICS.contains(topic) && !ADMIN_CLIENT_ID.equals(clientId)) {
            return fail(out, ErrorCode.INVALID_TOPIC_EXCEPTION, "Cannot append to internal topic " + topic);
        }
        if (!(records instanceof MemoryRecords memory) || memory.sizeInBytes() == 0) {
            return fail(out, ErrorCode.INVALID_RECORD, "Produce requests with version " + version
                    + " must have at least one record batch per partition");
        }
        ErrorCode invalid = validateRecords(version, memory.buffer());
        if (invalid != null) {
            return fail(out, invalid, invalidMessage(version, invalid));
        }
        if (transactionalId != null && isTransactional(memory.buffer())) {
            return fail(out, ErrorCode.INVALID_TXN_STATE,
                    "transactions are not supported by this broker yet (transactional.id " + transactionalId + ")");
        }
        PartitionLog log = found.get();
        AppendResult result;
        try {
            // A view of the frame's bytes, not a copy: the log stamps offsets into it and writes it out.
            result = log.append(memory.buffer().nioBuffer(), 0);
        } catch (LogException e) {
            fail(out, e.errorCode(), e.getMessage());
            return addRecordErrors(version, out, e);
        }
        out.set(PartitionProduceResponse.ERROR_CODE, ErrorCode.NONE.code())
                .set(PartitionProduceResponse.BASE_OFFSET, result.baseOffset())
                .set(PartitionProduceResponse.LOG_APPEND_TIME_MS, result.logAppendTime())
                .set(PartitionProduceResponse.LOG_START_OFFSET, result.logStartOffset());
        if (!result.duplicate()) {
            delayedFetches.onAppend(log);
        }
        return true;
    }

    /** Kafka's record_errors (v8+): index and reason of each record that made the log refuse the batch; false. */
    private static boolean addRecordErrors(short version, Struct out, LogException e) {
        if (version >= 8 && e instanceof LogAppendException refused) {
            for (LogAppendException.RecordError r : refused.recordErrors()) {
                out.add(PartitionProduceResponse.RECORD_ERRORS)
                        .set(PartitionProduceResponse.BatchIndexAndErrorMessage.BATCH_INDEX, r.batchIndex())
                        .set(PartitionProduceResponse.BatchIndexAndErrorMessage.BATCH_INDEX_ERROR_MESSAGE, r.message());
            }
        }
        return false;
    }

    private static boolean fail(Struct out, ErrorCode error, String message) {
        out.set(PartitionProduceResponse.ERROR_CODE, error.code())
                .set(PartitionProduceResponse.BASE_OFFSET, UNKNOWN)
                .set(PartitionProduceResponse.LOG_APPEND_TIME_MS, UNKNOWN)
                .set(PartitionProduceResponse.LOG_START_OFFSET, UNKNOWN)
                .set(PartitionProduceResponse.ERROR_MESSAGE, message);
        return false;
    }

    /**
     * Kafka's request-level checks: exactly one batch, magic 2, no ZSTD before v7. A header too short to
     * read is left to the log, which reports it as CORRUPT_MESSAGE.
     */
    private static ErrorCode validateRecords(short version, ByteBuf records) {
        int pos = records.readerIndex();
        int size = records.readableBytes();
        if (size > RecordBatchHeader.MAGIC_OFFSET && records.getByte(pos + RecordBatchHeader.MAGIC_OFFSET) != RecordBatchHeader.MAGIC_V2) {
            return ErrorCode.INVALID_RECORD;
        }
        if (size >= RecordBatchHeader.LOG_OVERHEAD) {
            long first = (long) RecordBatchHeader.LOG_OVERHEAD + records.getInt(pos + RecordBatchHeader.BATCH_LENGTH_OFFSET);
            if (first >= RecordBatchHeader.HEADER_SIZE && first < size) {
                return ErrorCode.INVALID_RECORD; // a second batch follows
            }
        }
        if (version < 7 && size >= RecordBatchHeader.ATTRIBUTES_OFFSET + 2
                && (records.getShort(pos + RecordBatchHeader.ATTRIBUTES_OFFSET) & 0x7) == ZSTD) {
            return ErrorCode.UNSUPPORTED_COMPRESSION_TYPE;
        }
        return null;
    }

    private static String invalidMessage(short version, ErrorCode error) {
        return error == ErrorCode.UNSUPPORTED_COMPRESSION_TYPE
                ? "Produce requests with version " + version + " are not allowed to use ZStandard compression"
                : "Produce requests with version " + version
                        + " are only allowed to contain exactly one record batch with magic version 2 per partition";
    }

    /** The first batch's transactional attribute bit, read in place. */
    private static boolean isTransactional(ByteBuf records) {
        return records.readableBytes() >= RecordBatchHeader.ATTRIBUTES_OFFSET + 2
                && (records.getShort(records.readerIndex() + RecordBatchHeader.ATTRIBUTES_OFFSET) & 0x10) != 0;
    }

    /** Kafka's {@code RequestUtils.hasTransactionalRecords}: the first batch of any partition. */
    private static boolean hasTransactionalRecords(List<Struct> topics) {
        for (Struct topic : topics) {
            for (Struct partition : topic.get(TopicProduceData.PARTITION_DATA)) {
                if (partition.get(PartitionProduceData.RECORDS) instanceof MemoryRecords memory
                        && isTransactional(memory.buffer())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String describeErrors(Struct response) {
        StringBuilder sb = new StringBuilder("produce with acks=0 failed, closing the connection as Kafka does:");
        for (Struct topic : response.get(Response.RESPONSES)) {
            for (Struct p : topic.get(TopicProduceResponse.PARTITION_RESPONSES)) {
                short code = p.get(PartitionProduceResponse.ERROR_CODE);
                if (code != ErrorCode.NONE.code()) {
                    String name = topic.get(TopicProduceResponse.NAME);
                    sb.append(' ').append(name != null ? name : topic.get(TopicProduceResponse.TOPIC_ID))
                            .append('-').append(p.get(PartitionProduceResponse.INDEX))
                            .append('=').append(ErrorCode.forCode(code));
                }
            }
        }
        return sb.toString();
    }

    /** Completes an acks=0 produce that failed: the connection is closed, the client's only signal. */
    static final class ProduceWithoutAcksFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ProduceWithoutAcksFailed(String message) {
            super(message, null, false, false);
        }
    }
}
