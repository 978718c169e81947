package io.odradek.replication.fetcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.replication.partition.FetchIsolation;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.PartitionWriters;
import io.odradek.replication.partition.ReplicationSettings;
import io.odradek.replication.partition.WaitingOperations;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.batch.RecordBatchBuilder;
import io.odradek.wire.batch.RecordBatchHeader;
import io.odradek.wire.codec.Request;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A follower's fetcher against a leader Partition served by an in-test broker that answers Fetch the way the
 * broker's fetch handler does for replicas (leader check, DivergingEpoch, read to the log end, follower state).
 */
class ReplicaFetcherTest {
    private static final UUID TOPIC_ID = UUID.fromString("3e1f2a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b");
    private static final int LEADER_EPOCH = 3;

    @TempDir
    Path dir;
    PartitionWriters writers;
    WaitingOperations<Partition> waiting;
    PartitionLog leaderLog;
    PartitionLog followerLog;
    Partition leader;
    Partition follower;
    TinyBroker broker;
    ReplicaFetcher fetcher;
    AcceptingController controller;
    volatile ErrorCode forcedError = ErrorCode.NONE;

    /** Accepts every ISR change at once; this test is about the data. */
    static final class AcceptingController implements ControllerChannel {
        @Override
        public CompletableFuture<CommandResult> submit(ControllerCommand command) {
            return CompletableFuture.completedFuture(CommandResult.ok(1, List.of(), 0));
        }

        @Override
        public CompletableFuture<HeartbeatReply> heartbeat(BrokerHeartbeat heartbeat) {
            return new CompletableFuture<>();
        }

        @Override
        public CompletableFuture<QuorumInfo> describeQuorum() {
            return new CompletableFuture<>();
        }

        /** What the partitions see of the brokers; empty unless a test registers them. */
        volatile ClusterImage image = ClusterImage.EMPTY;

        @Override
        public ClusterImage image() {
            return image;
        }

        @Override
        public void addListener(Consumer<ClusterImage> listener) {
        }

        @Override
        public void close() {
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        writers = new PartitionWriters(2);
        waiting = new WaitingOperations<>("test");
        leaderLog = open("broker-1");
        followerLog = open("broker-2");
        controller = new AcceptingController();
        leader = new Partition(leaderLog, TOPIC_ID, 1, controller, () -> 11L, writers.writerFor("orders", 0), waiting);
        follower = new Partition(followerLog, TOPIC_ID, 2, controller, () -> 22L, writers.writerFor("orders", 0), waiting);
        PartitionRegistration registration = new PartitionRegistration(List.of(1, 2), List.of(1, 2), List.of(),
                List.of(), 1, LEADER_EPOCH, 0);
        leader.makeLeader(registration, System.currentTimeMillis());
        follower.makeFollower(registration);
        broker = new TinyBroker(this::serveFetch);
        ReplicationSettings settings = new ReplicationSettings(30_000, 1 << 20, 10 << 20, 50, 1, 30_000L, 1,
                5_000, "PLAINTEXT");
        fetcher = new ReplicaFetcher("fetcher-2-from-1", new FetchSource(1, broker.host(), broker.port()), 2,
                () -> 22L, settings);
    }

    @AfterEach
    void tearDown() throws Exception {
        fetcher.close();
        broker.close();
        writers.close();
        waiting.close();
        leaderLog.close();
        followerLog.close();
    }

    private PartitionLog open(String node) {
        return PartitionLog.open(dir.resolve(node).resolve("orders-0"), "orders", 0, LogConfig.defaults(),
                PartitionLog.Options.defaults().withTopicId(TOPIC_ID));
    }

    private Struct serveFetch(Request request) {
        return LeaderFetchServing.answer(request, (topicId, partition) -> leader, forcedError);
    }

    private static ByteBuffer batch(String... values) {
        RecordBatchBuilder b = new RecordBatchBuilder(1_000L);
        for (String v : values) {
            b.append(("k-" + v).getBytes(StandardCharsets.UTF_8), v.getBytes(StandardCharsets.UTF_8));
        }
        return b.build();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void waitUntil(BooleanSupplier condition) {
        for (int i = 0; i < 1_000 && !condition.getAsBoolean(); i++) {
            sleep(10);
        }
        assertThat(condition.getAsBoolean()).as("condition reached within 10 s").isTrue();
    }

    /** Every batch of the log, segment after segment (a read returns one segment's slice). */
    private static byte[] bytes(Partition p) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        long offset = p.logStartOffset();
        while (offset < p.logEndOffset()) {
            ByteBuffer slice = p.read(offset, 1 << 20, FetchIsolation.LOG_END).readIntoHeap();
            if (!slice.hasRemaining()) {
                break;
            }
            for (int pos = 0; pos + RecordBatchHeader.LOG_OVERHEAD <= slice.limit(); ) {
                RecordBatchHeader h = new RecordBatchHeader(slice, pos);
                offset = h.lastOffset() + 1;
                pos += h.totalSize();
            }
            byte[] chunk = new byte[slice.remaining()];
            slice.get(chunk);
            out.writeBytes(chunk);
        }
        return out.toByteArray();
    }

