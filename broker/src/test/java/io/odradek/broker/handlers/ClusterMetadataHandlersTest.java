package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.ClusterImages.AUDIT_ID;
import static io.odradek.broker.handlers.ClusterImages.ORDERS_ID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.odradek.broker.cluster.TestClusterView;
import io.odradek.broker.handlers.ClusterImages.FakeController;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DescribeClusterApi;
import io.odradek.wire.api.DescribeClusterApi.Response.DescribeClusterBroker;
import io.odradek.wire.api.MetadataApi;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseBroker;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseTopic;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseTopic.MetadataResponsePartition;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Metadata and DescribeCluster over a hand-made image of three brokers, one of them fenced. */
class ClusterMetadataHandlersTest {
    @TempDir
    Path dir;
    AdminFixture fx;

    @BeforeEach
    void open() {
        fx = new AdminFixture(dir);
    }

    @AfterEach
    void close() {
        fx.close();
    }

    private MetadataHandler metadata(ClusterImage image, int localBrokerId) {
        return new MetadataHandler(fx.topics, TestClusterView.of(image, localBrokerId, null));
    }

    @Test
    void metadataListsLiveBrokersAndEachPartitionsLeaderEpochReplicasIsrAndOfflineReplicas() {
        Struct r = fx.call(metadata(ClusterImages.threeBrokers(), 1), 12,
                MetadataApi.Request.SCHEMA.newStruct().set(MetadataApi.Request.TOPICS, null));

        assertThat(r.get(MetadataApi.Response.CLUSTER_ID)).isEqualTo("cluster-xyz");
        assertThat(r.get(MetadataApi.Response.CONTROLLER_ID)).isEqualTo(1);
        // Broker 3 is fenced: clients never see it.
        assertThat(r.get(MetadataApi.Response.BROKERS)).extracting(b -> b.get(MetadataResponseBroker.NODE_ID),
                        b -> b.get(MetadataResponseBroker.HOST), b -> b.get(MetadataResponseBroker.PORT),
                        b -> b.get(MetadataResponseBroker.RACK))
                .containsExactly(tuple(1, "10.0.0.1", 9092, "r1"), tuple(2, "10.0.0.2", 9092, "r2"));
        List<Struct> topics = r.get(MetadataApi.Response.TOPICS);
        assertThat(topics).extracting(t -> t.get(MetadataResponseTopic.NAME), t -> t.get(MetadataResponseTopic.TOPIC_ID))
                .containsExactly(tuple("audit", AUDIT_ID), tuple("orders", ORDERS_ID));
        assertThat(topics.get(1).get(MetadataResponseTopic.PARTITIONS)).extracting(
                        p -> p.get(MetadataResponsePartition.PARTITION_INDEX),
                        p -> p.get(MetadataResponsePartition.ERROR_CODE),
                        p -> p.get(MetadataResponsePartition.LEADER_ID),
                        p -> p.get(MetadataResponsePartition.LEADER_EPOCH),
                        p -> p.get(MetadataResponsePartition.REPLICA_NODES),
                        p -> p.get(MetadataResponsePartition.ISR_NODES),
                        p -> p.get(MetadataResponsePartition.OFFLINE_REPLICAS))
                .containsExactly(
                        tuple(0, ErrorCode.NONE.code(), 1, 4, List.of(1, 2, 3), List.of(1, 2), List.of(3)),
                        tuple(1, ErrorCode.NONE.code(), 2, 2, List.of(2, 3, 1), List.of(2, 1), List.of(3)),
                        tuple(2, ErrorCode.LEADER_NOT_AVAILABLE.code(), -1, 7, List.of(3, 2), List.of(3), List.of(3)));
        // A replica on a broker that never registered is offline too.
        assertThat(topics.get(0).get(MetadataResponseTopic.PARTITIONS)).singleElement().satisfies(p -> {
            assertThat(p.get(MetadataResponsePartition.LEADER_ID)).isEqualTo(1);
            assertThat(p.get(MetadataResponsePartition.REPLICA_NODES)).containsExactly(4, 1);
            assertThat(p.get(MetadataResponsePartition.OFFLINE_REPLICAS)).containsExactly(4);
        });
    }

