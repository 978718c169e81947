package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.group.GroupConfigs;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ListConfigResourcesApi;
import io.odradek.wire.api.ListConfigResourcesApi.Response;
import io.odradek.wire.api.ListConfigResourcesApi.Response.ConfigResource;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * ListConfigResources (key 74), versions 0-1 (issue 12, groupconfigs), as Kafka 4.4's KafkaApis: what
 * {@code kafka-configs --entity-type groups --describe} without a name (and Admin.listConfigResources) asks.
 * <ul>
 * <li>DESCRIBE_CONFIGS on the cluster is required (else the whole answer is CLUSTER_AUTHORIZATION_FAILED, no
 *     resources).</li>
 * <li>v0 (Kafka 3.7's ListClientMetricsResources) supports only CLIENT_METRICS (16); v1 (KIP-1142) supports TOPIC
 *     (2), BROKER (4), BROKER_LOGGER (8), CLIENT_METRICS (16) and GROUP (32). No types asked = every supported one;
 *     a type outside them makes the whole answer UNSUPPORTED_VERSION with no resources.</li>
 * <li>Listed, in Kafka's order: GROUP: every group that has dynamic configs (not groups without any, as Kafka);
 *     CLIENT_METRICS: none (Odradek keeps no client metrics subscriptions); BROKER_LOGGER and BROKER: every
 *     unfenced broker with an endpoint on the request's listener, by id; TOPIC: every topic, internal ones
 *     included.</li>
 * </ul>
 */
public final class ListConfigResourcesHandler implements ApiHandler {
    static final byte TOPIC = 2;
    static final byte BROKER = 4;
    static final byte BROKER_LOGGER = 8;
    static final byte CLIENT_METRICS = 16;
    static final byte GROUP = 32;

    private final ClusterView cluster;
    private final GroupConfigs groups;

    public ListConfigResourcesHandler(ClusterView cluster, GroupConfigs groups) {
        this.cluster = cluster;
        this.groups = groups;
    }

    @Override
    public ApiSpec api() {
        return ListConfigResourcesApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        Struct response = Response.SCHEMA.newStruct()
                .set(Response.THROTTLE_TIME_MS, 0)
                .set(Response.ERROR_CODE, ErrorCode.NONE.code())
                .set(Response.CONFIG_RESOURCES, List.of());
        if (context.session().authorizer().enabled()
                && !context.session().authorizedOnCluster(AclOperation.DESCRIBE_CONFIGS)) {
            return done(response.set(Response.ERROR_CODE, ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code()));
        }
        Set<Byte> supported = context.version() == 0 ? Set.of(CLIENT_METRICS)
                : Set.of(TOPIC, BROKER, BROKER_LOGGER, CLIENT_METRICS, GROUP);
        List<Byte> asked = context.version() == 0 ? List.of() : request.get(ListConfigResourcesApi.Request.RESOURCE_TYPES);
        Set<Byte> types = asked == null || asked.isEmpty() ? supported : Set.copyOf(asked);
        if (!supported.containsAll(types)) {
            return done(response.set(Response.ERROR_CODE, ErrorCode.UNSUPPORTED_VERSION.code()));
        }
        if (types.contains(GROUP)) {
            groups.all().keySet().forEach(id -> add(response, id, GROUP));
        }
        ClusterImage image = cluster.image();
        for (byte brokerType : new byte[] {BROKER_LOGGER, BROKER}) {
            if (types.contains(brokerType)) {
                for (BrokerRegistration b : image.brokers().values()) {
                    if (!b.fenced() && b.endpoint(context.session().listenerName()) != null) {
                        add(response, Integer.toString(b.id()), brokerType);
                    }
                }
            }
        }
        if (types.contains(TOPIC)) {
            image.topics().keySet().forEach(name -> add(response, name, TOPIC));
        }
        return done(response);
    }

    private static void add(Struct response, String name, byte type) {
        response.add(Response.CONFIG_RESOURCES)
                .set(ConfigResource.RESOURCE_NAME, name)
                .set(ConfigResource.RESOURCE_TYPE, type);
    }

    private static CompletableFuture<Struct> done(Struct response) {
        return CompletableFuture.completedFuture(response);
    }
}
