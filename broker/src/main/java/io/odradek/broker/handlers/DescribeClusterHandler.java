package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.topics.TopicService;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeClusterApi;
import io.odradek.wire.api.DescribeClusterApi.Response;
import io.odradek.wire.api.DescribeClusterApi.Response.DescribeClusterBroker;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeCluster (key 60), versions 0-2 (KIP-700; all flexible), answered from the {@link ClusterView}'s
 * image. Cluster id, controller id (a live broker, as Kafka's brokers answer: see {@link MetadataHandler})
 * and the brokers: every unfenced broker with its endpoint of the request's listener (none: left out) and rack; v2's IncludeFencedBrokers adds
 * the fenced ones with IsFenced true. On a single node that is just us, never fenced.
 *
 * <p>v1+ asks for an endpoint type. BROKERS (1) is answered as above. CONTROLLERS (2): in a cluster, the
 * controller quorum's voters (id and the address of their CONTROLLER listener, from the quorum's own
 * description) with the active controller as controller id, as a Kafka controller answers it (our quorum
 * speaks Ratis, not the Kafka protocol, so clients reach it only through brokers); a failed quorum
 * description is the request's error. On a single node (no quorum) CONTROLLERS gets
 * MISMATCHED_ENDPOINT_TYPE, as a Kafka broker answers. Anything else is UNSUPPORTED_ENDPOINT_TYPE
 * (INVALID_REQUEST at v0).
 *
 * <p>Authorization (issue 10), as Kafka 4.4's AuthHelper.computeDescribeClusterResponse: nothing is needed to
 * ask; cluster_authorized_operations, when requested, are the authorizer's answer with DESCRIBE on the cluster
 * and 0 without it (all of them without an authorizer).
 */
public final class DescribeClusterHandler implements ApiHandler {
    private static final byte BROKERS = 1;
    private static final byte CONTROLLERS = 2;

    private final TopicService topics;
    private final ClusterView cluster;

    public DescribeClusterHandler(TopicService topics, ClusterView cluster) {
        this.topics = topics;
        this.cluster = cluster;
    }

    @Override
    public ApiSpec api() {
        return DescribeClusterApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        byte endpointType = request.get(DescribeClusterApi.Request.ENDPOINT_TYPE);
        ControllerChannel controller = cluster.controller().orElse(null);
        if (endpointType == CONTROLLERS && controller != null && context.version() >= 1) {
            return controller.describeQuorum().handle((quorum, failure) -> failure == null
                    ? controllers(context, request, quorum)
                    : error(endpointType, ControllerFailures.error(failure), ControllerFailures.message(failure)));
        }
        if (endpointType != BROKERS) {
            boolean known = endpointType == CONTROLLERS;
            ErrorCode error = context.version() == 0 ? ErrorCode.INVALID_REQUEST
                    : known ? ErrorCode.MISMATCHED_ENDPOINT_TYPE : ErrorCode.UNSUPPORTED_ENDPOINT_TYPE;
            return CompletableFuture.completedFuture(error(endpointType, error, known
                    ? "The request was sent to an endpoint of type BROKER, but we wanted an endpoint of type CONTROLLER"
                    : "Unsupported endpoint type " + endpointType));
        }
        ClusterImage image = cluster.image();
        boolean includeFenced = request.get(DescribeClusterApi.Request.INCLUDE_FENCED_BROKERS);
        Struct response = answer(context, request, endpointType, MetadataHandler.controllerId(cluster, image));
        for (BrokerRegistration b : image.brokers().values()) {
            Endpoint endpoint = b.endpoint(context.session().listenerName());
            if (endpoint != null && (!b.fenced() || includeFenced)) {
                response.add(Response.BROKERS)
                        .set(DescribeClusterBroker.BROKER_ID, b.id())
                        .set(DescribeClusterBroker.HOST, endpoint.host())
                        .set(DescribeClusterBroker.PORT, endpoint.port())
                        .set(DescribeClusterBroker.RACK, b.rack())
                        .set(DescribeClusterBroker.IS_FENCED, b.fenced());
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private Struct controllers(RequestContext context, Struct request, QuorumInfo quorum) {
        Struct response = answer(context, request, CONTROLLERS, quorum.leaderId());
        for (int i = 0; i < quorum.voters().size() && i < quorum.voterEndpoints().size(); i++) {
            Endpoint endpoint = quorum.voterEndpoints().get(i);
            response.add(Response.BROKERS)
                    .set(DescribeClusterBroker.BROKER_ID, quorum.voters().get(i).replicaId())
                    .set(DescribeClusterBroker.HOST, endpoint.host())
                    .set(DescribeClusterBroker.PORT, endpoint.port())
                    .set(DescribeClusterBroker.RACK, null)
                    .set(DescribeClusterBroker.IS_FENCED, false);
        }
        return response;
    }

    private Struct answer(RequestContext context, Struct request, byte endpointType, int controllerId) {
        Struct response = Response.SCHEMA.newStruct()
                .set(Response.ENDPOINT_TYPE, endpointType)
                .set(Response.ERROR_CODE, ErrorCode.NONE.code())
                .set(Response.CLUSTER_ID, MetadataHandler.clusterId(topics, cluster.image()))
                .set(Response.CONTROLLER_ID, controllerId);
        if (request.get(DescribeClusterApi.Request.INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS)) {
            response.set(Response.CLUSTER_AUTHORIZED_OPERATIONS, AuthorizedOperations.cluster(context));
        }
        return response;
    }

    private static Struct error(byte endpointType, ErrorCode error, String message) {
        return Response.SCHEMA.newStruct().set(Response.ENDPOINT_TYPE, endpointType)
                .set(Response.ERROR_CODE, error.code()).set(Response.ERROR_MESSAGE, message);
    }
}