    @Test
    void metadataV0ListsOnlyReachableReplicasAndFlagsTheRestWithReplicaNotAvailable() {
        // An empty list at v0 is every topic; v0 filters replicas and ISR to live brokers (Kafka's errorUnavailableEndpoints).
        Struct r = fx.call(metadata(ClusterImages.threeBrokers(), 1), 0, MetadataApi.Request.SCHEMA.newStruct());

        List<Struct> topics = r.get(MetadataApi.Response.TOPICS);
        assertThat(topics).extracting(t -> t.get(MetadataResponseTopic.NAME)).containsExactly("audit", "orders");
        assertThat(topics.get(1).get(MetadataResponseTopic.PARTITIONS)).extracting(
                        p -> p.get(MetadataResponsePartition.PARTITION_INDEX),
                        p -> p.get(MetadataResponsePartition.ERROR_CODE),
                        p -> p.get(MetadataResponsePartition.LEADER_ID),
                        p -> p.get(MetadataResponsePartition.REPLICA_NODES),
                        p -> p.get(MetadataResponsePartition.ISR_NODES))
                .containsExactly(
                        tuple(0, ErrorCode.REPLICA_NOT_AVAILABLE.code(), 1, List.of(1, 2), List.of(1, 2)),
                        tuple(1, ErrorCode.REPLICA_NOT_AVAILABLE.code(), 2, List.of(2, 1), List.of(2, 1)),
                        tuple(2, ErrorCode.LEADER_NOT_AVAILABLE.code(), -1, List.of(2), List.of()));
        assertThat(topics.get(0).get(MetadataResponseTopic.PARTITIONS)).singleElement().satisfies(p -> {
            assertThat(p.get(MetadataResponsePartition.ERROR_CODE)).isEqualTo(ErrorCode.REPLICA_NOT_AVAILABLE.code());
            assertThat(p.get(MetadataResponsePartition.REPLICA_NODES)).containsExactly(1);
        });

        // v1 lists every replica and reports no error for a partition whose leader is live.
        Struct v1 = fx.call(metadata(ClusterImages.threeBrokers(), 1), 1,
                MetadataApi.Request.SCHEMA.newStruct().set(MetadataApi.Request.TOPICS, null));
        assertThat(v1.get(MetadataApi.Response.TOPICS).get(1).get(MetadataResponseTopic.PARTITIONS)).extracting(
                        p -> p.get(MetadataResponsePartition.ERROR_CODE), p -> p.get(MetadataResponsePartition.REPLICA_NODES))
                .containsExactly(tuple(ErrorCode.NONE.code(), List.of(1, 2, 3)), tuple(ErrorCode.NONE.code(), List.of(2, 3, 1)),
                        tuple(ErrorCode.LEADER_NOT_AVAILABLE.code(), List.of(3, 2)));
    }

    @Test
    void aLeaderWithoutTheClientListenerIsListenerNotFoundFromV6AndLeaderNotAvailableBefore() {
        ClusterImage base = ClusterImages.threeBrokers();
        SortedMap<Integer, BrokerRegistration> brokers = new TreeMap<>(base.brokers());
        brokers.put(2, new BrokerRegistration(2, 12, new UUID(7, 2),
                List.of(new Endpoint("REPLICATION", "10.0.0.2", 10092)), "r2", false, false));
        ClusterImage image = new ClusterImage(base.offset(), base.clusterId(), brokers, base.topics(), 0);

        for (int version : new int[] {1, 5, 6, 12}) {
            Struct r = fx.call(metadata(image, 1), version, MetadataApi.Request.SCHEMA.newStruct().set(MetadataApi.Request.TOPICS, null));
            Struct ordersP1 = r.get(MetadataApi.Response.TOPICS).get(1).get(MetadataResponseTopic.PARTITIONS).get(1);
            assertThat(ordersP1.get(MetadataResponsePartition.LEADER_ID)).as("v%d", version).isEqualTo(-1);
            assertThat(ordersP1.get(MetadataResponsePartition.ERROR_CODE)).as("v%d", version).isEqualTo(version >= 6
                    ? ErrorCode.LISTENER_NOT_FOUND.code() : ErrorCode.LEADER_NOT_AVAILABLE.code());
        }
    }

    @Test
    void aFencedBrokerNamesTheLowestLiveBrokerAsController() {
        Struct r = fx.call(metadata(ClusterImages.threeBrokers(), 3), 1,
                MetadataApi.Request.SCHEMA.newStruct().set(MetadataApi.Request.TOPICS, null));

        assertThat(r.get(MetadataApi.Response.CONTROLLER_ID)).isEqualTo(1);
    }

