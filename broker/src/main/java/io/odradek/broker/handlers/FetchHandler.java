package io.odradek.broker.handlers;

import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.fetch.DelayedFetches;
import io.odradek.broker.fetch.FileSliceRecords;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.log.FileSlice;
import io.odradek.log.LogException;
import io.odradek.log.PartitionLog;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.FetchApi.Request;
import io.odradek.wire.api.FetchApi.Request.FetchTopic;
import io.odradek.wire.api.FetchApi.Request.FetchTopic.FetchPartition;
import io.odradek.wire.api.FetchApi.Response;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Fetch (key 1), versions 4-18.
 *
 * <p>Behaviour / version notes:
 * <ul>
 * <li>No fetch sessions (KIP-227): every request is served in full and answered with session_id 0, which
 *     tells Kafka's {@code FetchSessionHandler} that no session was created, so it keeps sending full
 *     requests (session_id 0, epoch 0). An incremental request (epoch other than 0 / -1) names a session
 *     we cannot have: FETCH_SESSION_ID_NOT_FOUND at the top level, as Kafka answers for an unknown session;
 *     the client then starts over with a full request. forgotten_topics_data only matters in a session.</li>
 * <li>v13+ name topics by id (unknown: UNKNOWN_TOPIC_ID); older versions by name (unknown topic or
 *     partition: UNKNOWN_TOPIC_OR_PARTITION). Errored partitions carry -1 offsets and empty records.</li>
 * <li>Records are a slice of a segment file, written to the socket as a file region (sendfile with epoll):
 *     never read into the heap. Sizes as in Kafka's ReplicaManager (KIP-74): each partition gets
 *     min(partition_max_bytes, what is left of max_bytes); the first non-empty partition always gets its
 *     whole first batch, later ones get nothing rather than more than their limit.</li>
 * <li>last_stable_offset = high watermark and read_committed = read_uncommitted until transactions exist;
 *     aborted_transactions is an empty list for read_committed and null otherwise, as Kafka sends them.
 *     preferred_read_replica is -1. Requests from replicas (replica_id / replica_state) are served like a
 *     consumer's: there are no followers yet.</li>
 * <li>Fewer than min_bytes available and max_wait_ms > 0: the fetch parks in {@link DelayedFetches}. An
 *     append to any of its partitions re-checks it on the connection's event loop; a timer on that loop
 *     answers it after max_wait_ms with whatever is there. Any partition error answers at once.</li>
 * </ul>
 */
public final class FetchHandler implements ApiHandler {
    private static final MemoryRecords NO_RECORDS = new MemoryRecords(Unpooled.EMPTY_BUFFER);
    private static final int INITIAL_EPOCH = 0;
    private static final int FINAL_EPOCH = -1;
    private static final byte READ_COMMITTED = 1;

    private final PartitionLogs logs;
    private final DelayedFetches delayedFetches;

    public FetchHandler(PartitionLogs logs, DelayedFetches delayedFetches) {
        this.logs = logs;
        this.delayedFetches = delayedFetches;
    }

    @Override
    public ApiSpec api() {
        return FetchApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        int epoch = request.get(Request.SESSION_EPOCH); // -1 (no session) before v7
        if (epoch != INITIAL_EPOCH && epoch != FINAL_EPOCH) {
            return CompletableFuture.completedFuture(Response.SCHEMA.newStruct()
                    .set(Response.THROTTLE_TIME_MS, 0)
                    .set(Response.ERROR_CODE, ErrorCode.FETCH_SESSION_ID_NOT_FOUND.code())
                    .set(Response.SESSION_ID, 0)
                    .set(Response.RESPONSES, List.of()));
        }
        PendingFetch fetch = new PendingFetch(context, request);
        long available = fetch.readAll();
        int maxWaitMs = request.get(Request.MAX_WAIT_MS);
        if (maxWaitMs <= 0 || fetch.partitionCount == 0 || available >= fetch.minBytes || fetch.hasError) {
            return CompletableFuture.completedFuture(fetch.response());
        }
        return fetch.park(maxWaitMs);
    }

