package io.odradek.coordinator.share.state;

import static io.odradek.coordinator.share.StateBatch.ACKNOWLEDGED;
import static io.odradek.coordinator.share.StateBatch.ARCHIVED;
import static io.odradek.coordinator.share.StateBatch.AVAILABLE;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.group.TopicCatalog;
import io.odradek.coordinator.runtime.CoordinatorLoader;
import io.odradek.coordinator.runtime.ManualScheduler;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.ShareStateSummary;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The share coordinator over real {@code __share_group_state} partition logs, on a manual clock. */
class ShareCoordinatorTest {
    private static final int PARTITIONS = 3;
    private static final UUID ORDERS = UUID.fromString("0c0ffee0-1234-4bcd-8123-56789abcdef0");
    private static final SharePartitionKey KEY = new SharePartitionKey("workers", ORDERS, 0);

    @TempDir
    Path dir;

    private final ManualScheduler clock = new ManualScheduler();
    private final List<PartitionLog> logs = new ArrayList<>();
    private ShareCoordinator coordinator;
    private SharePersister persister;

    /** Whether {@code orders} has been deleted. */
    private volatile boolean deleted;

    /** {@code orders} with 2 partitions until deleted, and nothing else. */
    private final TopicCatalog topics = new TopicCatalog() {
        @Override
        public Topic topic(String name) {
            return "orders".equals(name) ? new Topic("orders", ORDERS, 2) : null;
        }

        @Override
        public Topic topic(UUID id) {
            return ORDERS.equals(id) && !deleted ? new Topic("orders", ORDERS, 2) : null;
        }

        @Override
        public Collection<String> topicNames() {
            return List.of("orders");
        }
    };

    private void open(int updatesPerSnapshot) {
        logs.clear();
        for (int p = 0; p < PARTITIONS; p++) {
            logs.add(PartitionLog.open(dir, ShareCoordinator.TOPIC, p, LogConfig.defaults()));
        }
        ShareCoordinatorConfig config = ShareCoordinatorConfig.from(Map.of(
                ShareCoordinatorConfig.NUM_PARTITIONS, Integer.toString(PARTITIONS),
                ShareCoordinatorConfig.UPDATE_RECORDS_PER_SNAPSHOT, Integer.toString(updatesPerSnapshot)));
        coordinator = ShareCoordinator.create(config, p -> new PartitionLogCoordinatorLog(logs.get(p)), topics, p -> clock);
        coordinator.startup().join();
        persister = new LocalSharePersister(coordinator);
    }

    private void restart() {
        coordinator.close();
        logs.forEach(PartitionLog::close);
        open(coordinator.config().snapshotUpdateRecordsPerSnapshot());
    }

    @AfterEach
    void close() {
        if (coordinator != null) {
            coordinator.close();
        }
        logs.forEach(PartitionLog::close);
    }

    /** Every record of the key's partition, in log order. */
    private List<ShareStateRecord> records(SharePartitionKey key) {
        List<ShareStateRecord> out = new ArrayList<>();
        CoordinatorLoader.replay(new PartitionLogCoordinatorLog(logs.get(coordinator.partitionFor(key))),
                new ShareStateRecordCodec(), out::add, "test");
        return out;
    }

    private static StateBatch b(long first, long last, byte state, int count) {
        return new StateBatch(first, last, state, (short) count);
    }

    private ErrorCode write(int stateEpoch, int leaderEpoch, long startOffset, StateBatch... batches) {
        return persister.write(KEY, stateEpoch, leaderEpoch, startOffset, -1, List.of(batches)).join();
    }

