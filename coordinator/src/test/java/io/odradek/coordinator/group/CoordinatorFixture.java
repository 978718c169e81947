package io.odradek.coordinator.group;

import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.runtime.CoordinatorLog;
import io.odradek.coordinator.runtime.ForwardingCoordinatorLog;
import io.odradek.coordinator.runtime.ManualScheduler;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.log.LogConfig;
import io.odradek.log.LogException;
import io.odradek.log.PartitionLog;
import io.odradek.wire.ErrorCode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A coordinator over real {@code __consumer_offsets} partition logs in a temp dir, on a manual clock,
 * with small helpers that speak the protocol the way a consumer does.
 */
final class CoordinatorFixture implements AutoCloseable {
    static final int SESSION_TIMEOUT = 10_000;
    static final int REBALANCE_TIMEOUT = 30_000;

    final Path dir;
    final GroupCoordinatorConfig config;
    final ManualScheduler clock = new ManualScheduler();
    /** Topics consumer-protocol groups are assigned from. */
    final TestTopics topics = new TestTopics();
    final List<PartitionLog> logs = new ArrayList<>();
    GroupCoordinator coordinator;

    /** Share groups' settings and persister (issue 12). */
    final ShareGroupServices shares;

    CoordinatorFixture(Path dir, GroupCoordinatorConfig config) {
        this(dir, config, null, ShareGroupServices.DEFAULTS);
    }

    /** issue 12, streams: streams groups' settings and assignor (null: none). */
    final StreamsGroupConfig streams;

    CoordinatorFixture(Path dir, GroupCoordinatorConfig config, StreamsGroupConfig streams) {
        this(dir, config, streams, ShareGroupServices.DEFAULTS);
    }

    CoordinatorFixture(Path dir, GroupCoordinatorConfig config, ShareGroupServices shares) {
        this(dir, config, null, shares);
    }

    CoordinatorFixture(Path dir, GroupCoordinatorConfig config, StreamsGroupConfig streams, ShareGroupServices shares) {
        this.dir = dir;
        this.config = config;
        this.streams = streams;
        this.shares = shares;
        open();
    }

    static GroupCoordinatorConfig config(int initialDelayMs) {
        return GroupCoordinatorConfig.from(Map.of("offsets.topic.num.partitions", "3",
                "group.initial.rebalance.delay.ms", Integer.toString(initialDelayMs)));
    }

    private void open() {
        logs.clear();
        for (int p = 0; p < config.offsetsTopicPartitions(); p++) {
            logs.add(PartitionLog.open(dir, OffsetsTopic.NAME, p, LogConfig.defaults()));
        }
        coordinator = GroupCoordinator.create(config, this::coordinatorLog, p -> clock, topics);
        if (streams != null) {
            coordinator.configureStreams(streams);
        }
        coordinator.setShareGroups(shares);
        coordinator.startup();
    }

    /**
     * Partition {@code p} of the offsets topic as the coordinator runtime writes it; while appends are
     * {@link #holdAppends held} they wait, as on a replicated partition, until {@link #commitAppends}.
     */
    CoordinatorLog coordinatorLog(int p) {
        CoordinatorLog local = new PartitionLogCoordinatorLog(logs.get(p));
        return new ForwardingCoordinatorLog(local) {
            @Override
            public CompletableFuture<Long> append(ByteBuffer batch) {
                return held(() -> local.append(batch));
            }

            @Override
            public CompletableFuture<Long> appendMarker(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit) {
                return held(() -> local.appendMarker(producerId, producerEpoch, coordinatorEpoch, commit));
            }
        };
    }

    /** The append now, or once the test commits it while appends are held. */
    private CompletableFuture<Long> held(Supplier<CompletableFuture<Long>> append) {
        if (held == null) {
            return append.get();
        }
        CompletableFuture<Long> appended = new CompletableFuture<>();
        held.add(error -> {
            if (error == null) {
                append.get().whenComplete((end, e) -> {
                    if (e != null) {
                        appended.completeExceptionally(e);
                    } else {
                        appended.complete(end);
                    }
                });
            } else {
                appended.completeExceptionally(new LogException(error, "the test fails this append"));
            }
        });
        return appended;
    }

    /** Appends waiting for the test (null: appends complete at once). */
    private ArrayDeque<Consumer<ErrorCode>> held;

    /** From now on appends wait until {@link #commitAppends} or {@link #failAppends}. */
    void holdAppends() {
        held = new ArrayDeque<>();
    }

    /** How many appends wait. */
    int heldAppends() {
        return held.size();
    }

    /** Writes and commits the waiting appends in order, and those they lead to; appends wait again after. */
    void commitAppends() {
        while (!held.isEmpty()) {
            held.poll().accept(null);
        }
    }

    /** Writes and commits the oldest waiting append only. */
    void commitNextAppend() {
        held.poll().accept(null);
    }

    /** Fails the oldest waiting append with the log's {@code error}. */
    void failNextAppend(ErrorCode error) {
        held.poll().accept(error);
    }

