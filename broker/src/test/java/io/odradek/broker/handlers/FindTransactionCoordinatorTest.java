package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.txn.TransactionStateTopic;
import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.producer.ProducerIdManager;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.coordinator.transaction.TransactionCoordinatorConfig;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.FindCoordinatorApi.Request;
import io.odradek.wire.api.FindCoordinatorApi.Response;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FindCoordinator for transactional ids: {@code __transaction_state} is created on the first lookup. */
class FindTransactionCoordinatorTest {
    @TempDir
    Path dir;
    AdminFixture f;
    ProducerIdManager producerIds;
    GroupCoordinator groups;
    TransactionCoordinator coordinator;
    FindCoordinatorHandler handler;

    @BeforeEach
    void start() {
        f = new AdminFixture(dir, Map.of("transaction.state.log.num.partitions", "3",
                "transaction.state.log.segment.bytes", "1048576"));
        producerIds = ProducerIdManager.open(dir);
        groups = GroupCoordinator.create(GroupCoordinatorConfig.defaults(), p -> {
            throw new AssertionError("no group lookups here");
        });
        coordinator = TransactionCoordinator.create(TransactionCoordinatorConfig.from(f.config.effectiveConfigs()),
                p -> new PartitionLogCoordinatorLog(f.topics.partitionLog(TransactionStateTopic.NAME, p).orElseThrow()),
                producerIds, (pid, epoch, coordinatorEpoch, commit, partitions) ->
                        CompletableFuture.completedFuture(Map.<TopicPartition, ErrorCode>of()));
        TransactionStateTopic stateTopic = TransactionStateTopic.start(f.topics, coordinator,
                coordinator.config().stateLogPartitions(), f.config.transactionStateLogSegmentBytes());
        handler = new FindCoordinatorHandler(f.node, groups, stateTopic);
    }

    @AfterEach
    void stop() {
        coordinator.close();
        groups.close();
        producerIds.close();
        f.close();
    }

    @Test
    void theFirstLookupCreatesTheCompactedInternalTopicAndLaterOnesFindThisBroker() throws Exception {
        assertThat(f.topics.topic(TransactionStateTopic.NAME)).isEmpty();
        Struct first = f.call(handler, 3, lookup("my-txn"));
        assertThat(first.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.COORDINATOR_NOT_AVAILABLE.code());
        assertThat(first.get(Response.NODE_ID)).isEqualTo(-1);
        assertThat(first.get(Response.HOST)).isEmpty();
        assertThat(first.get(Response.PORT)).isEqualTo(-1);

        Struct found = awaitFound(() -> f.call(handler, 3, lookup("my-txn")));
        assertThat(found.get(Response.NODE_ID)).isEqualTo(AdminFixture.NODE_ID);
        assertThat(found.get(Response.HOST)).isEqualTo("127.0.0.1");
        assertThat(found.get(Response.PORT)).isEqualTo(AdminFixture.PORT);

        TopicInfo topic = f.topics.topic(TransactionStateTopic.NAME).orElseThrow();
        assertThat(topic.partitions()).isEqualTo(3);
        assertThat(topic.internal()).isTrue();
        assertThat(topic.configs()).isEqualTo(Map.of("cleanup.policy", "compact", "compression.type", "uncompressed",
                "segment.bytes", "1048576"));
    }

    @Test
    void batchedLookupsAnswerEveryTransactionalIdInRequestOrder() throws Exception {
        Struct batched = awaitFound(() -> {
            Struct r = f.call(handler, 6, Request.SCHEMA.newStruct().set(Request.KEY_TYPE, (byte) 1)
                    .set(Request.COORDINATOR_KEYS, List.of("b", "a")));
            // awaitFound reads the v0-3 error field; lift the first coordinator's code there
            return r.set(Response.ERROR_CODE, r.get(Response.COORDINATORS).get(0).get(Response.Coordinator.ERROR_CODE));
        });
        assertThat(batched.get(Response.COORDINATORS)).extracting(c -> c.get(Response.Coordinator.KEY) + "@"
                        + c.get(Response.Coordinator.NODE_ID) + ":" + c.get(Response.Coordinator.PORT) + " "
                        + c.get(Response.Coordinator.ERROR_CODE))
                .containsExactly("b@1:19092 0", "a@1:19092 0");
    }

    @Test
    void anUnknownKeyTypeIsAnInvalidRequestWithKafkasMessage() {
        Struct v3 = f.call(handler, 3, Request.SCHEMA.newStruct().set(Request.KEY, "x").set(Request.KEY_TYPE, (byte) 3));
        assertThat(v3.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
        assertThat(v3.get(Response.ERROR_MESSAGE)).startsWith("This most likely occurs because of a request being malformed");
        Struct v6 = f.call(handler, 6, Request.SCHEMA.newStruct().set(Request.KEY_TYPE, (byte) 3)
                .set(Request.COORDINATOR_KEYS, List.of("x", "y")));
        assertThat(v6.get(Response.COORDINATORS)).extracting(c -> c.get(Response.Coordinator.KEY) + " "
                        + c.get(Response.Coordinator.ERROR_CODE) + " " + c.get(Response.Coordinator.NODE_ID))
                .containsExactly("x 42 -1", "y 42 -1");
        assertThat(f.topics.topic(TransactionStateTopic.NAME)).isEmpty();
    }

    private static Struct lookup(String transactionalId) {
        return Request.SCHEMA.newStruct().set(Request.KEY, transactionalId).set(Request.KEY_TYPE, (byte) 1);
    }

    private static Struct awaitFound(java.util.function.Supplier<Struct> call) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        Struct response = call.get();
        while (response.get(Response.ERROR_CODE) == ErrorCode.COORDINATOR_NOT_AVAILABLE.code() && System.nanoTime() < deadline) {
            Thread.sleep(10);
            response = call.get();
        }
        assertThat(response.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        return response;
    }
}