    @Test
    void aShareGroupStateKeyGoesWhereKafkaPutsIt() {
        open(500);
        // Kafka: Utils.abs(key.hashCode()) % partitions, the key "groupId:topicId:partition" with Kafka's Uuid string.
        org.apache.kafka.common.Uuid kafkaId = new org.apache.kafka.common.Uuid(ORDERS.getMostSignificantBits(),
                ORDERS.getLeastSignificantBits());
        String kafkaKey = org.apache.kafka.server.share.SharePartitionKey.getInstance("workers", kafkaId, 0).asCoordinatorKey();
        assertThat(KEY.coordinatorKey()).isEqualTo(kafkaKey);
        assertThat(SharePartitionKey.parse(kafkaKey)).isEqualTo(KEY);
        assertThat(SharePartitionKey.parse("a:b:" + kafkaId + ":3")).isEqualTo(new SharePartitionKey("a:b", ORDERS, 3));
        assertThat(coordinator.partitionFor(KEY)).isEqualTo(org.apache.kafka.common.utils.Utils.abs(kafkaKey.hashCode()) % PARTITIONS);
    }

    @Test
    void anInitializedPartitionReadsBackItsStartOffsetAndStateEpoch() {
        open(500);
        assertThat(persister.initialize(KEY, 1, 42).join()).isEqualTo(ErrorCode.NONE);

        PersistedShareState state = persister.read(KEY, 0).join();
        assertThat(state.error()).isEqualTo(ErrorCode.NONE);
        assertThat(state.stateEpoch()).isEqualTo(1);
        assertThat(state.startOffset()).isEqualTo(42);
        assertThat(state.batches()).isEmpty();
        assertThat(records(KEY)).singleElement().satisfies(r -> {
            assertThat(r.type()).isEqualTo(ShareStateRecord.Type.SNAPSHOT);
            assertThat(r.value().snapshotEpoch()).isZero();
            assertThat(r.value().deliveryCompleteCount()).isZero();
            assertThat(r.value().createTimestamp()).isEqualTo(clock.nowMs());
        });
    }

    @Test
    void writesAreUpdatesMergedIntoTheState() {
        open(500);
        persister.initialize(KEY, 1, 0).join();
        assertThat(write(1, 0, 0, b(0, 99, AVAILABLE, 1))).isEqualTo(ErrorCode.NONE);
        assertThat(write(1, 0, 0, b(10, 19, ACKNOWLEDGED, 1), b(20, 20, ARCHIVED, 1))).isEqualTo(ErrorCode.NONE);

        assertThat(persister.read(KEY, 0).join().batches()).containsExactly(b(0, 9, AVAILABLE, 1),
                b(10, 19, ACKNOWLEDGED, 1), b(20, 20, ARCHIVED, 1), b(21, 99, AVAILABLE, 1));
        // The log holds the initial snapshot, then each write's own batches as an update.
        List<ShareStateRecord> records = records(KEY);
        assertThat(records).extracting(ShareStateRecord::type).containsExactly(ShareStateRecord.Type.SNAPSHOT,
                ShareStateRecord.Type.UPDATE, ShareStateRecord.Type.UPDATE);
        assertThat(records.get(2).value().batches()).containsExactly(b(10, 19, ACKNOWLEDGED, 1), b(20, 20, ARCHIVED, 1));
    }

    @Test
    void movingTheStartOffsetDropsTheBatchesBelowIt() {
        open(500);
        persister.initialize(KEY, 1, 0).join();
        write(1, 0, 0, b(0, 49, AVAILABLE, 1));
        write(1, 0, 30, b(30, 34, ACKNOWLEDGED, 1));

        PersistedShareState state = persister.read(KEY, 0).join();
        assertThat(state.startOffset()).isEqualTo(30);
        assertThat(state.batches()).containsExactly(b(30, 34, ACKNOWLEDGED, 1), b(35, 49, AVAILABLE, 1));
        // A start offset never moves back.
        write(1, 0, 10);
        assertThat(persister.read(KEY, 0).join().startOffset()).isEqualTo(30);
    }

