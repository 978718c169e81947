package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.TestClusterView;
import io.odradek.broker.security.Session;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.security.KafkaPrincipal;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.acl.Authorizer;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeClusterApi;
import io.odradek.wire.api.DescribeClusterApi.Response.DescribeClusterBroker;
import io.odradek.wire.api.MetadataApi;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseBroker;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseTopic;
import io.odradek.wire.api.MetadataApi.Response.MetadataResponseTopic.MetadataResponsePartition;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Struct;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10 (listeners): Metadata and DescribeCluster answer with the endpoints of the listener the request came on,
 * leaving out brokers without it, over the hand-made image whose brokers have PLAINTEXT (port) and REPLICATION
 * (port + 1000) endpoints.
 */
class RequestListenerEndpointsTest {
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

    /** Broker 2 has only a REPLICATION endpoint; 1 has both (3 is fenced). */
    private static ClusterImage brokerTwoOnlyOnReplication() {
        ClusterImage base = ClusterImages.threeBrokers();
        SortedMap<Integer, BrokerRegistration> brokers = new TreeMap<>(base.brokers());
        brokers.put(2, new BrokerRegistration(2, 12, new UUID(7, 2),
                List.of(new Endpoint("REPLICATION", "10.0.0.2", 10092)), "r2", false, false));
        return new ClusterImage(base.offset(), base.clusterId(), brokers, base.topics(), 0);
    }

    private static Struct call(ApiHandler handler, int version, Struct request, String listener) throws Exception {
        ApiSpec api = handler.api();
        short v = (short) version;
        Session session = new Session(KafkaPrincipal.ANONYMOUS, listener, SecurityProtocol.PLAINTEXT,
                InetAddress.getLoopbackAddress(), Authorizer.ALLOW_ALL);
        RequestContext context = new RequestContext(new RequestHeader(api.key(), v, 1, "test"),
                new InetSocketAddress("127.0.0.1", 50000), UnpooledByteBufAllocator.DEFAULT,
                ImmediateEventExecutor.INSTANCE, ImmediateEventExecutor.INSTANCE.newPromise(), null, session);
        Struct response = handler.handle(context, AdminFixture.roundTrip(api.request(), request, v, api.isFlexible(v)))
                .get(10, TimeUnit.SECONDS);
        return AdminFixture.roundTrip(api.response(), response, v, api.isFlexible(v));
    }

    private Struct metadata(String listener) throws Exception {
        return call(new MetadataHandler(fx.topics, TestClusterView.of(brokerTwoOnlyOnReplication(), 1, null)), 12,
                MetadataApi.Request.SCHEMA.newStruct().set(MetadataApi.Request.TOPICS, null), listener);
    }

    @Test
    void metadataOnTheReplicationListenerGivesEveryLiveBrokersReplicationEndpoint() throws Exception {
        Struct r = metadata("REPLICATION");
        assertThat(r.get(MetadataApi.Response.BROKERS)).extracting(b -> b.get(MetadataResponseBroker.NODE_ID),
                        b -> b.get(MetadataResponseBroker.HOST), b -> b.get(MetadataResponseBroker.PORT))
                .containsExactly(tuple(1, "10.0.0.1", 10092), tuple(2, "10.0.0.2", 10092));
        Struct ordersP1 = r.get(MetadataApi.Response.TOPICS).get(1).get(MetadataResponseTopic.PARTITIONS).get(1);
        assertThat(ordersP1.get(MetadataResponsePartition.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(ordersP1.get(MetadataResponsePartition.LEADER_ID)).isEqualTo(2);
    }

    @Test
    void metadataOnThePlaintextListenerLeavesOutTheBrokerWithoutIt() throws Exception {
        Struct r = metadata("PLAINTEXT");
        assertThat(r.get(MetadataApi.Response.BROKERS)).extracting(b -> b.get(MetadataResponseBroker.NODE_ID),
                        b -> b.get(MetadataResponseBroker.PORT))
                .containsExactly(tuple(1, 9092));
        Struct ordersP1 = r.get(MetadataApi.Response.TOPICS).get(1).get(MetadataResponseTopic.PARTITIONS).get(1);
        assertThat(ordersP1.get(MetadataResponsePartition.ERROR_CODE)).isEqualTo(ErrorCode.LISTENER_NOT_FOUND.code());
        assertThat(ordersP1.get(MetadataResponsePartition.LEADER_ID)).isEqualTo(-1);
    }

    @Test
    void describeClusterListsTheBrokersOfTheRequestsListener() throws Exception {
        DescribeClusterHandler handler = new DescribeClusterHandler(fx.topics,
                TestClusterView.of(brokerTwoOnlyOnReplication(), 1, null));
        Struct onReplication = call(handler, 1, DescribeClusterApi.Request.SCHEMA.newStruct(), "REPLICATION");
        assertThat(onReplication.get(DescribeClusterApi.Response.BROKERS)).extracting(
                        b -> b.get(DescribeClusterBroker.BROKER_ID), b -> b.get(DescribeClusterBroker.PORT))
                .containsExactly(tuple(1, 10092), tuple(2, 10092));
        Struct onPlaintext = call(handler, 1, DescribeClusterApi.Request.SCHEMA.newStruct(), "PLAINTEXT");
        assertThat(onPlaintext.get(DescribeClusterApi.Response.BROKERS)).extracting(
                        b -> b.get(DescribeClusterBroker.BROKER_ID), b -> b.get(DescribeClusterBroker.PORT))
                .containsExactly(tuple(1, 9092));
    }
}
