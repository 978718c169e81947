package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.CoordinatorAclFixture.alice;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.coordinators.LocalCoordinatorLocator;
import io.odradek.broker.sharestate.ShareStateTopic;
import io.odradek.broker.topics.TopicServiceCatalog;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.coordinator.share.state.LocalSharePersister;
import io.odradek.coordinator.share.state.ShareCoordinator;
import io.odradek.coordinator.share.state.ShareCoordinatorConfig;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DeleteShareGroupStateApi;
import io.odradek.wire.api.FindCoordinatorApi;
import io.odradek.wire.api.InitializeShareGroupStateApi;
import io.odradek.wire.api.ReadShareGroupStateApi;
import io.odradek.wire.api.ReadShareGroupStateApi.Response.ReadStateResult;
import io.odradek.wire.api.ReadShareGroupStateSummaryApi;
import io.odradek.wire.api.ReadShareGroupStateSummaryApi.Response.ReadStateSummaryResult;
import io.odradek.wire.api.WriteShareGroupStateApi;
import io.odradek.wire.api.WriteShareGroupStateApi.Request.WriteStateData.PartitionData;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The share-state APIs (83-87) and FindCoordinator key type 2 on one node, over a real __share_group_state. */
class ShareStateHandlersTest {
    @TempDir
    Path dir;
    AdminFixture f;
    GroupCoordinator groups;
    ShareCoordinator coordinator;
    ShareStateTopic stateTopic;
    UUID orders;

    @BeforeEach
    void start() {
        f = new AdminFixture(dir, Map.of("share.coordinator.state.topic.num.partitions", "3",
                "share.coordinator.state.topic.segment.bytes", "1048576"));
        orders = f.topics.createTopic("orders", 2, Map.of(), false).id();
        groups = GroupCoordinator.create(GroupCoordinatorConfig.defaults(), p -> {
            throw new AssertionError("no group lookups here");
        });
        coordinator = ShareCoordinator.create(ShareCoordinatorConfig.from(f.config.effectiveConfigs()),
                p -> new PartitionLogCoordinatorLog(f.topics.partitionLog(ShareStateTopic.NAME, p).orElseThrow()),
                new TopicServiceCatalog(f.topics));
        stateTopic = ShareStateTopic.start(f.topics, coordinator);
    }

    @AfterEach
    void stop() {
        coordinator.close();
        groups.close();
        f.close();
    }

    private String key(int partition) {
        return new SharePartitionKey("workers", orders, partition).coordinatorKey();
    }

    private FindCoordinatorHandler find() {
        return new FindCoordinatorHandler(new LocalCoordinatorLocator(f.node, groups, null, stateTopic));
    }

    private static Struct shareLookup(String... keys) {
        return FindCoordinatorApi.Request.SCHEMA.newStruct().set(FindCoordinatorApi.Request.KEY_TYPE, (byte) 2)
                .set(FindCoordinatorApi.Request.COORDINATOR_KEYS, List.of(keys));
    }

    private static List<String> coordinators(Struct response) {
        return response.get(FindCoordinatorApi.Response.COORDINATORS).stream()
                .map(c -> c.get(FindCoordinatorApi.Response.Coordinator.KEY).split(":")[2] + " "
                        + ErrorCode.forCode(c.get(FindCoordinatorApi.Response.Coordinator.ERROR_CODE)) + " "
                        + c.get(FindCoordinatorApi.Response.Coordinator.NODE_ID))
                .toList();
    }

    @Test
    void theFirstShareKeyLookupCreatesTheStateTopicWithKafkasConfigsThenFindsThisBroker() throws Exception {
        assertThat(coordinators(f.call(find(), 6, shareLookup(key(0))))).containsExactly("0 COORDINATOR_NOT_AVAILABLE -1");
        stateTopic.ready().get(10, java.util.concurrent.TimeUnit.SECONDS);

        assertThat(coordinators(f.call(find(), 6, shareLookup(key(0), key(1))))).containsExactly("0 NONE 1", "1 NONE 1");
        TopicInfo topic = f.topics.topic(ShareStateTopic.NAME).orElseThrow();
        assertThat(topic.partitions()).isEqualTo(3);
        assertThat(topic.internal()).isTrue();
        assertThat(topic.configs()).isEqualTo(Map.of("cleanup.policy", "delete", "retention.ms", "-1",
                "compression.type", "producer", "segment.bytes", "1048576"));
        assertThat(coordinator.isLoaded()).isTrue();
    }