    /** One requested partition: resolved once, re-read on every check. */
    private static final class PartitionFetch {
        final int index;
        final long fetchOffset;
        final int maxBytes;
        final PartitionLog log;
        final ErrorCode lookupError;
        ErrorCode error;
        FileSlice slice;
        long highWatermark;
        long logStartOffset;

        PartitionFetch(int index, long fetchOffset, int maxBytes, PartitionLog log, ErrorCode lookupError) {
            this.index = index;
            this.fetchOffset = fetchOffset;
            this.maxBytes = maxBytes;
            this.log = log;
            this.lookupError = lookupError;
            this.error = lookupError;
        }
    }

    private record TopicFetch(String name, UUID id, PartitionFetch[] partitions) {
    }

    /** A fetch being answered, now or once parked; touched only on its connection's event loop. */
    private final class PendingFetch implements DelayedFetches.Waiter {
        final EventExecutor executor;
        final int minBytes;
        final int maxBytes;
        final boolean readCommitted;
        final TopicFetch[] topics;
        int partitionCount;
        boolean hasError;
        // Parked state
        final AtomicBoolean wakeScheduled = new AtomicBoolean();
        CompletableFuture<Struct> future;
        ScheduledFuture<?> timer;
        boolean done;

        PendingFetch(RequestContext context, Struct request) {
            this.executor = context.executor();
            this.minBytes = request.get(Request.MIN_BYTES);
            this.maxBytes = request.get(Request.MAX_BYTES);
            this.readCommitted = request.get(Request.ISOLATION_LEVEL) == READ_COMMITTED;
            boolean byId = context.version() >= 13;
            List<Struct> requested = request.get(Request.TOPICS);
            this.topics = new TopicFetch[requested.size()];
            for (int t = 0; t < topics.length; t++) {
                Struct topic = requested.get(t);
                UUID id = byId ? topic.get(FetchTopic.TOPIC_ID) : null;
                String name = byId ? logs.topicName(id).orElse(null) : topic.get(FetchTopic.TOPIC);
                List<Struct> parts = topic.get(FetchTopic.PARTITIONS);
                PartitionFetch[] partitions = new PartitionFetch[parts.size()];
                for (int p = 0; p < partitions.length; p++) {
                    Struct part = parts.get(p);
                    int index = part.get(FetchPartition.PARTITION);
                    PartitionLog log = name == null ? null : logs.partitionLog(name, index).orElse(null);
                    ErrorCode lookupError = name == null ? ErrorCode.UNKNOWN_TOPIC_ID
                            : log == null ? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION : ErrorCode.NONE;
                    partitions[p] = new PartitionFetch(index, part.get(FetchPartition.FETCH_OFFSET),
                            part.get(FetchPartition.PARTITION_MAX_BYTES), log, lookupError);
                }
                partitionCount += partitions.length;
                topics[t] = new TopicFetch(name, id, partitions);
            }
        }

        /** Reads every partition afresh (slices only: no record bytes); returns the record bytes available. */
        long readAll() {
            long total = 0;
            int remaining = maxBytes;
            boolean firstBatchWhole = true; // KIP-74, until a partition returns data
            hasError = false;
            for (TopicFetch topic : topics) {
                for (PartitionFetch p : topic.partitions()) {
                    p.slice = null;
                    if (p.lookupError != ErrorCode.NONE) {
                        hasError = true;
                        continue;
                    }
                    int limit = Math.max(0, Math.min(p.maxBytes, remaining));
                    try {
                        FileSlice slice = p.log.read(p.fetchOffset, limit);
                        p.highWatermark = p.log.highWatermark();
                        p.logStartOffset = p.log.logStartOffset();
                        p.error = ErrorCode.NONE;
                        if (slice.size() > limit && !firstBatchWhole) {
                            continue; // over this partition's share; a later fetch gets it
                        }
                        if (slice.size() > 0) {
                            p.slice = slice;
                            firstBatchWhole = false;
                            remaining = Math.max(0, remaining - slice.size());
                            total += slice.size();
                        }
                    } catch (LogException e) {
                        p.error = e.errorCode();
                        hasError = true;
                    }
                }
            }
            return total;
        }

