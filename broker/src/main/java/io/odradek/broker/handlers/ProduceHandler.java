package io.odradek.broker.handlers;

import io.netty.buffer.ByteBuf;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.CloseConnectionException;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.fetch.CancelOnClose;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.log.LogAppendException;
import io.odradek.log.LogException;
import io.odradek.replication.partition.DelayedOperation;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.Partitions;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Produce (key 0), versions 3-13.
 *
 * <p>Behaviour / version notes:
 * <ul>
 * <li>Each partition's records field is a slice of the request frame, retained and handed to the
 *     partition's writer thread ({@link Partition#appendAsLeader}, one task per partition per request), so
 *     the append and its disk work (segment roll, index mapping) never run on the event loop. The bytes are
 *     never decoded or copied: the log stamps offsets into the headers in place and writes them with one
 *     positional write. The slice is released when the append ends, whichever way.</li>
 * <li>Request checks as Kafka's {@code ProduceRequest.validateRecords}: exactly one v2 batch per partition,
 *     else INVALID_RECORD; ZSTD below v7 is UNSUPPORTED_COMPRESSION_TYPE. Null or empty records are
 *     INVALID_RECORD too (Kafka's check lets null through to fail later as an unknown server error).
 *     Everything else (CRC, lengths, max.message.bytes, producer epoch and sequence) is the log's, whose
 *     {@code LogAppendException} carries the error code; its message goes in error_message (v8+), and
 *     the records it names (a compacted topic's keyless records, out-of-range timestamps) go in
 *     record_errors (v8+) with their index in the batch, as Kafka's RecordValidationException. The log
 *     walks every record before appending (see {@code BatchValidator}) unless
 *     {@code odradek.produce.validation=header}.</li>
 * <li>acks must be -1, 0 or 1, else every partition gets INVALID_REQUIRED_ACKS. acks=1 answers once every
 *     partition's append is in the log. acks=all then waits, in the waiting-operations set, until each
 *     appended partition's high watermark passes its last offset: at once on one node; after timeout_ms
 *     the partitions still short get REQUEST_TIMED_OUT (base offset kept), as Kafka's DelayedProduce; a
 *     closed connection drops the wait. min.insync.replicas is not checked yet (one node, one replica).
 *     acks=0 sends no response; if a partition failed, the connection is closed instead, as Kafka does, so
 *     the client refreshes its metadata.</li>
 * <li>Unknown topic or partition: UNKNOWN_TOPIC_OR_PARTITION (Kafka 4 does not auto-create on produce);
 *     v13 names topics by id, an unknown id is UNKNOWN_TOPIC_ID. Internal topics (__consumer_offsets,
 *     __transaction_state) take no client writes: INVALID_TOPIC_EXCEPTION, as in Kafka.</li>
 * <li>Transactions are not implemented yet. As in Kafka, transactional batches without a transactional_id
 *     fail the whole request with TRANSACTIONAL_ID_AUTHORIZATION_FAILED; with one, each partition fails
 *     with INVALID_TXN_STATE, which is what Kafka answers when the coordinator does not know the partition
 *     to be in the transaction (clients treat it as fatal). Non-transactional batches are appended whether
 *     or not a transactional_id is set, as in Kafka.</li>
 * <li>A retried batch already in the log is answered with its original base offset and no error.</li>
 * <li>A successful append wakes the fetches parked on that partition (the Partition does it).</li>
 * </ul>
 */
public final class ProduceHandler implements ApiHandler {
    private static final int ZSTD = 4;
    private static final long UNKNOWN = -1L;
    private static final short ACKS_ALL = -1;
    /** Written only by the broker itself; Kafka lets its own admin client id through, and so do we. */
    private static final Set<String> INTERNAL_TOPICS = Set.of("__consumer_offsets", "__transaction_state");
    private static final String ADMIN_CLIENT_ID = "__admin_client";

    private final PartitionLogs topics;
    private final Partitions partitions;

    public ProduceHandler(PartitionLogs topics, Partitions partitions) {
        this.topics = topics;
        this.partitions = partitions;
    }

    @Override
    public ApiSpec api() {
        return ProduceApi.SPEC;
    }

    /** A partition whose append succeeded, for the acks=all wait. */
    private record Appended(Partition partition, long lastOffset, Struct out) {
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        short version = context.version();
        short acks = request.get(Request.ACKS);
        String transactionalId = request.get(Request.TRANSACTIONAL_ID);
        List<Struct> topicData = request.get(Request.TOPIC_DATA);

        ErrorCode requestError = null;
        if (acks != -1 && acks != 0 && acks != 1) {
            requestError = ErrorCode.INVALID_REQUIRED_ACKS;
        } else if (transactionalId == null && hasTransactionalRecords(topicData)) {
            requestError = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
        }

        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
        AtomicBoolean failed = new AtomicBoolean();
        List<CompletableFuture<Void>> appends = new ArrayList<>();
        Queue<Appended> appended = new ConcurrentLinkedQueue<>();
        for (Struct topic : topicData) {
            Struct topicResponse = response.add(Response.RESPONSES);
            String name;
            if (version >= 13) {
                UUID id = topic.get(TopicProduceData.TOPIC_ID);
                topicResponse.set(TopicProduceResponse.TOPIC_ID, id);
                name = topics.topicName(id).orElse(null);
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
                    failed.set(true);
                    continue;
                }
                CompletableFuture<Void> append = produce(version, context.clientId(), transactionalId, name, index,
                        acks, partition.get(PartitionProduceData.RECORDS), out, failed, appended);
                if (append != null) {
                    appends.add(append);
                }
            }
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new));
        if (acks == 0) {
            return all.thenApply(v -> {
                if (failed.get()) {
                    throw new ProduceWithoutAcksFailed(describeErrors(response));
                }
                return null;
            });
        }
        if (acks == ACKS_ALL) {
            int timeoutMs = Math.max(0, request.get(Request.TIMEOUT_MS));
            return all.thenCompose(v -> awaitHighWatermark(context, List.copyOf(appended), timeoutMs, response));
        }
        return all.thenApply(v -> response);
    }

    /**
     * Checks one partition's records and hands them to its writer; fills in its response when the append
     * ends. Returns the append's future, or null when the partition was refused here (response filled in).
     */
    private CompletableFuture<Void> produce(short version, String clientId, String transactionalId, String topic,
            int index, short acks, Records records, Struct out, AtomicBoolean failed, Queue<Appended> appended) {
        ErrorCode refused = null;
        String why = null;
        Optional<Partition> found = topic == null ? Optional.empty() : partitions.partition(topic, index);
        if (topic == null) {
            refused = ErrorCode.UNKNOWN_TOPIC_ID;
        } else if (found.isEmpty()) {
            refused = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
        } else if (INTERNAL_TOPICS.contains(topic) && !ADMIN_CLIENT_ID.equals(clientId)) {
            refused = ErrorCode.INVALID_TOPIC_EXCEPTION;
            why = "Cannot append to internal topic " + topic;
        } else if (!(records instanceof MemoryRecords memory) || memory.sizeInBytes() == 0) {
            refused = ErrorCode.INVALID_RECORD;
            why = "Produce requests with version " + version + " must have at least one record batch per partition";
        } else if ((refused = validateRecords(version, memory.buffer())) != null) {
            why = invalidMessage(version, refused);
        } else if (transactionalId != null && isTransactional(memory.buffer())) {
            refused = ErrorCode.INVALID_TXN_STATE;
            why = "transactions are not supported by this broker yet (transactional.id " + transactionalId + ")";
        }
        if (refused != null) {
            fail(out, refused, why);
            failed.set(true);
            return null;
        }
        Partition partition = found.get();
        // The frame is released when handle() returns: keep its bytes alive until the writer is done with
        // them. A view, not a copy: the log stamps offsets into it and writes it out.
        ByteBuf frameBytes = ((MemoryRecords) records).buffer().retainedSlice();
        return partition.appendAsLeader(frameBytes.nioBuffer(), acks).handle((result, error) -> {
            frameBytes.release();
            if (error != null) {
                appendFailed(version, out, unwrap(error));
                failed.set(true);
            } else {
                out.set(PartitionProduceResponse.ERROR_CODE, ErrorCode.NONE.code())
                        .set(PartitionProduceResponse.BASE_OFFSET, result.baseOffset())
                        .set(PartitionProduceResponse.LOG_APPEND_TIME_MS, result.logAppendTime())
                        .set(PartitionProduceResponse.LOG_START_OFFSET, result.logStartOffset());
                if (acks == ACKS_ALL) {
                    appended.add(new Appended(partition, result.lastOffset(), out));
                }
            }
            return null;
        });
    }

    /**
     * A refused append's partition response. The log's {@link LogException} carries the error code and
     * message; record-level errors (v8+ record_errors) from a {@code LogAppendException} go in here too.
     */
    private static void appendFailed(short version, Struct out, Throwable error) {
        if (error instanceof LogException e) {
            fail(out, e.errorCode(), e.getMessage());
            addRecordErrors(version, out, e);
        } else {
            fail(out, ErrorCode.UNKNOWN_SERVER_ERROR, "append failed: " + error);
        }
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /**
     * acks=all: answers once the high watermark of every appended partition has passed its last offset (at
     * once on one node), or after timeout_ms with REQUEST_TIMED_OUT on the partitions still short, as Kafka's
     * DelayedProduce. Waits in the waiting-operations set, and is dropped if the connection closes.
     */
    private CompletableFuture<Struct> awaitHighWatermark(RequestContext context, List<Appended> appended,
            int timeoutMs, Struct response) {
        DelayedProduce produce = new DelayedProduce(appended, timeoutMs, response);
        if (produce.canComplete()) {
            return CompletableFuture.completedFuture(response);
        }
        List<Partition> keys = new ArrayList<>();
        for (Appended a : appended) {
            keys.add(a.partition());
        }
        partitions.waiting().watch(produce, keys);
        CancelOnClose.bind(produce, context);
        return produce.future;
    }

    /** An acks=all produce waiting for its partitions' high watermarks; it only reads volatile offsets. */
    private static final class DelayedProduce extends DelayedOperation {
        final List<Appended> appended;
        final Struct response;
        final CompletableFuture<Struct> future = new CompletableFuture<>();

        DelayedProduce(List<Appended> appended, int timeoutMs, Struct response) {
            super(timeoutMs, DelayedOperation.INLINE);
            this.appended = appended;
            this.response = response;
        }

        @Override
        protected boolean canComplete() {
            for (Appended a : appended) {
                if (!replicated(a)) {
                    return false;
                }
            }
            return true;
        }

        private static boolean replicated(Appended a) {
            return a.partition().highWatermark() > a.lastOffset();
        }

        @Override
        protected void onComplete(Outcome outcome) {
            switch (outcome) {
                case SATISFIED -> future.complete(response);
                case EXPIRED -> {
                    // Kafka keeps the assigned base offset and sets the error on the partitions not yet replicated.
                    for (Appended a : appended) {
                        if (!replicated(a)) {
                            a.out().set(PartitionProduceResponse.ERROR_CODE, ErrorCode.REQUEST_TIMED_OUT.code())
                                    .set(PartitionProduceResponse.ERROR_MESSAGE, "the high watermark did not reach offset "
                                            + a.lastOffset() + " within timeout_ms");
                        }
                    }
                    future.complete(response);
                }
                // Its connection is gone: no response (null, as for acks=0), so nothing is logged or written.
                case CANCELLED -> future.complete(null);
                case FAILED -> future.completeExceptionally(failure());
            }
        }
    }

    /** Kafka's record_errors (v8+): index and reason of each record that made the log refuse the batch. */
    private static void addRecordErrors(short version, Struct out, LogException e) {
        if (version >= 8 && e instanceof LogAppendException refused) {
            for (LogAppendException.RecordError r : refused.recordErrors()) {
                out.add(PartitionProduceResponse.RECORD_ERRORS)
                        .set(PartitionProduceResponse.BatchIndexAndErrorMessage.BATCH_INDEX, r.batchIndex())
                        .set(PartitionProduceResponse.BatchIndexAndErrorMessage.BATCH_INDEX_ERROR_MESSAGE, r.message());
            }
        }
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
    static final class ProduceWithoutAcksFailed extends CloseConnectionException {
        private static final long serialVersionUID = 1L;

        ProduceWithoutAcksFailed(String message) {
            super(message);
        }
    }
}
