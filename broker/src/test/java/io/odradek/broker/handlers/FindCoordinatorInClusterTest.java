package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.api.RequestContext;
import io.odradek.broker.coordinators.ClusterCoordinatorLocator;
import io.odradek.broker.coordinators.FakeCluster;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.FindCoordinatorApi;
import io.odradek.wire.api.FindCoordinatorApi.Request;
import io.odradek.wire.api.FindCoordinatorApi.Response;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Struct;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * FindCoordinator in a cluster: the leader of the key's internal partition in the metadata image (here a
 * hand-made image of three brokers), at its client endpoint.
 */
class FindCoordinatorInClusterTest {
    private final List<String> creations = new ArrayList<>();
    /** Broker 1's view: __consumer_offsets' 3 partitions led by 2, 3, 1; __transaction_state's 2 by 3 and nobody. */
    private final FakeCluster cluster = new FakeCluster(1).withBrokers(1, 2, 3)
            .withTopic(OffsetsTopic.NAME, 2, 3, 1)
            .withTopic("__transaction_state", 3, -1);
    private final FindCoordinatorHandler handler = new FindCoordinatorHandler(new ClusterCoordinatorLocator(cluster, creations::add));

    private Struct call(int version, Struct request) {
        ApiSpec api = handler.api();
        short v = (short) version;
        Struct decoded = AdminFixture.roundTrip(api.request(), request, v, api.isFlexible(v));
        RequestContext context = new RequestContext(new RequestHeader(api.key(), v, 1, "test"),
                new InetSocketAddress("127.0.0.1", 50000), UnpooledByteBufAllocator.DEFAULT, ImmediateEventExecutor.INSTANCE);
        return AdminFixture.roundTrip(api.response(), handler.handle(context, decoded).join(), v, api.isFlexible(v));
    }

    /** A key whose partition in a topic of {@code partitions} is {@code partition}. */
    private static String keyOn(int partition, int partitions) {
        for (int i = 0; ; i++) {
            if (OffsetsTopic.partitionFor("key-" + i, partitions) == partition) {
                return "key-" + i;
            }
        }
    }

    @Test
    void aGroupsCoordinatorIsTheLeaderOfItsOffsetsPartitionAtItsClientEndpoint() {
        for (int partition = 0; partition < 3; partition++) {
            int leader = new int[] {2, 3, 1}[partition];
            Struct found = call(3, Request.SCHEMA.newStruct().set(Request.KEY, keyOn(partition, 3)).set(Request.KEY_TYPE, (byte) 0));
            assertThat(found.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
            assertThat(found.get(Response.ERROR_MESSAGE)).isNull();
            assertThat(found.get(Response.NODE_ID)).isEqualTo(leader);
            assertThat(found.get(Response.HOST)).isEqualTo("host-" + leader);
            assertThat(found.get(Response.PORT)).isEqualTo(9090 + leader);
        }
        assertThat(creations).isEmpty();
    }

    @Test
    void batchedKeysAreEachAnsweredByTheirOwnPartitionsLeaderOrNotAvailableWithoutOne() {
        String ledBy3 = keyOn(0, 2);
        String leaderless = keyOn(1, 2);
        Struct request = Request.SCHEMA.newStruct().set(Request.KEY_TYPE, (byte) 1)
                .set(Request.COORDINATOR_KEYS, List.of(ledBy3, leaderless));

        List<Struct> coordinators = call(4, request).get(Response.COORDINATORS);

        assertThat(coordinators).hasSize(2);
        Struct first = coordinators.get(0);
        assertThat(first.get(Response.Coordinator.KEY)).isEqualTo(ledBy3);
        assertThat(first.get(Response.Coordinator.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(first.get(Response.Coordinator.NODE_ID)).isEqualTo(3);
        assertThat(first.get(Response.Coordinator.HOST)).isEqualTo("host-3");
        assertThat(first.get(Response.Coordinator.PORT)).isEqualTo(9093);
        Struct second = coordinators.get(1);
        assertThat(second.get(Response.Coordinator.KEY)).isEqualTo(leaderless);
        assertThat(second.get(Response.Coordinator.ERROR_CODE)).isEqualTo(ErrorCode.COORDINATOR_NOT_AVAILABLE.code());
        assertThat(second.get(Response.Coordinator.ERROR_MESSAGE)).isEqualTo("The coordinator is not available.");
        assertThat(second.get(Response.Coordinator.NODE_ID)).isEqualTo(-1);
        assertThat(second.get(Response.Coordinator.HOST)).isEmpty();
        assertThat(second.get(Response.Coordinator.PORT)).isEqualTo(-1);
    }

    @Test
    void beforeTheInternalTopicExistsTheLookupStartsItsCreationAndAnswersNotAvailable() {
        FakeCluster empty = new FakeCluster(2).withBrokers(1, 2, 3);
        FindCoordinatorHandler fresh = new FindCoordinatorHandler(new ClusterCoordinatorLocator(empty, creations::add));
        RequestContext context = new RequestContext(new RequestHeader(FindCoordinatorApi.SPEC.key(), (short) 1, 1, "test"),
                new InetSocketAddress("127.0.0.1", 50000), UnpooledByteBufAllocator.DEFAULT, ImmediateEventExecutor.INSTANCE);

        Struct answer = fresh.handle(context, Request.SCHEMA.newStruct().set(Request.KEY, "orders-app")
                .set(Request.KEY_TYPE, (byte) 0)).join();

        assertThat(answer.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.COORDINATOR_NOT_AVAILABLE.code());
        assertThat(answer.get(Response.NODE_ID)).isEqualTo(-1);
        assertThat(creations).containsExactly(OffsetsTopic.NAME);
    }

    @Test
    void aLeaderMovingInTheImageMovesTheAnswer() {
        String key = keyOn(2, 3);
        assertThat(call(3, Request.SCHEMA.newStruct().set(Request.KEY, key)).get(Response.NODE_ID)).isEqualTo(1);

        cluster.withTopic(OffsetsTopic.NAME, 2, 3, 2); // partition 2's leadership moved to broker 2

        Struct moved = call(3, Request.SCHEMA.newStruct().set(Request.KEY, key));
        assertThat(moved.get(Response.NODE_ID)).isEqualTo(2);
        assertThat(moved.get(Response.HOST)).isEqualTo("host-2");
    }
}
