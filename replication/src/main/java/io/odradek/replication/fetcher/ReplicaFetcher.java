package io.odradek.replication.fetcher;

import io.netty.buffer.ByteBuf;
import io.odradek.log.EpochEndOffset;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.ReplicationSettings;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.ListOffsetsApi;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.schema.MemoryRecords;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * One follower fetch thread to one leader broker (Kafka's ReplicaFetcherThread): it sends Fetch v16 for every
 * partition it holds (topic ids, {@code ReplicaState{ReplicaId, ReplicaEpoch}}, fetch offset = log end,
 * {@code LastFetchedEpoch} = the log's latest epoch, the current leader epoch) in an incremental fetch session
 * (KIP-227, {@link FollowerFetchSession}: after the first full request only the partitions whose parameters
 * changed are named, paused or removed ones are forgotten, and the leader answers only partitions with
 * something new; a partition missing from a response is simply fetched again) and, per partition of the
 * response:
 * <ul>
 * <li>records: appended as a follower on the partition's writer thread (whole batches only: a trailing
 *     partial batch is fetched again next time), then the leader's high watermark taken, clamped to our log end,
 *     and the leader's log start followed forward (DeleteRecords; see {@link Partition#followLeaderLogStartOffset});
 *     the fetch request reports our log start, so the leader knows when every replica has followed;</li>
 * <li>DivergingEpoch: truncation by Kafka's rules ({@link Truncation}), then fetching goes on from there;</li>
 * <li>OFFSET_OUT_OF_RANGE: the leader's log end and start asked with ListOffsets (as replica); truncate to the
 *     leader's end when ours is past it, or start again at the leader's log start when we are behind it;</li>
 * <li>NOT_LEADER_OR_FOLLOWER, FENCED/UNKNOWN_LEADER_EPOCH, unknown topic or partition, other errors: the
 *     partition pauses for {@code replica.fetch.backoff.ms} or until the next metadata image resumes it.</li>
 * </ul>
 * A lost connection is retried after the back-off. Partitions are added and removed by the
 * {@link ReplicaFetcherManager}; removal waits until the partition being written (appended, truncated) is done,
 * so a removed partition's log is no longer written by this thread. No network call runs under that lock (the
 * ListOffsets of an out-of-range partition goes first, ownership is checked again after it), and stopping the
 * thread does not wait for it ({@link #stopAsync}), so a leader that stops answering cannot hold the metadata
 * thread for {@code replica.socket.timeout.ms}.
 */
public final class ReplicaFetcher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ReplicaFetcher.class.getName());
    /** Fetch v16: topic ids, ReplicaState, DivergingEpoch, no directory ids (v17). */
    static final short FETCH_VERSION = 16;
    /** ListOffsets v7 (flexible; current leader epoch). */
    static final short LIST_OFFSETS_VERSION = 7;
    private static final long EARLIEST = -2L;
    private static final long LATEST = -1L;

    /** One partition being fetched; replaced (not changed) when its leader epoch changes. */
    public record Fetching(Partition partition, UUID topicId, int leaderEpoch, long delayedUntilMs) {
        Fetching delayed(long untilMs) {
            return new Fetching(partition, topicId, leaderEpoch, untilMs);
        }
    }

    /** A partition, by topic id (Fetch v13+). */
    record Key(UUID topicId, int partition) {
    }

    private final FetchSource source;
    private final int localBrokerId;
    private final LongSupplier brokerEpoch;
    private final ReplicationSettings settings;
    private final BrokerClient client;
    private final Thread thread;
    private final ConcurrentHashMap<Key, Fetching> partitions = new ConcurrentHashMap<>();
    /**
     * Held while one partition of a response is written (never during a network call); removal takes it so
     * nothing is written after it returns.
     */
    private final Object processing = new Object();
    private final Object idle = new Object();
    private volatile boolean running = true;
    /** The incremental fetch session with the leader (issue 9, sessions); this thread's only. */
    private final FollowerFetchSession session = new FollowerFetchSession();

    public ReplicaFetcher(String name, FetchSource source, int localBrokerId, LongSupplier brokerEpoch,
            ReplicationSettings settings) {
        this.source = source;
        this.localBrokerId = localBrokerId;
        this.brokerEpoch = brokerEpoch;
        this.settings = settings;
        this.client = new BrokerClient(source.host(), source.port(), name, settings.socketTimeoutMs(),
                settings.socketTimeoutMs(), settings.clientSecurity());
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    public FetchSource source() {
        return source;
    }

    /** Starts (or restarts, at a new leader epoch) fetching a partition; a paused one resumes. */
    public void add(Partition partition, UUID topicId, int leaderEpoch) {
        partitions.put(new Key(topicId, partition.partition()), new Fetching(partition, topicId, leaderEpoch, 0));
        synchronized (idle) {
            idle.notifyAll();
        }
    }

    /** Stops fetching a partition; once this returns this thread no longer writes to its log. */
    public void remove(UUID topicId, int partition) {
        synchronized (processing) {
            partitions.remove(new Key(topicId, partition));
        }
    }

    public boolean contains(UUID topicId, int partition) {
        return partitions.containsKey(new Key(topicId, partition));
    }

    public boolean isEmpty() {
        return partitions.isEmpty();
    }

    /** The partitions held now, for tests and DescribeLogDirs-style reporting. */
    public List<Fetching> fetching() {
        return List.copyOf(partitions.values());
    }

    /** A new metadata image arrived: partitions paused on an error try again now. */
    public void resumeAll() {
        partitions.replaceAll((k, f) -> f.delayedUntilMs() == 0 ? f : f.delayed(0));
        synchronized (idle) {
            idle.notifyAll();
        }
    }

    /**
     * Stops the thread without waiting for it: a send in progress fails at once (the client's socket is closed
     * under it). Safe once its partitions are removed: {@link #remove} is what guarantees no further writes.
     */
    public void stopAsync() {
        running = false;
        client.close(); // unblocks a read in progress
        thread.interrupt();
    }

    /** Stops the thread and waits (up to 10 s) for it to end, for shutdown. */
    @Override
    public void close() {
        stopAsync();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        while (running) {
            try {
                long now = System.currentTimeMillis();
                Map<Key, Fetching> ready = new LinkedHashMap<>();
                partitions.forEach((k, f) -> {
                    if (f.delayedUntilMs() <= now) {
                        ready.put(k, f);
                    }
                });
                if (ready.isEmpty()) {
                    synchronized (idle) {
                        idle.wait(100);
                    }
                    continue;
                }
                Struct response;
                try {
                    response = client.send(FetchApi.SPEC, FETCH_VERSION, fetchRequest(ready));
                } catch (IOException e) {
                    session.reset(); // the answer is lost: the next request is full
                    if (running) {
                        LOG.log(System.Logger.Level.INFO, "Fetch from " + source + " failed (" + e.getMessage()
                                + "); retrying in " + settings.fetchBackoffMs() + " ms");
                        Thread.sleep(settings.fetchBackoffMs());
                    }
                    continue;
                }
                process(response, ready);
            } catch (InterruptedException e) {
                if (running) {
                    Thread.currentThread().interrupt();
                }
                return;
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "Replica fetcher for " + source + " failed; going on", e);
                sleepQuietly(settings.fetchBackoffMs());
            }
        }
    }

    /**
     * The request for the partitions ready now: all of them in a full request (no session yet), else only those
     * whose fetch parameters changed since the session last heard of them, and the ones to forget.
     */
    private Struct fetchRequest(Map<Key, Fetching> ready) {
        Map<Key, FollowerFetchSession.Params> wanted = new LinkedHashMap<>();
        ready.forEach((key, f) -> {
            Partition p = f.partition();
            wanted.put(key, new FollowerFetchSession.Params(p.logEndOffset(), f.leaderEpoch(), p.log().latestEpoch(),
                    p.logStartOffset(), settings.fetchMaxBytes()));
        });
        FollowerFetchSession.Next next = session.next(wanted);
        Struct request = FetchApi.Request.SCHEMA.newStruct();
        Struct replicaState = FetchApi.Request.ReplicaState.SCHEMA.newStruct()
                .set(FetchApi.Request.ReplicaState.REPLICA_ID, localBrokerId)
                .set(FetchApi.Request.ReplicaState.REPLICA_EPOCH, brokerEpoch.getAsLong());
        request.set(FetchApi.Request.REPLICA_STATE, replicaState)
                .set(FetchApi.Request.MAX_WAIT_MS, settings.fetchWaitMaxMs())
                .set(FetchApi.Request.MIN_BYTES, settings.fetchMinBytes())
                .set(FetchApi.Request.MAX_BYTES, settings.fetchResponseMaxBytes())
                .set(FetchApi.Request.ISOLATION_LEVEL, (byte) 0)
                .set(FetchApi.Request.SESSION_ID, next.sessionId())
                .set(FetchApi.Request.SESSION_EPOCH, next.epoch());
        Map<UUID, Struct> topics = new LinkedHashMap<>();
        next.toSend().forEach((key, params) -> {
            Struct topic = topics.computeIfAbsent(key.topicId(), id -> request.add(FetchApi.Request.TOPICS)
                    .set(FetchApi.Request.FetchTopic.TOPIC_ID, id));
            topic.add(FetchApi.Request.FetchTopic.PARTITIONS)
                    .set(FetchApi.Request.FetchTopic.FetchPartition.PARTITION, key.partition())
                    .set(FetchApi.Request.FetchTopic.FetchPartition.CURRENT_LEADER_EPOCH, params.currentLeaderEpoch())
                    .set(FetchApi.Request.FetchTopic.FetchPartition.FETCH_OFFSET, params.fetchOffset())
                    .set(FetchApi.Request.FetchTopic.FetchPartition.LAST_FETCHED_EPOCH, params.lastFetchedEpoch())
                    .set(FetchApi.Request.FetchTopic.FetchPartition.LOG_START_OFFSET, params.logStartOffset())
                    .set(FetchApi.Request.FetchTopic.FetchPartition.PARTITION_MAX_BYTES, params.maxBytes());
        });
        Map<UUID, List<Integer>> forgotten = new LinkedHashMap<>();
        for (Key key : next.toForget()) {
            forgotten.computeIfAbsent(key.topicId(), id -> new ArrayList<>()).add(key.partition());
        }
        forgotten.forEach((id, partitionIndexes) -> request.add(FetchApi.Request.FORGOTTEN_TOPICS_DATA)
                .set(FetchApi.Request.ForgottenTopic.TOPIC_ID, id)
                .set(FetchApi.Request.ForgottenTopic.PARTITIONS, partitionIndexes));
        return request;
    }

    private void process(Struct response, Map<Key, Fetching> sent) throws InterruptedException {
        ErrorCode topError = ErrorCode.forCode(response.get(FetchApi.Response.ERROR_CODE));
        if (!session.handleResponse(topError, response.get(FetchApi.Response.SESSION_ID))) {
            LOG.log(System.Logger.Level.INFO, "Fetch from " + source + " failed: " + topError);
            if (!FollowerFetchSession.isSessionError(topError)) {
                sent.forEach((k, f) -> delay(k, f));
            } // a session error: the next request, full, goes at once (Kafka)
            return;
        }
        Map<Key, Struct> answers = new HashMap<>();
        for (Struct topic : response.get(FetchApi.Response.RESPONSES)) {
            UUID topicId = topic.get(FetchApi.Response.FetchableTopicResponse.TOPIC_ID);
            for (Struct p : topic.get(FetchApi.Response.FetchableTopicResponse.PARTITIONS)) {
                answers.put(new Key(topicId, p.get(FetchApi.Response.FetchableTopicResponse.PartitionData.PARTITION_INDEX)), p);
            }
        }
        for (Map.Entry<Key, Fetching> e : sent.entrySet()) {
            Fetching f = e.getValue();
            Struct answer = answers.get(e.getKey());
            if (answer == null) {
                continue; // not in this response (size limits): fetched again next round
            }
            try {
                ErrorCode error = ErrorCode.forCode(
                        answer.get(FetchApi.Response.FetchableTopicResponse.PartitionData.ERROR_CODE));
                if (error == ErrorCode.OFFSET_OUT_OF_RANGE) {
                    handleOutOfRange(e.getKey(), f); // asks the leader first, outside the lock
                    continue;
                }
                synchronized (processing) {
                    if (partitions.get(e.getKey()) != f) {
                        continue; // removed, or re-added at another epoch, while the fetch was out
                    }
                    processPartition(e.getKey(), f, answer);
                }
            } catch (ExecutionException | TimeoutException | RuntimeException failure) {
                Throwable cause = failure instanceof ExecutionException ? failure.getCause() : failure;
                LOG.log(System.Logger.Level.WARNING, "Replica of " + f.partition() + " fetching from " + source
                        + " failed: " + cause + "; retrying in " + settings.fetchBackoffMs() + " ms");
                delay(e.getKey(), f);
            }
        }
    }

    private void processPartition(Key key, Fetching f, Struct answer)
            throws ExecutionException, TimeoutException, InterruptedException {
        Partition p = f.partition();
        ErrorCode error = ErrorCode.forCode(answer.get(FetchApi.Response.FetchableTopicResponse.PartitionData.ERROR_CODE));
        switch (error) {
            case NONE -> {
                Struct diverging = answer.get(FetchApi.Response.FetchableTopicResponse.PartitionData.DIVERGING_EPOCH);
                if (diverging != null && isSet(diverging)) {
                    EpochEndOffset leader = new EpochEndOffset(
                            diverging.get(FetchApi.Response.FetchableTopicResponse.PartitionData.EpochEndOffset.EPOCH),
                            diverging.get(FetchApi.Response.FetchableTopicResponse.PartitionData.EpochEndOffset.END_OFFSET));
                    EpochEndOffset mine = leader.leaderEpoch() < 0 ? EpochEndOffset.UNDEFINED
                            : p.endOffsetForEpoch(leader.leaderEpoch());
                    long to = Truncation.offsetFor(leader, mine, p.logEndOffset(), p.highWatermark());
                    LOG.log(System.Logger.Level.INFO, "Replica of " + p + " diverges from " + source + " (leader "
                            + leader + ", ours " + mine + "): truncating to " + to);
                    await(p.truncateTo(to));
                    return;
                }
                Records records = answer.get(FetchApi.Response.FetchableTopicResponse.PartitionData.RECORDS);
                ByteBuffer batches = wholeBatches(records);
                if (batches.hasRemaining()) {
                    startAtFirstBatchIfLogStartFallsInside(p, batches);
                    await(p.appendAsFollower(batches));
                }
                p.updateFollowerHighWatermark(answer.get(FetchApi.Response.FetchableTopicResponse.PartitionData.HIGH_WATERMARK));
                // Kafka: then the log start follows the leader's (DeleteRecords there), and our next fetch
                // reports it, which is what the leader's DeleteRecords waits for.
                await(p.followLeaderLogStartOffset(
                        answer.get(FetchApi.Response.FetchableTopicResponse.PartitionData.LOG_START_OFFSET)));
            }
            default -> {
                LOG.log(System.Logger.Level.INFO, "Fetch of " + p + " from " + source + " answered " + error
                        + "; paused until the next metadata image");
                delay(key, f);
            }
        }
    }

    /**
     * An empty log started at the leader's log start may begin inside the first batch the leader sends (its
     * log start fell mid-batch, after DeleteRecords): start the log at that batch instead, as Kafka's
     * follower does on its UnexpectedAppendOffsetException.
     */
    private void startAtFirstBatchIfLogStartFallsInside(Partition p, ByteBuffer batches)
            throws ExecutionException, TimeoutException, InterruptedException {
        long end = p.logEndOffset();
        if (end != p.logStartOffset() || batches.remaining() < RecordBatchHeader.HEADER_SIZE) {
            return;
        }
        RecordBatchHeader first = new RecordBatchHeader(batches, batches.position());
        if (first.baseOffset() < end && first.lastOffset() >= end) {
            LOG.log(System.Logger.Level.INFO, "Replica of " + p + " starts at " + end + ", inside the leader's batch "
                    + first.baseOffset() + "-" + first.lastOffset() + ": starting the log at " + first.baseOffset());
            await(p.truncateFullyAndStartAt(first.baseOffset()));
        }
    }

    /**
     * Kafka's handleOutOfRangeError: follow the leader's log end down, or its log start up. The leader is
     * asked without the processing lock; the partition is written only if this fetcher still holds it at the
     * same epoch afterwards.
     */
    private void handleOutOfRange(Key key, Fetching f)
            throws ExecutionException, TimeoutException, InterruptedException {
        Partition p = f.partition();
        if (partitions.get(key) != f) {
            return;
        }
        long replicaEnd = p.logEndOffset();
        long leaderEnd;
        long leaderStart;
        try {
            leaderEnd = listOffset(f, LATEST);
            leaderStart = leaderEnd < replicaEnd ? -1 : listOffset(f, EARLIEST);
        } catch (IOException e) {
            delay(key, f);
            return;
        }
        synchronized (processing) {
            if (partitions.get(key) != f || p.logEndOffset() != replicaEnd) {
                return; // removed or moved meanwhile: the next fetch starts over from what is there now
            }
            followLeaderOffsets(key, f, replicaEnd, leaderEnd, leaderStart);
        }
    }

    private void followLeaderOffsets(Key key, Fetching f, long replicaEnd, long leaderEnd, long leaderStart)
            throws ExecutionException, TimeoutException, InterruptedException {
        Partition p = f.partition();
        if (leaderEnd < 0) {
            delay(key, f);
        } else if (leaderEnd < replicaEnd) {
            LOG.log(System.Logger.Level.INFO, "Replica of " + p + " is past the leader's log end " + leaderEnd
                    + ": truncating");
            await(p.truncateTo(leaderEnd));
        } else if (leaderStart > replicaEnd) {
            LOG.log(System.Logger.Level.INFO, "Replica of " + p + " is behind the leader's log start " + leaderStart
                    + ": starting again there");
            await(p.truncateFullyAndStartAt(leaderStart));
        } else {
            delay(key, f);
        }
    }

    /** ListOffsets as replica {@code localBrokerId}: the leader's log end (LATEST) or log start (EARLIEST); -1 on error. */
    private long listOffset(Fetching f, long timestamp) throws IOException {
        Struct request = ListOffsetsApi.Request.SCHEMA.newStruct()
                .set(ListOffsetsApi.Request.REPLICA_ID, localBrokerId)
                .set(ListOffsetsApi.Request.ISOLATION_LEVEL, (byte) 0);
        Struct topic = request.add(ListOffsetsApi.Request.TOPICS)
                .set(ListOffsetsApi.Request.ListOffsetsTopic.NAME, f.partition().topic());
        topic.add(ListOffsetsApi.Request.ListOffsetsTopic.PARTITIONS)
                .set(ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition.PARTITION_INDEX, f.partition().partition())
                .set(ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition.CURRENT_LEADER_EPOCH, f.leaderEpoch())
                .set(ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition.TIMESTAMP, timestamp);
        Struct response = client.send(ListOffsetsApi.SPEC, LIST_OFFSETS_VERSION, request);
        for (Struct t : response.get(ListOffsetsApi.Response.TOPICS)) {
            for (Struct p : t.get(ListOffsetsApi.Response.ListOffsetsTopicResponse.PARTITIONS)) {
                if (p.get(ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse.ERROR_CODE) == 0) {
                    return p.get(ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse.OFFSET);
                }
            }
        }
        return -1;
    }

    private void delay(Key key, Fetching f) {
        partitions.replace(key, f, f.delayed(System.currentTimeMillis() + settings.fetchBackoffMs()));
    }

    private static boolean isSet(Struct diverging) {
        return diverging.get(FetchApi.Response.FetchableTopicResponse.PartitionData.EpochEndOffset.EPOCH) >= 0
                || diverging.get(FetchApi.Response.FetchableTopicResponse.PartitionData.EpochEndOffset.END_OFFSET) >= 0;
    }

    private <T> T await(java.util.concurrent.CompletableFuture<T> future)
            throws ExecutionException, TimeoutException, InterruptedException {
        return future.get(settings.socketTimeoutMs(), TimeUnit.MILLISECONDS);
    }

    /**
     * The records' whole batches (a batch is its 8-byte base offset, 4-byte length, then that many bytes): a
     * leader may cut its last batch at the size limit, and the follower fetches it whole next time.
     */
    static ByteBuffer wholeBatches(Records records) {
        if (records == null || records.sizeInBytes() == 0) {
            return ByteBuffer.allocate(0);
        }
        ByteBuf buf = ((MemoryRecords) records).buffer();
        ByteBuffer bytes = buf.nioBuffer(buf.readerIndex(), buf.readableBytes());
        int end = 0;
        while (end + 12 <= bytes.limit()) {
            int size = 12 + bytes.getInt(end + 8);
            if (size < 12 || end + size > bytes.limit()) {
                break;
            }
            end += size;
        }
        return bytes.limit(end).slice();
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return thread.getName() + " -> " + source;
    }
}