    @Test
    void shareKeysAreRefusedBelowVersionSixMalformedOrWithoutClusterAction() {
        Struct v5 = f.call(find(), 5, shareLookup(key(0)));
        assertThat(coordinators(v5)).containsExactly("0 INVALID_REQUEST -1");
        Struct malformed = f.call(find(), 6, FindCoordinatorApi.Request.SCHEMA.newStruct().set(FindCoordinatorApi.Request.KEY_TYPE, (byte) 2)
                .set(FindCoordinatorApi.Request.COORDINATOR_KEYS, List.of("workers:not-a-uuid:0", "workers:only-two")));
        assertThat(malformed.get(FindCoordinatorApi.Response.COORDINATORS))
                .extracting(c -> ErrorCode.forCode(c.get(FindCoordinatorApi.Response.Coordinator.ERROR_CODE)))
                .containsExactly(ErrorCode.INVALID_REQUEST, ErrorCode.INVALID_REQUEST);
        Struct refused = CoordinatorAclFixture.call(find(), 6, shareLookup(key(0)), alice("DESCRIBE GROUP workers"));
        assertThat(coordinators(refused)).containsExactly("0 CLUSTER_AUTHORIZATION_FAILED -1");
        assertThat(f.topics.topic(ShareStateTopic.NAME)).as("nothing created for refused keys").isEmpty();
    }