    @Test
    void theFollowerCopiesTheLeadersBatchesByteForByteAndTheHighWatermarkFollows() {
        leader.appendAsLeader(batch("a", "b"), (short) -1).orTimeout(5, TimeUnit.SECONDS).join();
        leader.appendAsLeader(batch("c"), (short) -1).orTimeout(5, TimeUnit.SECONDS).join();
        fetcher.start();
        fetcher.add(follower, TOPIC_ID, LEADER_EPOCH);

        waitUntil(() -> follower.logEndOffset() == 3 && leader.highWatermark() == 3 && follower.highWatermark() == 3);
        leader.appendAsLeader(batch("d", "e"), (short) -1).orTimeout(5, TimeUnit.SECONDS).join();
        waitUntil(() -> follower.logEndOffset() == 5 && follower.highWatermark() == 5);

        assertThat(bytes(follower)).isEqualTo(bytes(leader));
        assertThat(follower.leaderEpochs()).isEqualTo(leader.leaderEpochs());
        assertThat(leader.highWatermark()).isEqualTo(5L);
        assertThat(leader.inSyncReplicas()).containsExactly(1, 2);
    }

    /** Brokers 1 and 2 registered; {@code fenced2}: broker 2 is fenced (its replica no longer counts). */
    private void registerBrokers(boolean fenced2) {
        java.util.TreeMap<Integer, io.odradek.replication.cluster.BrokerRegistration> brokers = new java.util.TreeMap<>();
        brokers.put(1, new io.odradek.replication.cluster.BrokerRegistration(1, 11L, UUID.randomUUID(), List.of(),
                null, false, false));
        brokers.put(2, new io.odradek.replication.cluster.BrokerRegistration(2, 22L, UUID.randomUUID(), List.of(),
                null, fenced2, false));
        controller.image = new ClusterImage(1, "cluster", brokers, new java.util.TreeMap<>(), 0);
    }

    @Test
    void deleteRecordsOnTheLeaderIsFollowedByTheFollowerAndTheLowWatermarkReachesIt() {
        registerBrokers(false);
        for (String v : List.of("a", "b", "c", "d", "e")) {
            leader.appendAsLeader(batch(v), (short) -1).orTimeout(5, TimeUnit.SECONDS).join();
        }
        fetcher.start();
        fetcher.add(follower, TOPIC_ID, LEADER_EPOCH);
        waitUntil(() -> follower.logEndOffset() == 5 && follower.highWatermark() == 5 && leader.lowWatermark() == 0);

        Partition.DeletedRecords deleted = leader.deleteRecordsOnLeader(3L).orTimeout(5, TimeUnit.SECONDS).join();

        assertThat(deleted.requestedOffset()).isEqualTo(3L);
        assertThat(deleted.lowWatermark()).isZero(); // the follower has not followed yet
        assertThat(leader.logStartOffset()).isEqualTo(3L);
        waitUntil(() -> follower.logStartOffset() == 3L);
        waitUntil(() -> leader.lowWatermark() == 3L); // its next fetch told the leader
        assertThat(follower.logEndOffset()).isEqualTo(5L);
        assertThat(bytes(follower)).isEqualTo(bytes(leader));
    }

    @Test
    void aFencedFollowerDoesNotHoldTheLowWatermark() {
        registerBrokers(false);
        leader.appendAsLeader(batch("a", "b", "c"), (short) -1).orTimeout(5, TimeUnit.SECONDS).join();
        leader.updateFollowerFetchState(2, 22L, 3L, 0L, System.currentTimeMillis());
        leader.deleteRecordsOnLeader(-1L).orTimeout(5, TimeUnit.SECONDS).join();
        assertThat(leader.logStartOffset()).isEqualTo(3L);
        assertThat(leader.lowWatermark()).isZero();

        registerBrokers(true);

        assertThat(leader.lowWatermark()).isEqualTo(3L);
    }

