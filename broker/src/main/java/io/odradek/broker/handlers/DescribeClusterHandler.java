package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.cluster.SingleNodeClusterView;
import io.odradek.broker.topics.LocalNode;
import io.odradek.broker.topics.TopicService;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeClusterApi;
import io.odradek.wire.api.DescribeClusterApi.Response;
import io.odradek.wire.api.DescribeClusterApi.Response.DescribeClusterBroker;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeCluster (key 60), versions 0-2 (KIP-700; all flexible). Cluster id, controller id (this node:
 * it is its own controller) and the broker list, which is just us, never fenced (v2's
 * IncludeFencedBrokers changes nothing). v1+ asks for an endpoint type: we are a broker listener, so
 * BROKERS (1) is answered and CONTROLLERS (2) gets MISMATCHED_ENDPOINT_TYPE, anything else
 * UNSUPPORTED_ENDPOINT_TYPE (INVALID_REQUEST at v0), as Kafka does. Without an authorizer, requested
 * cluster operations are all of them.
 */
public final class DescribeClusterHandler implements ApiHandler {
    private static final byte BROKERS = 1;
    private static final byte CONTROLLERS = 2;

    private final TopicService topics;
    private final LocalNode node;
    /** The cluster image (brokers, leaders, ISRs); synthesized from the catalog on a single node. */
    private final ClusterView cluster;

    public DescribeClusterHandler(TopicService topics, LocalNode node, ClusterView cluster) {
        this.topics = topics;
        this.node = node;
        this.cluster = cluster;
    }

    /** A single node's handler: the cluster is this broker alone. */
    public DescribeClusterHandler(TopicService topics, LocalNode node) {
        this(topics, node, new SingleNodeClusterView(topics, node));
    }

    @Override
    public ApiSpec api() {
        return DescribeClusterApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        byte endpointType = request.get(DescribeClusterApi.Request.ENDPOINT_TYPE);
        Struct response = Response.SCHEMA.newStruct().set(Response.ENDPOINT_TYPE, endpointType);
        if (endpointType != BROKERS) {
            boolean known = endpointType == CONTROLLERS;
            ErrorCode error = context.version() == 0 ? ErrorCode.INVALID_REQUEST
                    : known ? ErrorCode.MISMATCHED_ENDPOINT_TYPE : ErrorCode.UNSUPPORTED_ENDPOINT_TYPE;
            response.set(Response.ERROR_CODE, error.code()).set(Response.ERROR_MESSAGE, known
                    ? "The request was sent to an endpoint of type BROKER, but we wanted an endpoint of type CONTROLLER"
                    : "Unsupported endpoint type " + endpointType);
            return CompletableFuture.completedFuture(response);
        }
        response.set(Response.ERROR_CODE, ErrorCode.NONE.code())
                .set(Response.CLUSTER_ID, topics.clusterId())
                .set(Response.CONTROLLER_ID, node.nodeId());
        response.add(Response.BROKERS)
                .set(DescribeClusterBroker.BROKER_ID, node.nodeId())
                .set(DescribeClusterBroker.HOST, node.host())
                .set(DescribeClusterBroker.PORT, node.port())
                .set(DescribeClusterBroker.RACK, node.rack())
                .set(DescribeClusterBroker.IS_FENCED, false);
        if (request.get(DescribeClusterApi.Request.INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS)) {
            response.set(Response.CLUSTER_AUTHORIZED_OPERATIONS, MetadataHandler.ALL_CLUSTER_OPERATIONS);
        }
        return CompletableFuture.completedFuture(response);
    }
}