    /** Stops the coordinator and closes its logs, then opens both again: what a broker restart does. */
    void restart() {
        closeAll();
        open();
    }

    private void closeAll() {
        coordinator.close();
        logs.forEach(PartitionLog::close);
    }

    @Override
    public void close() {
        closeAll();
    }

    // ------------------------------------------------------------------ protocol helpers

    static Protocol protocol(String name, String... topics) {
        return new Protocol(name, subscription(topics));
    }

    /** A consumer-protocol subscription (v0): int16 version, topic names, null user data. */
    static byte[] subscription(String... topics) {
        ByteBuffer buf = ByteBuffer.allocate(256);
        buf.putShort((short) 0).putInt(topics.length);
        for (String t : topics) {
            byte[] b = t.getBytes(StandardCharsets.UTF_8);
            buf.putShort((short) b.length).put(b);
        }
        buf.putInt(-1);
        byte[] out = new byte[buf.position()];
        buf.flip().get(out);
        return out;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    JoinGroupRequest joinRequest(String group, String memberId, String instanceId, String clientId, List<Protocol> protocols) {
        return new JoinGroupRequest(group, memberId, instanceId, clientId, "/127.0.0.1", SESSION_TIMEOUT,
                REBALANCE_TIMEOUT, "consumer", protocols, null, (short) 9);
    }

    CompletableFuture<JoinGroupResult> join(String group, String memberId, List<Protocol> protocols) {
        return coordinator.joinGroup(joinRequest(group, memberId, null, "client", protocols));
    }

    /** The first join of a dynamic member: MEMBER_ID_REQUIRED, then the rejoin with the id (left parked). */
    CompletableFuture<JoinGroupResult> joinNew(String group, String clientId, List<Protocol> protocols) {
        JoinGroupResult first = coordinator.joinGroup(joinRequest(group, "", null, clientId, protocols)).join();
        if (first.error() != ErrorCode.MEMBER_ID_REQUIRED) {
            throw new AssertionError("expected MEMBER_ID_REQUIRED, got " + first);
        }
        return coordinator.joinGroup(joinRequest(group, first.memberId(), null, clientId, protocols));
    }

    CompletableFuture<SyncGroupResult> sync(String group, JoinGroupResult joined, Map<String, byte[]> assignments) {
        return coordinator.syncGroup(new SyncGroupRequest(group, joined.generationId(), joined.memberId(), null,
                "consumer", joined.protocolName(), assignments));
    }

    ErrorCode heartbeat(String group, JoinGroupResult joined) {
        return coordinator.heartbeat(group, joined.memberId(), null, joined.generationId()).join();
    }

    /** Joins the members and completes one generation: the leader assigns "assignment-of-<memberId>". */
    List<JoinGroupResult> stableGroup(String group, List<CompletableFuture<JoinGroupResult>> joins) {
        clock.advance(config.initialRebalanceDelayMs());
        List<JoinGroupResult> joined = joins.stream().map(CompletableFuture::join).toList();
        JoinGroupResult leader = joined.stream().filter(j -> j.memberId().equals(j.leader())).findFirst().orElseThrow();
        Map<String, byte[]> assignments = new HashMap<>();
        leader.members().forEach(m -> assignments.put(m.memberId(), bytes("assignment-of-" + m.memberId())));
        List<CompletableFuture<SyncGroupResult>> syncs = new ArrayList<>();
        for (JoinGroupResult j : joined) {
            syncs.add(sync(group, j, j == leader ? assignments : Map.of()));
        }
        syncs.forEach(s -> {
            if (s.join().error() != ErrorCode.NONE) {
                throw new AssertionError("sync failed: " + s.join());
            }
        });
        return joined;
    }

    Map<TopicPartition, ErrorCode> commit(String group, int generation, String memberId, Object... topicPartitionOffset) {
        List<OffsetCommitRequest.Partition> parts = new ArrayList<>();
        for (int i = 0; i < topicPartitionOffset.length; i += 3) {
            parts.add(new OffsetCommitRequest.Partition(new TopicPartition((String) topicPartitionOffset[i],
                    (Integer) topicPartitionOffset[i + 1]), ((Number) topicPartitionOffset[i + 2]).longValue(), 5, "meta"));
        }
        return coordinator.commitOffsets(new OffsetCommitRequest(group, generation, memberId, null, -1, parts, (short) 9)).join();
    }

    /** An OffsetCommit v9 of one partition from a consumer-protocol member: the partition's error. */
    ErrorCode commitConsumerOffset(String group, String memberId, int memberEpoch, String topic, int partition, long offset) {
        TopicPartition tp = new TopicPartition(topic, partition);
        return coordinator.commitOffsets(new OffsetCommitRequest(group, memberEpoch, memberId, null, -1,
                List.of(new OffsetCommitRequest.Partition(tp, offset, -1, "")), (short) 9)).join().get(tp);
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