    @Test
    void aFencedAnswerPausesThePartitionUntilResumed() {
        forcedError = ErrorCode.FENCED_LEADER_EPOCH;
        fetcher.start();
        fetcher.add(follower, TOPIC_ID, LEADER_EPOCH);
        waitUntil(() -> fetcher.fetching().get(0).delayedUntilMs() > 0);
        int requestsWhilePaused = broker.received.size();
        sleep(200);
        assertThat(broker.received).hasSize(requestsWhilePaused);

        forcedError = ErrorCode.NONE;
        leader.appendAsLeader(batch("a"), (short) -1).orTimeout(5, TimeUnit.SECONDS).join();
        fetcher.resumeAll();
        waitUntil(() -> follower.logEndOffset() == 1);
        assertThat(bytes(follower)).isEqualTo(bytes(leader));
    }

    @Test
    void aRemovedPartitionIsNoLongerFetched() {
        fetcher.start();
        fetcher.add(follower, TOPIC_ID, LEADER_EPOCH);
        waitUntil(() -> !broker.received.isEmpty());
        fetcher.remove(TOPIC_ID, 0);
        assertThat(fetcher.isEmpty()).isTrue();
        leader.appendAsLeader(batch("a"), (short) -1).orTimeout(5, TimeUnit.SECONDS).join();
        sleep(200);
        assertThat(follower.logEndOffset()).isZero();
    }

    private static PartitionRegistration led(int leaderId, int leaderEpoch, int partitionEpoch) {
        return new PartitionRegistration(List.of(1, 2), List.of(leaderId), List.of(), List.of(), leaderId, leaderEpoch,
                partitionEpoch);
    }

    @Test
    void aFormerLeadersUnacknowledgedTailIsTruncatedAndReplacedByTheNewLeadersRecords() {
        // Epoch 4: broker 1 leads and both have a, b.
        leader.makeLeader(led(1, 4, 1), 0);
        follower.makeFollower(led(1, 4, 1));
        leader.appendAsLeader(batch("a", "b"), (short) 1).orTimeout(5, TimeUnit.SECONDS).join();
        follower.appendAsFollower(leader.read(0, 1 << 20, FetchIsolation.LOG_END).readIntoHeap())
                .orTimeout(5, TimeUnit.SECONDS).join();
        // Epoch 5: broker 2 leads alone for a while and writes x, y that nobody else gets.
        follower.makeLeader(led(2, 5, 2), 0);
        follower.appendAsLeader(batch("x", "y"), (short) 1).orTimeout(5, TimeUnit.SECONDS).join();
        // Epoch 6: broker 1 leads again and writes c; broker 2 returns as its follower.
        leader.makeLeader(led(1, 6, 3), 0);
        leader.appendAsLeader(batch("c"), (short) 1).orTimeout(5, TimeUnit.SECONDS).join();
        follower.makeFollower(led(1, 6, 3));
        assertThat(follower.logEndOffset()).isEqualTo(4L);

        fetcher.start();
        fetcher.add(follower, TOPIC_ID, 6);

        waitUntil(() -> follower.logEndOffset() == 3 && follower.log().latestEpoch() == 6);
        assertThat(bytes(follower)).isEqualTo(bytes(leader));
        assertThat(follower.leaderEpochs()).isEqualTo(leader.leaderEpochs());
    }

    // ------------------------------------------------------------------ incremental fetch sessions (issue 9)

    /** Session 77 at the leader: the partitions as last named (by index), what the broker's session cache keeps. */
    final java.util.Map<Integer, Struct> leaderSession = new java.util.concurrent.ConcurrentHashMap<>();
    /** Requests (by number, from 1) answered INVALID_FETCH_SESSION_EPOCH instead. */
    volatile int refuseRequest = -1;

    /**
     * The leader's side of a session as the broker keeps it: a full request opens session 77 with its
     * partitions; an incremental one updates the partitions it names, drops the forgotten, and is answered for
     * every partition of the session at its last named parameters.
     */
    private Struct serveInSession(Request request) {
        Struct body = request.body();
        if (broker.received.size() == refuseRequest) {
            return io.odradek.wire.api.FetchApi.Response.SCHEMA.newStruct()
                    .set(io.odradek.wire.api.FetchApi.Response.ERROR_CODE, ErrorCode.INVALID_FETCH_SESSION_EPOCH.code())
                    .set(io.odradek.wire.api.FetchApi.Response.SESSION_ID, 0);
        }
        if (body.get(io.odradek.wire.api.FetchApi.Request.SESSION_EPOCH) == 0) {
            leaderSession.clear();
        }
        for (Struct t : body.get(io.odradek.wire.api.FetchApi.Request.TOPICS)) {
            for (Struct p : t.get(io.odradek.wire.api.FetchApi.Request.FetchTopic.PARTITIONS)) {
                leaderSession.put(p.get(io.odradek.wire.api.FetchApi.Request.FetchTopic.FetchPartition.PARTITION), p);
            }
        }
        for (Struct t : body.get(io.odradek.wire.api.FetchApi.Request.FORGOTTEN_TOPICS_DATA)) {
            t.get(io.odradek.wire.api.FetchApi.Request.ForgottenTopic.PARTITIONS).forEach(leaderSession::remove);
        }
        Struct all = io.odradek.wire.api.FetchApi.Request.SCHEMA.newStruct()
                .set(io.odradek.wire.api.FetchApi.Request.REPLICA_STATE, body.get(io.odradek.wire.api.FetchApi.Request.REPLICA_STATE));
        all.add(io.odradek.wire.api.FetchApi.Request.TOPICS)
                .set(io.odradek.wire.api.FetchApi.Request.FetchTopic.TOPIC_ID, TOPIC_ID)
                .set(io.odradek.wire.api.FetchApi.Request.FetchTopic.PARTITIONS, new java.util.ArrayList<>(leaderSession.values()));
        return LeaderFetchServing.answer(new Request(request.header(), request.api(), all), (topicId, partition) -> leader,
                forcedError).set(io.odradek.wire.api.FetchApi.Response.SESSION_ID, 77);
    }

