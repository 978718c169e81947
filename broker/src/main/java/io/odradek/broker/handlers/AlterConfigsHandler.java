package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.config.DynamicBrokerConfig;
import io.odradek.broker.topics.TopicService;
import io.odradek.wire.api.AlterConfigsApi;
import io.odradek.wire.api.AlterConfigsApi.Request.AlterConfigsResource;
import io.odradek.wire.api.AlterConfigsApi.Request.AlterConfigsResource.AlterableConfig;
import io.odradek.wire.api.AlterConfigsApi.Response;
import io.odradek.wire.api.AlterConfigsApi.Response.AlterConfigsResourceResponse;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * AlterConfigs (key 33), versions 0-2 (v2 flexible; the versions differ only in encoding). Kafka's deprecated
 * whole-set API: each TOPIC (2), BROKER (4) or GROUP (32, issue 12) resource's dynamic configs are replaced by exactly the
 * entries given (keys not named are removed). Checks, errors and messages as Kafka 4.4 (see {@link ConfigAlterations}); BROKER
 * names "" (the cluster-wide default) or this node's id; BROKER_LOGGER and other types are INVALID_REQUEST
 * "Unknown resource type N", as Kafka answers BROKER_LOGGER here. ValidateOnly checks without changing anything.
 * Changes are durable before the answer (single node: file synced; cluster: committed and applied here) and take
 * effect at once on the partition logs.
 * Authorization (issue 10), as Kafka 4.4's ControllerApis: after the duplicate-resource check, ALTER_CONFIGS on
 * the cluster for BROKER (CLUSTER_AUTHORIZATION_FAILED), on the topic for TOPIC (TOPIC_AUTHORIZATION_FAILED), on
 * the group for GROUP (GROUP_AUTHORIZATION_FAILED), with Kafka's message (see {@link ConfigResourceAccess}).
 */
public final class AlterConfigsHandler implements ApiHandler {
    private final TopicService topics;
    private final ConfigAlterations alterations;

    public AlterConfigsHandler(TopicService topics, DynamicBrokerConfig broker) {
        this.topics = topics;
        this.alterations = new ConfigAlterations(topics, broker);
    }

    @Override
    public ApiSpec api() {
        return AlterConfigsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        boolean validateOnly = request.get(AlterConfigsApi.Request.VALIDATE_ONLY);
        List<ConfigAlterations.Resource> resources = new ArrayList<>();
        for (Struct r : request.get(AlterConfigsApi.Request.RESOURCES)) {
            List<ConfigAlterations.Op> ops = new ArrayList<>();
            for (Struct c : r.get(AlterConfigsResource.CONFIGS)) {
                ops.add(new ConfigAlterations.Op(c.get(AlterableConfig.NAME), ConfigAlterations.SET,
                        c.get(AlterableConfig.VALUE)));
            }
            resources.add(new ConfigAlterations.Resource(r.get(AlterConfigsResource.RESOURCE_TYPE),
                    r.get(AlterConfigsResource.RESOURCE_NAME), ops));
        }
        return topics.async(() -> alterations.alter(resources, false, validateOnly, context.session()))
                .thenCompose(f -> f)
                .thenApply(outcomes -> {
            Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
            for (int i = 0; i < resources.size(); i++) {
                response.add(Response.RESPONSES)
                        .set(AlterConfigsResourceResponse.ERROR_CODE, outcomes.get(i).error().code())
                        .set(AlterConfigsResourceResponse.ERROR_MESSAGE, outcomes.get(i).message())
                        .set(AlterConfigsResourceResponse.RESOURCE_TYPE, resources.get(i).type())
                        .set(AlterConfigsResourceResponse.RESOURCE_NAME, resources.get(i).name());
            }
            return response;
        });
    }
}