    @Test
    void stateWrittenThroughTheApisReadsBackAndIsSummarized() throws Exception {
        stateTopic.ready().get(10, java.util.concurrent.TimeUnit.SECONDS);
        Struct init = InitializeShareGroupStateApi.Request.SCHEMA.newStruct().set(InitializeShareGroupStateApi.Request.GROUP_ID, "workers");
        Struct initTopic = init.add(InitializeShareGroupStateApi.Request.TOPICS)
                .set(InitializeShareGroupStateApi.Request.InitializeStateData.TOPIC_ID, orders);
        for (int p = 0; p < 2; p++) {
            initTopic.add(InitializeShareGroupStateApi.Request.InitializeStateData.PARTITIONS)
                    .set(InitializeShareGroupStateApi.Request.InitializeStateData.PartitionData.PARTITION, p)
                    .set(InitializeShareGroupStateApi.Request.InitializeStateData.PartitionData.STATE_EPOCH, 1)
                    .set(InitializeShareGroupStateApi.Request.InitializeStateData.PartitionData.START_OFFSET, 10L * p);
        }
        Struct initialized = f.call(new InitializeShareGroupStateHandler(coordinator), 0, init);
        assertThat(initialized.get(InitializeShareGroupStateApi.Response.RESULTS)).singleElement().satisfies(r -> {
            assertThat(r.get(InitializeShareGroupStateApi.Response.InitializeStateResult.TOPIC_ID)).isEqualTo(orders);
            assertThat(r.get(InitializeShareGroupStateApi.Response.InitializeStateResult.PARTITIONS))
                    .extracting(p -> p.get(InitializeShareGroupStateApi.Response.InitializeStateResult.PartitionResult.PARTITION) + " "
                            + p.get(InitializeShareGroupStateApi.Response.InitializeStateResult.PartitionResult.ERROR_CODE))
                    .containsExactly("0 0", "1 0");
        });

        Struct write = WriteShareGroupStateApi.Request.SCHEMA.newStruct().set(WriteShareGroupStateApi.Request.GROUP_ID, "workers");
        Struct partition = write.add(WriteShareGroupStateApi.Request.TOPICS)
                .set(WriteShareGroupStateApi.Request.WriteStateData.TOPIC_ID, orders)
                .add(WriteShareGroupStateApi.Request.WriteStateData.PARTITIONS)
                .set(PartitionData.PARTITION, 1).set(PartitionData.STATE_EPOCH, 1).set(PartitionData.LEADER_EPOCH, 0)
                .set(PartitionData.START_OFFSET, 12L).set(PartitionData.DELIVERY_COMPLETE_COUNT, 3);
        partition.add(PartitionData.STATE_BATCHES).set(PartitionData.StateBatch.FIRST_OFFSET, 12L)
                .set(PartitionData.StateBatch.LAST_OFFSET, 14L).set(PartitionData.StateBatch.DELIVERY_STATE, StateBatch.ACKNOWLEDGED)
                .set(PartitionData.StateBatch.DELIVERY_COUNT, (short) 1);
        partition.add(PartitionData.STATE_BATCHES).set(PartitionData.StateBatch.FIRST_OFFSET, 15L)
                .set(PartitionData.StateBatch.LAST_OFFSET, 19L).set(PartitionData.StateBatch.DELIVERY_STATE, StateBatch.AVAILABLE)
                .set(PartitionData.StateBatch.DELIVERY_COUNT, (short) 2);
        Struct written = f.call(new WriteShareGroupStateHandler(coordinator), 1, write);
        assertThat(written.get(WriteShareGroupStateApi.Response.RESULTS).get(0).get(WriteShareGroupStateApi.Response.WriteStateResult.PARTITIONS))
                .extracting(p -> p.get(WriteShareGroupStateApi.Response.WriteStateResult.PartitionResult.ERROR_CODE))
                .containsExactly((short) 0);

        Struct read = ReadShareGroupStateApi.Request.SCHEMA.newStruct().set(ReadShareGroupStateApi.Request.GROUP_ID, "workers");
        read.add(ReadShareGroupStateApi.Request.TOPICS).set(ReadShareGroupStateApi.Request.ReadStateData.TOPIC_ID, orders)
                .add(ReadShareGroupStateApi.Request.ReadStateData.PARTITIONS)
                .set(ReadShareGroupStateApi.Request.ReadStateData.PartitionData.PARTITION, 1)
                .set(ReadShareGroupStateApi.Request.ReadStateData.PartitionData.LEADER_EPOCH, 0);
        Struct state = f.call(new ReadShareGroupStateHandler(coordinator), 0, read)
                .get(ReadShareGroupStateApi.Response.RESULTS).get(0).get(ReadStateResult.PARTITIONS).get(0);
        assertThat(state.get(ReadStateResult.PartitionResult.ERROR_CODE)).isZero();
        assertThat(state.get(ReadStateResult.PartitionResult.STATE_EPOCH)).isEqualTo(1);
        assertThat(state.get(ReadStateResult.PartitionResult.START_OFFSET)).isEqualTo(12L);
        assertThat(state.get(ReadStateResult.PartitionResult.STATE_BATCHES)).extracting(b ->
                b.get(ReadStateResult.PartitionResult.StateBatch.FIRST_OFFSET) + "-" + b.get(ReadStateResult.PartitionResult.StateBatch.LAST_OFFSET)
                        + " state " + b.get(ReadStateResult.PartitionResult.StateBatch.DELIVERY_STATE)
                        + " count " + b.get(ReadStateResult.PartitionResult.StateBatch.DELIVERY_COUNT))
                .containsExactly("12-14 state 2 count 1", "15-19 state 0 count 2");

        Struct summary = ReadShareGroupStateSummaryApi.Request.SCHEMA.newStruct().set(ReadShareGroupStateSummaryApi.Request.GROUP_ID, "workers");
        Struct summaryTopic = summary.add(ReadShareGroupStateSummaryApi.Request.TOPICS)
                .set(ReadShareGroupStateSummaryApi.Request.ReadStateSummaryData.TOPIC_ID, orders);
        for (int p = 0; p < 2; p++) {
            summaryTopic.add(ReadShareGroupStateSummaryApi.Request.ReadStateSummaryData.PARTITIONS)
                    .set(ReadShareGroupStateSummaryApi.Request.ReadStateSummaryData.PartitionData.PARTITION, p)
                    .set(ReadShareGroupStateSummaryApi.Request.ReadStateSummaryData.PartitionData.LEADER_EPOCH, 0);
        }
        assertThat(f.call(new ReadShareGroupStateSummaryHandler(coordinator), 1, summary).get(ReadShareGroupStateSummaryApi.Response.RESULTS)
                .get(0).get(ReadStateSummaryResult.PARTITIONS)).extracting(p -> p.get(ReadStateSummaryResult.PartitionResult.PARTITION)
                        + ": epoch " + p.get(ReadStateSummaryResult.PartitionResult.STATE_EPOCH)
                        + " start " + p.get(ReadStateSummaryResult.PartitionResult.START_OFFSET)
                        + " complete " + p.get(ReadStateSummaryResult.PartitionResult.DELIVERY_COMPLETE_COUNT))
                .containsExactly("0: epoch 1 start 0 complete 0", "1: epoch 1 start 12 complete 3");

        Struct delete = DeleteShareGroupStateApi.Request.SCHEMA.newStruct().set(DeleteShareGroupStateApi.Request.GROUP_ID, "workers");
        delete.add(DeleteShareGroupStateApi.Request.TOPICS).set(DeleteShareGroupStateApi.Request.DeleteStateData.TOPIC_ID, orders)
                .add(DeleteShareGroupStateApi.Request.DeleteStateData.PARTITIONS)
                .set(DeleteShareGroupStateApi.Request.DeleteStateData.PartitionData.PARTITION, 1);
        assertThat(f.call(new DeleteShareGroupStateHandler(coordinator), 0, delete).get(DeleteShareGroupStateApi.Response.RESULTS)
                .get(0).get(DeleteShareGroupStateApi.Response.DeleteStateResult.PARTITIONS).get(0)
                .get(DeleteShareGroupStateApi.Response.DeleteStateResult.PartitionResult.ERROR_CODE)).isZero();
        Struct gone = f.call(new ReadShareGroupStateHandler(coordinator), 0, read)
                .get(ReadShareGroupStateApi.Response.RESULTS).get(0).get(ReadStateResult.PARTITIONS).get(0);
        assertThat(ErrorCode.forCode(gone.get(ReadStateResult.PartitionResult.ERROR_CODE))).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(gone.get(ReadStateResult.PartitionResult.ERROR_MESSAGE))
                .isEqualTo("Read operation on uninitialized share partition not allowed.");
        assertThat(gone.get(ReadStateResult.PartitionResult.START_OFFSET)).isZero();
    }