    private static int epoch(Request r) {
        return r.body().get(io.odradek.wire.api.FetchApi.Request.SESSION_EPOCH);
    }

    private static int sessionId(Request r) {
        return r.body().get(io.odradek.wire.api.FetchApi.Request.SESSION_ID);
    }

    /** The fetch offsets a request names for partition 0 (none or one). */
    private static List<Long> named(Request r) {
        List<Long> out = new java.util.ArrayList<>();
        for (Struct t : r.body().get(io.odradek.wire.api.FetchApi.Request.TOPICS)) {
            for (Struct p : t.get(io.odradek.wire.api.FetchApi.Request.FetchTopic.PARTITIONS)) {
                out.add(p.get(io.odradek.wire.api.FetchApi.Request.FetchTopic.FetchPartition.FETCH_OFFSET));
            }
        }
        return out;
    }

    @Test
    void inASessionTheFollowerNamesItsPartitionOnlyWhenItsPositionMoves() {
        broker.handler(this::serveInSession);
        leader.appendAsLeader(batch("a", "b"), (short) -1).orTimeout(5, TimeUnit.SECONDS).join();
        fetcher.start();
        fetcher.add(follower, TOPIC_ID, LEADER_EPOCH);
        waitUntil(() -> follower.logEndOffset() == 2 && follower.highWatermark() == 2);
        leader.appendAsLeader(batch("c"), (short) -1).orTimeout(5, TimeUnit.SECONDS).join();
        waitUntil(() -> follower.logEndOffset() == 3 && follower.highWatermark() == 3);
        int seen = broker.received.size();
        waitUntil(() -> broker.received.size() > seen + 2); // a few idle rounds

        assertThat(bytes(follower)).isEqualTo(bytes(leader));
        List<Request> requests = List.copyOf(broker.received);
        Request first = requests.get(0);
        assertThat(sessionId(first)).isZero();
        assertThat(epoch(first)).isZero();
        assertThat(named(first)).containsExactly(0L);
        List<Long> namedLater = new java.util.ArrayList<>();
        for (int i = 1; i < requests.size(); i++) {
            assertThat(sessionId(requests.get(i))).isEqualTo(77);
            assertThat(epoch(requests.get(i))).isEqualTo(i);
            namedLater.addAll(named(requests.get(i)));
        }
        // Named again only at each new position; the idle rounds name nothing.
        assertThat(namedLater).containsExactly(2L, 3L);
    }

    @Test
    void aSessionErrorMakesTheFollowerStartOverWithAFullFetchAndGoOn() {
        broker.handler(this::serveInSession);
        refuseRequest = 3;
        leader.appendAsLeader(batch("a"), (short) -1).orTimeout(5, TimeUnit.SECONDS).join();
        fetcher.start();
        fetcher.add(follower, TOPIC_ID, LEADER_EPOCH);
        waitUntil(() -> broker.received.size() > 4);
        leader.appendAsLeader(batch("b"), (short) -1).orTimeout(5, TimeUnit.SECONDS).join();
        waitUntil(() -> follower.logEndOffset() == 2 && follower.highWatermark() == 2);

        assertThat(bytes(follower)).isEqualTo(bytes(leader));
        Request refused = broker.received.get(2);
        Request restart = broker.received.get(3);
        assertThat(epoch(refused)).isEqualTo(2);
        assertThat(sessionId(restart)).isEqualTo(77); // the full request closes the old session at the leader
        assertThat(epoch(restart)).isZero();
        assertThat(named(restart)).containsExactly(1L);
        assertThat(epoch(broker.received.get(4))).isEqualTo(1);
    }
}
