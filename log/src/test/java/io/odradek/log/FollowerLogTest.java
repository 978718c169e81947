package io.odradek.log;

import static io.odradek.log.Batches.batch;
import static io.odradek.log.Batches.idempotent;
import static io.odradek.log.Batches.transactional;
import static io.odradek.log.LogFixture.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.checkpoint.LeaderEpochFile.EpochEntry;
import io.odradek.wire.ErrorCode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A follower's log fed with the leader's batches (appendAsFollower) and the leader epoch cache's answers. */
class FollowerLogTest {
    private static final long NOW = 1_000_000L;
    /** Small segments, so the copy crosses several rolls. */
    private static final Map<String, String> SMALL_SEGMENTS = Map.of(LogConfig.SEGMENT_BYTES, "400");

    @TempDir
    Path tmp;

    private final LogFixture.ManualClock clock = new LogFixture.ManualClock(NOW);
    private PartitionLog leader;
    private PartitionLog follower;

    private PartitionLog open(String dir, Map<String, String> overrides) {
        return PartitionLog.open(tmp.resolve(dir), "t", 0, config(overrides),
                PartitionLog.Options.defaults().withClock(clock));
    }

    private void openBoth(Map<String, String> overrides) {
        leader = open("leader", overrides);
        follower = open("follower", overrides);
    }

    @AfterEach
    void closeLogs() {
        for (PartitionLog log : new PartitionLog[] {leader, follower}) {
            if (log != null) {
                log.close();
            }
        }
    }

    /** What a fetcher does: fetch from the follower's log end until it has everything the leader has. */
    static void replicate(PartitionLog from, PartitionLog to) throws IOException {
        while (to.logEndOffset() < from.logEndOffset()) {
            to.appendAsFollower(LogFixture.readSlice(from.read(to.logEndOffset(), 1 << 20)));
        }
    }

    /** Appends a mix of plain, idempotent and transactional batches and markers on the leader, copying each. */
    private void appendMixedHistory() throws IOException {
        leader.append(batch(NOW, "a", "b"), 0);
        replicate(leader, follower);
        leader.append(idempotent(1000L, (short) 0, 0, NOW, "i0", "i1"), 0);
        replicate(leader, follower);
        leader.append(transactional(2000L, (short) 1, 0, NOW, "t0"), 1);
        replicate(leader, follower);
        leader.append(transactional(3000L, (short) 4, 0, NOW, "x0", "x1"), 1);
        replicate(leader, follower);
        leader.appendMarker(3000L, (short) 4, 7, false, 1); // abort
        replicate(leader, follower);
        leader.append(idempotent(1000L, (short) 0, 2, NOW + 1, "i2"), 3);
        replicate(leader, follower);
        leader.appendMarker(2000L, (short) 1, 7, true, 3); // commit
        replicate(leader, follower);
        leader.append(transactional(4000L, (short) 0, 0, NOW + 2, "open"), 3); // left open
        replicate(leader, follower);
        leader.append(batch(NOW + 3, "c", "d", "e"), 3);
        replicate(leader, follower);
    }

    @Test
    void followerCopyOfTheLeaderIsByteIdenticalOnDiskWithTheSameProducerAndTransactionState() throws IOException {
        openBoth(SMALL_SEGMENTS);
        appendMixedHistory();

        assertThat(follower.numberOfSegments()).isGreaterThan(2);
        assertThat(follower.segmentBaseOffsets()).isEqualTo(leader.segmentBaseOffsets());
        assertThat(follower.logEndOffset()).isEqualTo(leader.logEndOffset()).isEqualTo(14L);
        assertThat(follower.activeProducers()).isEqualTo(leader.activeProducers());
        assertThat(follower.firstUnstableOffset()).isEqualTo(leader.firstUnstableOffset()).isEqualTo(10L);
        assertThat(follower.abortedTransactions(0, Long.MAX_VALUE))
                .isEqualTo(leader.abortedTransactions(0, Long.MAX_VALUE))
                .extracting(t -> t.producerId() + ":" + t.firstOffset() + "-" + t.lastOffset())
                .containsExactly("3000:5-7");
        assertThat(follower.leaderEpochs()).containsExactly(new EpochEntry(0, 0), new EpochEntry(1, 4),
                new EpochEntry(3, 8));
        // read_committed on the follower stops at the open transaction, as on the leader
        assertThat(LogFixture.readSlice(follower.read(0, 1 << 20, Long.MAX_VALUE, true)).array())
                .isEqualTo(LogFixture.readSlice(leader.read(0, 1 << 20, Long.MAX_VALUE, true)).array());

        leader.close();
        follower.close();
        // every file (segments, indexes, .txnindex, snapshots, leader-epoch-checkpoint) is the same, byte for byte
        Map<String, byte[]> leaderFiles = LogFixture.snapshotFiles(tmp.resolve("leader"));
        Map<String, byte[]> followerFiles = LogFixture.snapshotFiles(tmp.resolve("follower"));
        assertThat(followerFiles.keySet()).isEqualTo(leaderFiles.keySet()).anyMatch(n -> n.endsWith(".txnindex"));
        for (String name : leaderFiles.keySet()) {
            assertThat(followerFiles.get(name)).as(name).isEqualTo(leaderFiles.get(name));
        }
    }