        Struct response() {
            Struct response = Response.SCHEMA.newStruct()
                    .set(Response.THROTTLE_TIME_MS, 0)
                    .set(Response.ERROR_CODE, ErrorCode.NONE.code())
                    .set(Response.SESSION_ID, 0);
            for (TopicFetch topic : topics) {
                Struct t = response.add(Response.RESPONSES);
                if (topic.id() != null) {
                    t.set(FetchableTopicResponse.TOPIC_ID, topic.id());
                } else {
                    t.set(FetchableTopicResponse.TOPIC, topic.name());
                }
                for (PartitionFetch p : topic.partitions()) {
                    Struct out = t.add(FetchableTopicResponse.PARTITIONS).set(PartitionData.PARTITION_INDEX, p.index);
                    if (p.error != ErrorCode.NONE) {
                        out.set(PartitionData.ERROR_CODE, p.error.code())
                                .set(PartitionData.HIGH_WATERMARK, -1L)
                                .set(PartitionData.LAST_STABLE_OFFSET, -1L)
                                .set(PartitionData.LOG_START_OFFSET, -1L)
                                .set(PartitionData.ABORTED_TRANSACTIONS, null)
                                .set(PartitionData.RECORDS, NO_RECORDS);
                    } else {
                        out.set(PartitionData.ERROR_CODE, ErrorCode.NONE.code())
                                .set(PartitionData.HIGH_WATERMARK, p.highWatermark)
                                .set(PartitionData.LAST_STABLE_OFFSET, p.highWatermark)
                                .set(PartitionData.LOG_START_OFFSET, p.logStartOffset)
                                .set(PartitionData.ABORTED_TRANSACTIONS, readCommitted ? List.of() : null)
                                .set(PartitionData.RECORDS, p.slice != null ? new FileSliceRecords(p.slice) : NO_RECORDS);
                    }
                }
            }
            return response;
        }

        CompletableFuture<Struct> park(int maxWaitMs) {
            future = new CompletableFuture<>();
            forEachLog(log -> delayedFetches.watch(log, this));
            timer = executor.schedule(this::expire, maxWaitMs, TimeUnit.MILLISECONDS);
            // An append between the first read and watch() woke nobody: look once more.
            wake();
            return future;
        }

        /** From any thread (the appender's): hop to our event loop, at most one check queued at a time. */
        @Override
        public void wake() {
            if (wakeScheduled.compareAndSet(false, true)) {
                try {
                    executor.execute(this::recheck);
                } catch (RejectedExecutionException shuttingDown) {
                    wakeScheduled.set(false);
                }
            }
        }

        private void recheck() {
            wakeScheduled.set(false);
            if (done) {
                return;
            }
            try {
                if (readAll() >= minBytes || hasError) {
                    complete();
                }
            } catch (RuntimeException e) {
                fail(e);
            }
        }

        private void expire() {
            if (done) {
                return;
            }
            try {
                readAll();
                complete();
            } catch (RuntimeException e) {
                fail(e);
            }
        }

        private void complete() {
            finish();
            future.complete(response());
        }

        private void fail(RuntimeException e) {
            finish();
            future.completeExceptionally(e);
        }

        private void finish() {
            done = true;
            timer.cancel(false);
            forEachLog(log -> delayedFetches.unwatch(log, this));
        }

        private void forEachLog(java.util.function.Consumer<PartitionLog> action) {
            for (TopicFetch topic : topics) {
                for (PartitionFetch p : topic.partitions()) {
                    if (p.log != null) {
                        action.accept(p.log);
                    }
                }
            }
        }
    }
}