    @Test
    void withoutClusterActionEveryPartitionIsRefusedAndNothingIsWritten() {
        Struct init = InitializeShareGroupStateApi.Request.SCHEMA.newStruct().set(InitializeShareGroupStateApi.Request.GROUP_ID, "workers");
        Struct topic = init.add(InitializeShareGroupStateApi.Request.TOPICS)
                .set(InitializeShareGroupStateApi.Request.InitializeStateData.TOPIC_ID, orders);
        for (int p = 0; p < 2; p++) {
            topic.add(InitializeShareGroupStateApi.Request.InitializeStateData.PARTITIONS)
                    .set(InitializeShareGroupStateApi.Request.InitializeStateData.PartitionData.PARTITION, p)
                    .set(InitializeShareGroupStateApi.Request.InitializeStateData.PartitionData.STATE_EPOCH, 1)
                    .set(InitializeShareGroupStateApi.Request.InitializeStateData.PartitionData.START_OFFSET, 0L);
        }
        Struct refused = CoordinatorAclFixture.call(new InitializeShareGroupStateHandler(coordinator), 0, init, alice("ALTER CLUSTER kafka-cluster"));
        assertThat(refused.get(InitializeShareGroupStateApi.Response.RESULTS).get(0)
                .get(InitializeShareGroupStateApi.Response.InitializeStateResult.PARTITIONS))
                .extracting(p -> ErrorCode.forCode(p.get(InitializeShareGroupStateApi.Response.InitializeStateResult.PartitionResult.ERROR_CODE))
                        + " " + p.get(InitializeShareGroupStateApi.Response.InitializeStateResult.PartitionResult.ERROR_MESSAGE))
                .containsExactly("CLUSTER_AUTHORIZATION_FAILED Cluster authorization failed.",
                        "CLUSTER_AUTHORIZATION_FAILED Cluster authorization failed.");
        assertThat(f.topics.topic(ShareStateTopic.NAME)).isEmpty();
    }

    @Test
    void anEmptyGroupIdGetsAResponseWithoutResults() {
        Struct read = ReadShareGroupStateApi.Request.SCHEMA.newStruct().set(ReadShareGroupStateApi.Request.GROUP_ID, "");
        read.add(ReadShareGroupStateApi.Request.TOPICS).set(ReadShareGroupStateApi.Request.ReadStateData.TOPIC_ID, orders)
                .add(ReadShareGroupStateApi.Request.ReadStateData.PARTITIONS)
                .set(ReadShareGroupStateApi.Request.ReadStateData.PartitionData.PARTITION, 0);
        assertThat(f.call(new ReadShareGroupStateHandler(coordinator), 0, read).get(ReadShareGroupStateApi.Response.RESULTS)).isEmpty();
    }

    @Test
    void theBrokersPersisterCreatesTheStateTopicOnFirstUseAndKeepsStateAcrossARestart() {
        SharePersister persister = new LocalSharePersister(coordinator, stateTopic::ready);
        SharePartitionKey key = new SharePartitionKey("workers", orders, 0);
        assertThat(persister.initialize(key, 1, 5).join()).isEqualTo(ErrorCode.NONE);
        assertThat(persister.write(key, 1, 0, 5, -1, List.of(new StateBatch(5, 9, StateBatch.ARCHIVED, (short) 5))).join())
                .isEqualTo(ErrorCode.NONE);

        coordinator.close();
        coordinator = ShareCoordinator.create(ShareCoordinatorConfig.from(f.config.effectiveConfigs()),
                p -> new PartitionLogCoordinatorLog(f.topics.partitionLog(ShareStateTopic.NAME, p).orElseThrow()),
                new TopicServiceCatalog(f.topics));
        stateTopic = ShareStateTopic.start(f.topics, coordinator);
        PersistedShareState state = new LocalSharePersister(coordinator, stateTopic::ready).read(key, 0).join();
        assertThat(state.error()).isEqualTo(ErrorCode.NONE);
        assertThat(state.startOffset()).isEqualTo(5);
        assertThat(state.batches()).containsExactly(new StateBatch(5, 9, StateBatch.ARCHIVED, (short) 5));
    }
}
