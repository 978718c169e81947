package io.odradek.broker.handlers;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.odradek.broker.BrokerConfig;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.cluster.SingleNodeClusterView;
import io.odradek.broker.security.Session;
import io.odradek.broker.topics.ConfigDescriber;
import io.odradek.broker.topics.LocalNode;
import io.odradek.broker.topics.TopicService;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.WireWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A TopicService in a temp dir and the admin handlers over it. {@link #call} runs a request the way the
 * network layer would see it: the request is encoded and decoded at the version first (so fields the
 * version lacks are at their defaults), and so is the response (so tests see what a client reads).
 */
final class AdminFixture implements AutoCloseable {
    static final int NODE_ID = 1;
    static final int PORT = 19092;

    final Path dir;
    final BrokerConfig config;
    final TopicService topics;
    final LocalNode node;
    final ConfigDescriber configs;
    /** This broker alone, as the single-node broker's ClusterView shows it. */
    final ClusterView cluster;
    private int correlationId;
    /** Who the requests come from (issue 10: a session with a test authorizer); anonymous, allow-all by default. */
    Session session = Session.PLAINTEXT_ANONYMOUS;

    AdminFixture(Path dir) {
        this(dir, Map.of());
    }

    AdminFixture(Path dir, Map<String, String> settings) {
        this.dir = dir;
        Map<String, String> all = new HashMap<>(settings);
        all.put("log.dirs", dir.toString());
        all.putIfAbsent("node.id", Integer.toString(NODE_ID));
        all.putIfAbsent("listeners", "PLAINTEXT://127.0.0.1:0");
        this.config = BrokerConfig.of(all);
        this.topics = TopicService.open(config);
        this.node = new LocalNode(config.nodeId(), "127.0.0.1", () -> PORT, null);
        this.configs = new ConfigDescriber(config);
        this.cluster = new SingleNodeClusterView(topics, node);
    }

    MetadataHandler metadata() {
        return new MetadataHandler(topics, cluster);
    }

    CreateTopicsHandler createTopics() {
        return new CreateTopicsHandler(topics, configs);
    }

    DeleteTopicsHandler deleteTopics() {
        return new DeleteTopicsHandler(topics);
    }

    DescribeClusterHandler describeCluster() {
        return new DescribeClusterHandler(topics, cluster);
    }

    DescribeConfigsHandler describeConfigs() {
        return new DescribeConfigsHandler(topics, configs);
    }

    Struct call(ApiHandler handler, int version, Struct request) {
        ApiSpec api = handler.api();
        short v = (short) version;
        Struct decodedRequest = roundTrip(api.request(), request, v, api.isFlexible(v));
        RequestContext context = new RequestContext(new RequestHeader(api.key(), v, ++correlationId, "test"),
                new InetSocketAddress("127.0.0.1", 50000), UnpooledByteBufAllocator.DEFAULT,
                ImmediateEventExecutor.INSTANCE, ImmediateEventExecutor.INSTANCE.newPromise(), null, session);
        Struct response;
        try {
            response = handler.handle(context, decodedRequest).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(api.name() + " v" + version + " failed", e);
        }
        return roundTrip(api.response(), response, v, api.isFlexible(v));
    }

    static Struct roundTrip(Schema schema, Struct struct, short version, boolean flexible) {
        WireWriter out = new WireWriter(UnpooledByteBufAllocator.DEFAULT);
        schema.write(out, struct, version, flexible);
        List<Object> parts = out.finish();
        ByteBuf buf = (ByteBuf) parts.get(0);
        try {
            Struct read = schema.read(buf, version, flexible);
            if (buf.isReadable()) {
                throw new AssertionError(buf.readableBytes() + " bytes left after reading " + schema);
            }
            return read;
        } finally {
            buf.release();
        }
    }

    @Override
    public void close() {
        topics.close();
    }
}