    @Test
    void everyNthWriteIsASnapshotOfTheWholeState() {
        open(2);
        persister.initialize(KEY, 1, 0).join();
        write(1, 0, 0, b(0, 9, AVAILABLE, 1));
        write(1, 0, 0, b(0, 4, ACKNOWLEDGED, 1));
        write(1, 0, 0, b(5, 5, ARCHIVED, 2)); // two updates since the snapshot: this one is a snapshot
        write(1, 0, 0, b(6, 6, ACKNOWLEDGED, 1));

        List<ShareStateRecord> records = records(KEY);
        assertThat(records).extracting(ShareStateRecord::type).containsExactly(ShareStateRecord.Type.SNAPSHOT,
                ShareStateRecord.Type.UPDATE, ShareStateRecord.Type.UPDATE, ShareStateRecord.Type.SNAPSHOT,
                ShareStateRecord.Type.UPDATE);
        ShareGroupOffset snapshot = records.get(3).value();
        assertThat(snapshot.snapshotEpoch()).isEqualTo(1);
        assertThat(snapshot.stateEpoch()).isEqualTo(1);
        assertThat(snapshot.batches()).containsExactly(b(0, 4, ACKNOWLEDGED, 1), b(5, 5, ARCHIVED, 2), b(6, 9, AVAILABLE, 1));
        assertThat(records.get(4).value().snapshotEpoch()).isEqualTo(1);
        assertThat(persister.read(KEY, 0).join().batches()).containsExactly(b(0, 4, ACKNOWLEDGED, 1),
                b(5, 5, ARCHIVED, 2), b(6, 6, ACKNOWLEDGED, 1), b(7, 9, AVAILABLE, 1));
    }

    @Test
    void stateSurvivesARestartExactly() {
        open(3);
        persister.initialize(KEY, 2, 5).join();
        SharePartitionKey other = new SharePartitionKey("workers", ORDERS, 1);
        persister.initialize(other, 1, 0).join();
        for (int i = 0; i < 8; i++) {
            write(2, 0, 5 + i, b(5 + i, 5 + i, ACKNOWLEDGED, 1), b(20 + i, 20 + i, ARCHIVED, 3));
        }
        persister.read(KEY, 4).join();
        PersistedShareState before = persister.read(KEY, 4).join();
        ShareGroupOffset stateBefore = coordinator.stateOf(KEY).join();
        PersistedShareState otherBefore = persister.read(other, 0).join();

        restart();

        assertThat(persister.read(KEY, 4).join()).isEqualTo(before);
        assertThat(coordinator.stateOf(KEY).join()).isEqualTo(stateBefore);
        assertThat(persister.read(other, 0).join()).isEqualTo(otherBefore);
        assertThat(before.startOffset()).isEqualTo(12);
        assertThat(before.batches()).containsExactly(b(12, 12, ACKNOWLEDGED, 1), b(20, 27, ARCHIVED, 3));
        // The leader epoch a read recorded still fences after the restart.
        assertThat(persister.read(KEY, 3).join().error()).isEqualTo(ErrorCode.FENCED_LEADER_EPOCH);
    }