    @Test
    void followerAppendKeepsTheLeadersOffsetsAndEpochsInPlace() throws IOException {
        openBoth(Map.of());
        leader.append(batch(NOW, "a", "b", "c"), 5);
        ByteBuffer fetched = LogFixture.readSlice(leader.read(0, 1 << 20));

        AppendResult r = follower.appendAsFollower(fetched.duplicate());

        assertThat(r.baseOffset()).isZero();
        assertThat(r.lastOffset()).isEqualTo(2L);
        assertThat(LogFixture.readSlice(follower.read(0, 1 << 20)).array()).isEqualTo(fetched.array());
        assertThat(Batches.offsetsAndValues(LogFixture.readSlice(follower.read(1, 1 << 20))))
                .containsExactly("0:a", "1:b", "2:c");
        assertThat(follower.latestEpoch()).isEqualTo(5);
    }

    @Test
    void followerAppendNotStartingAtTheLogEndIsRefusedAndWritesNothing() throws IOException {
        openBoth(Map.of());
        leader.append(batch(NOW, "a", "b"), 0);
        leader.append(batch(NOW, "c"), 0);
        replicate(leader, follower);
        Map<String, byte[]> before = LogFixture.snapshotFiles(tmp.resolve("follower"));

        ByteBuffer again = LogFixture.readSlice(leader.read(2, 1 << 20)); // offset 2, the follower is at 3
        assertThatThrownBy(() -> follower.appendAsFollower(again))
                .isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.OFFSET_OUT_OF_RANGE))
                .hasMessageContaining("first offset 2 is less than the log end offset 3");

        assertThat(follower.logEndOffset()).isEqualTo(3L);
        Map<String, byte[]> after = LogFixture.snapshotFiles(tmp.resolve("follower"));
        assertThat(after.keySet()).isEqualTo(before.keySet());
        for (String name : before.keySet()) {
            assertThat(after.get(name)).as(name).isEqualTo(before.get(name));
        }
    }

    @Test
    void followerAppendAcceptsAGapLeftByTheLeadersCompaction() throws IOException {
        openBoth(Map.of());
        leader.append(batch(NOW, "a", "b"), 0);
        leader.append(batch(NOW, "c", "d"), 0);
        ByteBuffer second = LogFixture.readSlice(leader.read(2, 1 << 20)); // as if offsets 0-1 were cleaned away

        follower.appendAsFollower(second);

        assertThat(follower.logEndOffset()).isEqualTo(4L);
        assertThat(Batches.offsetsAndValues(LogFixture.readSlice(follower.read(0, 1 << 20))))
                .containsExactly("2:c", "3:d");
    }

    @Test
    void followerAppendOfACorruptBatchIsRefused() throws IOException {
        openBoth(Map.of());
        leader.append(batch(NOW, "a", "b"), 0);
        ByteBuffer fetched = LogFixture.readSlice(leader.read(0, 1 << 20));
        fetched.put(fetched.limit() - 1, (byte) (fetched.get(fetched.limit() - 1) ^ 1));

        assertThatThrownBy(() -> follower.appendAsFollower(fetched))
                .isInstanceOfSatisfying(LogAppendException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.CORRUPT_MESSAGE));
        assertThat(follower.logEndOffset()).isZero();
    }

    @Test
    void followerTakesReplicatedProducerStateWithoutTheLeadersChecks() throws IOException {
        openBoth(Map.of());
        // Sequences the leader would refuse from a client (a gap, then an older epoch): replicated data is trusted.
        follower.appendAsFollower(stamped(idempotent(1000L, (short) 2, 0, NOW, "a"), 0, 0));
        follower.appendAsFollower(stamped(idempotent(1000L, (short) 2, 5, NOW, "b"), 1, 0));
        follower.appendAsFollower(stamped(idempotent(1000L, (short) 1, 9, NOW, "c"), 2, 0));

        assertThat(follower.activeProducers()).singleElement()
                .satisfies(p -> {
                    assertThat(p.producerEpoch()).isEqualTo((short) 1);
                    assertThat(p.lastSequence()).isEqualTo(9);
                });
    }

    /** {@code batch} as the leader would have written it: base offset and leader epoch set, CRC untouched. */
    private static ByteBuffer stamped(ByteBuffer batch, long baseOffset, int leaderEpoch) {
        io.odradek.wire.batch.RecordBatchHeader h = new io.odradek.wire.batch.RecordBatchHeader(batch, batch.position());
        h.setBaseOffset(baseOffset);
        h.setPartitionLeaderEpoch(leaderEpoch);
        return batch;
    }

    @Test
    void epochCacheAnswersAsKafkasLeaderEpochFileCache() throws IOException {
        leader = open("leader", Map.of());
        assertThat(leader.latestEpoch()).isEqualTo(-1);
        assertThat(leader.endOffsetForEpoch(0)).isEqualTo(EpochEndOffset.UNDEFINED);

        leader.append(batch(NOW, "a", "b"), 1);   // epoch 1 from 0
        leader.append(batch(NOW, "c"), 1);
        leader.append(batch(NOW, "d", "e"), 3);   // epoch 3 from 3
        leader.append(batch(NOW, "f"), 6);        // epoch 6 from 5; log end 6

        assertThat(leader.latestEpoch()).isEqualTo(6);
        assertThat(leader.endOffsetForEpoch(6)).isEqualTo(new EpochEndOffset(6, 6));  // latest: the log end
        assertThat(leader.endOffsetForEpoch(3)).isEqualTo(new EpochEndOffset(3, 5));
        assertThat(leader.endOffsetForEpoch(4)).isEqualTo(new EpochEndOffset(3, 5));  // unknown: the one below
        assertThat(leader.endOffsetForEpoch(5)).isEqualTo(new EpochEndOffset(3, 5));
        assertThat(leader.endOffsetForEpoch(1)).isEqualTo(new EpochEndOffset(1, 3));
        assertThat(leader.endOffsetForEpoch(2)).isEqualTo(new EpochEndOffset(1, 3));
        // below the first epoch: itself and the first epoch's start (Kafka: the data before it is gone)
        assertThat(leader.endOffsetForEpoch(0)).isEqualTo(new EpochEndOffset(0, 0));
        assertThat(leader.endOffsetForEpoch(7)).isEqualTo(EpochEndOffset.UNDEFINED);  // above the latest
        assertThat(leader.endOffsetForEpoch(-1)).isEqualTo(EpochEndOffset.UNDEFINED);

        leader.append(batch(NOW, "g"), 6);
        assertThat(leader.endOffsetForEpoch(6)).isEqualTo(new EpochEndOffset(6, 7));
        assertThat(leader.leaderEpochs()).extracting(EpochEntry::epoch).containsExactly(1, 3, 6);
    }

    @Test
    void followerLearnsEachBatchsLeaderEpochAndAnswersLikeTheLeader() throws IOException {
        openBoth(Map.of());
        leader.append(batch(NOW, "a", "b"), 1);
        leader.append(batch(NOW, "c"), 2);
        leader.append(batch(NOW, "d"), 4);
        // one fetch carrying all three batches
        follower.appendAsFollower(LogFixture.readSlice(leader.read(0, 1 << 20)));

        assertThat(follower.leaderEpochs()).isEqualTo(leader.leaderEpochs())
                .containsExactly(new EpochEntry(1, 0), new EpochEntry(2, 2), new EpochEntry(4, 3));
        for (int epoch = -1; epoch <= 5; epoch++) {
            assertThat(follower.endOffsetForEpoch(epoch)).as("epoch " + epoch).isEqualTo(leader.endOffsetForEpoch(epoch));
        }
        assertThat(follower.endOffsetForEpoch(2)).isEqualTo(new EpochEndOffset(2, 3));
        List<EpochEntry> epochs = follower.leaderEpochs();
        assertThat(epochs).hasSize(3);
    }
    /** Makes the next leader-epoch-checkpoint write fail (its temp file cannot be created); undo() lifts it. */
    private static Path blockEpochCheckpoint(PartitionLog log) throws IOException {
        Path obstacle = log.dir().resolve("leader-epoch-checkpoint.tmp");
        Files.createDirectories(obstacle.resolve("x"));
        return obstacle;
    }

    private static void unblock(Path obstacle) throws IOException {
        Files.delete(obstacle.resolve("x"));
        Files.delete(obstacle);
    }

    private static List<String> allRecords(PartitionLog log) throws IOException {
        return Batches.offsetsAndValues(LogFixture.readSlice(log.read(log.logStartOffset(), 1 << 20)));
    }

    @Test
    void leaderAppendWhoseEpochCheckpointCannotBeWrittenFailsAsAStorageErrorAndARetryWritesTheBatchOnce()
            throws IOException {
        leader = open("leader", Map.of());
        List<String> errors = new java.util.ArrayList<>();
        leader.onStorageError((what, e) -> errors.add(what));
        leader.append(batch(NOW, "a"), 0);
        Path obstacle = blockEpochCheckpoint(leader);

        assertThatThrownBy(() -> leader.append(batch(NOW, "b"), 1)).isInstanceOfSatisfying(LogException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.KAFKA_STORAGE_ERROR));

        assertThat(errors).containsExactly("append");
        assertThat(leader.logEndOffset()).isEqualTo(1L);
        assertThat(leader.leaderEpochs()).containsExactly(new EpochEntry(0, 0));
        unblock(obstacle);
        leader.append(batch(NOW, "b"), 1);
        assertThat(allRecords(leader)).containsExactly("0:a", "1:b");
        assertThat(leader.leaderEpochs()).containsExactly(new EpochEntry(0, 0), new EpochEntry(1, 1));
    }

    @Test
    void followerAppendWhoseEpochCheckpointCannotBeWrittenFailsAsAStorageErrorAndARetryWritesTheBatchesOnce()
            throws IOException {
        openBoth(Map.of());
        leader.append(batch(NOW, "a"), 0);
        replicate(leader, follower);
        leader.append(batch(NOW, "b", "c"), 2);
        Path obstacle = blockEpochCheckpoint(follower);

        assertThatThrownBy(() -> replicate(leader, follower)).isInstanceOfSatisfying(LogException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.KAFKA_STORAGE_ERROR));

        assertThat(follower.logEndOffset()).isEqualTo(1L);
        unblock(obstacle);
        replicate(leader, follower);
        assertThat(allRecords(follower)).containsExactly("0:a", "1:b", "2:c");
        assertThat(follower.leaderEpochs()).isEqualTo(leader.leaderEpochs())
                .containsExactly(new EpochEntry(0, 0), new EpochEntry(2, 1));
    }
    @Test
    void aNewLeaderAssigningItsEpochAtTheLogEndAnswersThePreviousEpochsEndBeforeItsFirstAppend() throws IOException {
        leader = open("leader", Map.of());
        leader.append(batch(NOW, "a", "b"), 1);
        leader.append(batch(NOW, "c"), 3);                // log end 3

        // a follower elected at epoch 4 wrote what nobody else has; this log is elected at epoch 5
        assertThat(leader.endOffsetForEpoch(4)).isEqualTo(EpochEndOffset.UNDEFINED);
        leader.assignEpochStartOffset(5, leader.logEndOffset());

        assertThat(leader.latestEpoch()).isEqualTo(5);
        assertThat(leader.endOffsetForEpoch(4)).isEqualTo(new EpochEndOffset(3, 3));   // truncate to 3
        assertThat(leader.endOffsetForEpoch(3)).isEqualTo(new EpochEndOffset(3, 3));
        assertThat(leader.endOffsetForEpoch(5)).isEqualTo(new EpochEndOffset(5, 3));
        leader.append(batch(NOW, "d"), 5);
        assertThat(leader.leaderEpochs()).containsExactly(new EpochEntry(1, 0), new EpochEntry(3, 2),
                new EpochEntry(5, 3));
    }

    @Test
    void truncationAtTheLogEndDropsAnEpochAssignedThereWithoutData() throws IOException {
        leader = open("leader", Map.of());
        leader.append(batch(NOW, "a", "b"), 1);
        leader.assignEpochStartOffset(2, 2);               // leader at epoch 2, then a follower again at once

        leader.truncateTo(2);                              // what the fetcher does: nothing to cut

        assertThat(leader.logEndOffset()).isEqualTo(2L);
        assertThat(leader.leaderEpochs()).containsExactly(new EpochEntry(1, 0));
        assertThat(leader.latestEpoch()).isEqualTo(1);
    }
}