    @Test
    void metadataOfOneTopicByNameDoesNotAutoCreateItWhenItExistsInTheImage() {
        Struct request = MetadataApi.Request.SCHEMA.newStruct();
        request.add(MetadataApi.Request.TOPICS).set(MetadataApi.Request.MetadataRequestTopic.NAME, "orders");

        Struct r = fx.call(metadata(ClusterImages.threeBrokers(), 2), 12, request);

        assertThat(r.get(MetadataApi.Response.CONTROLLER_ID)).isEqualTo(2);
        assertThat(r.get(MetadataApi.Response.TOPICS)).singleElement()
                .satisfies(t -> assertThat(t.get(MetadataResponseTopic.PARTITIONS)).hasSize(3));
        assertThat(fx.topics.topics()).isEmpty();
    }

    @Test
    void describeClusterHidesFencedBrokersUnlessAskedFromV2() {
        DescribeClusterHandler handler = new DescribeClusterHandler(fx.topics,
                TestClusterView.of(ClusterImages.threeBrokers(), 2, null));

        Struct live = fx.call(handler, 2, DescribeClusterApi.Request.SCHEMA.newStruct());
        Struct all = fx.call(handler, 2, DescribeClusterApi.Request.SCHEMA.newStruct()
                .set(DescribeClusterApi.Request.INCLUDE_FENCED_BROKERS, true));

        assertThat(live.get(DescribeClusterApi.Response.CLUSTER_ID)).isEqualTo("cluster-xyz");
        assertThat(live.get(DescribeClusterApi.Response.CONTROLLER_ID)).isEqualTo(2);
        assertThat(live.get(DescribeClusterApi.Response.BROKERS)).extracting(b -> b.get(DescribeClusterBroker.BROKER_ID),
                        b -> b.get(DescribeClusterBroker.HOST), b -> b.get(DescribeClusterBroker.RACK),
                        b -> b.get(DescribeClusterBroker.IS_FENCED))
                .containsExactly(tuple(1, "10.0.0.1", "r1", false), tuple(2, "10.0.0.2", "r2", false));
        assertThat(all.get(DescribeClusterApi.Response.BROKERS)).extracting(b -> b.get(DescribeClusterBroker.BROKER_ID),
                        b -> b.get(DescribeClusterBroker.IS_FENCED))
                .containsExactly(tuple(1, false), tuple(2, false), tuple(3, true));
    }

    @Test
    void describeClusterForControllersListsTheQuorumVotersWithTheActiveControllerInACluster() {
        QuorumInfo quorum = new QuorumInfo(3, 5, 1200, List.of(
                new QuorumInfo.ReplicaState(1, 1200, 10, 10), new QuorumInfo.ReplicaState(2, 1100, 11, 9),
                new QuorumInfo.ReplicaState(3, 1200, -1, 12)), List.of(), List.of(
                new Endpoint("CONTROLLER", "10.0.0.1", 19092), new Endpoint("CONTROLLER", "10.0.0.2", 19092),
                new Endpoint("CONTROLLER", "10.0.0.3", 19092)));
        FakeController controller = new FakeController(c -> null, CompletableFuture.completedFuture(quorum));
        DescribeClusterHandler handler = new DescribeClusterHandler(fx.topics,
                TestClusterView.of(ClusterImages.threeBrokers(), 1, controller));

        Struct r = fx.call(handler, 1, DescribeClusterApi.Request.SCHEMA.newStruct()
                .set(DescribeClusterApi.Request.ENDPOINT_TYPE, (byte) 2));

        assertThat(r.get(DescribeClusterApi.Response.ERROR_CODE)).isZero();
        assertThat(r.get(DescribeClusterApi.Response.ENDPOINT_TYPE)).isEqualTo((byte) 2);
        assertThat(r.get(DescribeClusterApi.Response.CONTROLLER_ID)).isEqualTo(3);
        assertThat(r.get(DescribeClusterApi.Response.BROKERS)).extracting(b -> b.get(DescribeClusterBroker.BROKER_ID),
                        b -> b.get(DescribeClusterBroker.HOST), b -> b.get(DescribeClusterBroker.PORT))
                .containsExactly(tuple(1, "10.0.0.1", 19092), tuple(2, "10.0.0.2", 19092), tuple(3, "10.0.0.3", 19092));
    }
}