    @Test
    void thePruneIntervalDeletesTheRecordsBelowTheLatestSnapshotAndAReloadGivesTheSameState() {
        open(3);
        persister.initialize(KEY, 1, 0).join();
        for (int i = 0; i < 10; i++) {
            write(1, 0, i, b(i, i, ACKNOWLEDGED, 1), b(20 + i, 20 + i, ARCHIVED, 2));
        }
        PartitionLog log = logs.get(coordinator.partitionFor(KEY));
        List<ShareStateRecord> all = records(KEY);
        assertThat(all).hasSize(11); // the initializing snapshot and 10 writes, every 4th a snapshot
        int lastSnapshot = 0;
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).type() == ShareStateRecord.Type.SNAPSHOT) {
                lastSnapshot = i;
            }
        }
        assertThat(lastSnapshot).isEqualTo(8);
        PersistedShareState before = persister.read(KEY, 0).join();
        assertThat(log.logStartOffset()).isZero();

        clock.advance(300_000); // share.coordinator.state.topic.prune.interval.ms, Kafka's default

        assertThat(log.logStartOffset()).isEqualTo(8); // only the latest snapshot and the updates after it remain
        assertThat(records(KEY)).extracting(ShareStateRecord::type).containsExactly(ShareStateRecord.Type.SNAPSHOT,
                ShareStateRecord.Type.UPDATE, ShareStateRecord.Type.UPDATE);
        restart();
        assertThat(persister.read(KEY, 0).join()).isEqualTo(before);
        assertThat(before.startOffset()).isEqualTo(9);
    }

    @Test
    void aReadUnderANewLeaderEpochFencesTheOldLeader() {
        open(500);
        persister.initialize(KEY, 1, 0).join();
        assertThat(persister.read(KEY, 3).join().error()).isEqualTo(ErrorCode.NONE);
        int recordsAfterFirstRead = records(KEY).size();
        persister.read(KEY, 3).join();
        assertThat(records(KEY)).hasSize(recordsAfterFirstRead); // the same epoch again writes nothing

        PersistedShareState stale = persister.read(KEY, 2).join();
        assertThat(stale.error()).isEqualTo(ErrorCode.FENCED_LEADER_EPOCH);
        assertThat(stale.message()).isEqualTo("The leader epoch in the request is older than the epoch on the broker.");
        assertThat(write(1, 2, 0, b(0, 0, ACKNOWLEDGED, 1))).isEqualTo(ErrorCode.FENCED_LEADER_EPOCH);
        assertThat(write(1, 3, 0, b(0, 0, ACKNOWLEDGED, 1))).isEqualTo(ErrorCode.NONE);
    }

    @Test
    void aNewStateEpochFencesWritesAndInitializationsUnderAnOlderOne() {
        open(500);
        persister.initialize(KEY, 1, 0).join();
        write(1, 0, 0, b(0, 9, AVAILABLE, 1));
        assertThat(persister.initialize(KEY, 2, 100).join()).isEqualTo(ErrorCode.NONE);

        assertThat(write(1, 0, 100, b(100, 100, ACKNOWLEDGED, 1))).isEqualTo(ErrorCode.FENCED_STATE_EPOCH);
        assertThat(persister.initialize(KEY, 1, 0).join()).isEqualTo(ErrorCode.FENCED_STATE_EPOCH);
        PersistedShareState state = persister.read(KEY, 0).join();
        assertThat(state.stateEpoch()).isEqualTo(2);
        assertThat(state.startOffset()).isEqualTo(100);
        assertThat(state.batches()).isEmpty();
        // Re-initializing starts a new snapshot epoch.
        assertThat(records(KEY).get(records(KEY).size() - 1).value().snapshotEpoch()).isEqualTo(1);
    }

    @Test
    void aPartitionNeverInitializedIsRefusedAsKafkaRefusesIt() {
        open(500);
        PersistedShareState read = persister.read(KEY, 0).join();
        assertThat(read.error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(read.message()).isEqualTo("Read operation on uninitialized share partition not allowed.");
        ShareStateResult written = coordinator.write(KEY, 0, 0, 0, -1, List.of(b(0, 0, AVAILABLE, 1))).join();
        assertThat(written).isEqualTo(new ShareStateResult(ErrorCode.INVALID_REQUEST,
                "Write operation on uninitialized share partition not allowed."));
        // The summary answers with an unknown start offset instead.
        assertThat(persister.readSummary(KEY, 0).join()).isEqualTo(new ShareStateSummary(ErrorCode.NONE, null, 0, 0, -1, -1));
        assertThat(records(KEY)).isEmpty();
    }

    @Test
    void aTopicPartitionTheMetadataDoesNotHoldIsUnknown() {
        open(500);
        SharePartitionKey noSuchPartition = new SharePartitionKey("workers", ORDERS, 2);
        SharePartitionKey noSuchTopic = new SharePartitionKey("workers", UUID.randomUUID(), 0);
        assertThat(persister.initialize(noSuchPartition, 0, 0).join()).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(persister.initialize(noSuchTopic, 0, 0).join()).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(persister.readSummary(noSuchTopic, 0).join().error()).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(persister.delete(noSuchTopic).join()).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    }

    @Test
    void negativeEpochsAndPartitionsAreInvalidRequests() {
        open(500);
        persister.initialize(KEY, 1, 0).join();
        assertThat(coordinator.write(KEY, 1, -1, 0, -1, List.of()).join()).isEqualTo(new ShareStateResult(
                ErrorCode.INVALID_REQUEST, "The leader epoch cannot be a negative number."));
        assertThat(coordinator.write(KEY, -1, 0, 0, -1, List.of()).join()).isEqualTo(new ShareStateResult(
                ErrorCode.INVALID_REQUEST, "The state epoch cannot be a negative number."));
        assertThat(coordinator.initialize(new SharePartitionKey("workers", ORDERS, -1), 0, 0).join()).isEqualTo(
                new ShareStateResult(ErrorCode.INVALID_REQUEST, "The partition id cannot be a negative number."));
    }

    @Test
    void theSummaryGivesStartOffsetEpochsAndTheDeliveryCompleteCount() {
        open(500);
        persister.initialize(KEY, 3, 10).join();
        persister.read(KEY, 5).join();
        persister.write(KEY, 3, 5, 14, 6, List.of(b(14, 19, ACKNOWLEDGED, 1))).join();
        assertThat(persister.readSummary(KEY, 5).join()).isEqualTo(new ShareStateSummary(ErrorCode.NONE, null, 3, 5, 14, 6));
        // A write at the same start offset never lowers the count; one at an older start offset keeps the recorded one.
        persister.write(KEY, 3, 5, 14, 2, List.of()).join();
        persister.write(KEY, 3, 5, 12, 1, List.of()).join();
        assertThat(persister.readSummary(KEY, 5).join().deliveryCompleteCount()).isEqualTo(6);
    }

    @Test
    void deletedStateIsATombstoneAndReadsAsNeverInitialized() {
        open(500);
        persister.initialize(KEY, 1, 0).join();
        write(1, 0, 0, b(0, 9, ACKNOWLEDGED, 1));
        assertThat(persister.delete(KEY).join()).isEqualTo(ErrorCode.NONE);

        assertThat(records(KEY).get(records(KEY).size() - 1)).isEqualTo(ShareStateRecord.tombstone(KEY));
        assertThat(persister.read(KEY, 0).join().error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        restart();
        assertThat(persister.read(KEY, 0).join().error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        // Deleting again writes nothing; initializing again starts from epoch 0 fencing nothing old.
        int count = records(KEY).size();
        assertThat(persister.delete(KEY).join()).isEqualTo(ErrorCode.NONE);
        assertThat(records(KEY)).hasSize(count);
        assertThat(persister.initialize(KEY, 0, 0).join()).isEqualTo(ErrorCode.NONE);
    }

    @Test
    void aDeletedTopicsShareStateIsDropped() {
        open(500);
        persister.initialize(KEY, 1, 0).join();
        coordinator.onTopicsDeleted().join();
        assertThat(coordinator.stateOf(KEY).join()).isNotNull(); // orders still exists
        deleted = true;
        coordinator.onTopicsDeleted().join();
        assertThat(coordinator.stateOf(KEY).join()).isNull();
        assertThat(records(KEY).get(records(KEY).size() - 1)).isEqualTo(ShareStateRecord.tombstone(KEY));
    }

    @Test
    void aPartitionNotLoadedHereAnswersNotCoordinator() {
        open(500);
        coordinator.onResignation(coordinator.partitionFor(KEY)).join();
        assertThat(persister.initialize(KEY, 0, 0).join()).isEqualTo(ErrorCode.NOT_COORDINATOR);
        PersistedShareState read = persister.read(KEY, 0).join();
        assertThat(read.error()).isEqualTo(ErrorCode.NOT_COORDINATOR);
        assertThat(read.message()).isEqualTo("This is not the correct coordinator.");
        coordinator.onElection(coordinator.partitionFor(KEY)).join();
        assertThat(persister.initialize(KEY, 0, 0).join()).isEqualTo(ErrorCode.NONE);
    }
}
