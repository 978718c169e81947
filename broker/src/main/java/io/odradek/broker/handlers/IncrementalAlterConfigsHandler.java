package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.config.DynamicBrokerConfig;
import io.odradek.broker.topics.TopicService;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.IncrementalAlterConfigsApi;
import io.odradek.wire.api.IncrementalAlterConfigsApi.Request.AlterConfigsResource;
import io.odradek.wire.api.IncrementalAlterConfigsApi.Request.AlterConfigsResource.AlterableConfig;
import io.odradek.wire.api.IncrementalAlterConfigsApi.Response;
import io.odradek.wire.api.IncrementalAlterConfigsApi.Response.AlterConfigsResourceResponse;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * IncrementalAlterConfigs (key 44), versions 0-1 (v1 flexible; the versions differ only in encoding): what
 * {@code kafka-configs --alter} and Admin.incrementalAlterConfigs send. Each TOPIC (2) or BROKER (4) resource's
 * configs change by SET (0), DELETE (1), APPEND (2) or SUBTRACT (3), the last two on list-valued keys only;
 * checks, errors and messages as Kafka 4.4 (see {@link ConfigAlterations}). BROKER names "" (the cluster-wide
 * default) or this node's id. Differences from Kafka: BROKER_LOGGER (8; Kafka sets log4j levels) and
 * CLIENT_METRICS resources are INVALID_REQUEST "Unknown resource type N". GROUP (32, issue 12) sets a group's dynamic
 * configs (Kafka 4.4's GroupConfig keys, bounded by the broker's group.* min/max; see ConfigAlterations). ValidateOnly checks without changing
 * anything. Changes are durable before the answer and take effect at once on the partition logs.
 * Authorization (issue 10), as Kafka 4.4's ControllerApis: after the duplicate-resource check, ALTER_CONFIGS on
 * the cluster for BROKER (CLUSTER_AUTHORIZATION_FAILED), on the topic for TOPIC (TOPIC_AUTHORIZATION_FAILED), on
 * the group for GROUP (GROUP_AUTHORIZATION_FAILED), with Kafka's message (see {@link ConfigResourceAccess}).
 */
public final class IncrementalAlterConfigsHandler implements ApiHandler {
    private final TopicService topics;
    private final ConfigAlterations alterations;

    public IncrementalAlterConfigsHandler(TopicService topics, DynamicBrokerConfig broker) {
        this.topics = topics;
        this.alterations = new ConfigAlterations(topics, broker);
    }

    @Override
    public ApiSpec api() {
        return IncrementalAlterConfigsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        boolean validateOnly = request.get(IncrementalAlterConfigsApi.Request.VALIDATE_ONLY);
        List<ConfigAlterations.Resource> resources = new ArrayList<>();
        for (Struct r : request.get(IncrementalAlterConfigsApi.Request.RESOURCES)) {
            List<ConfigAlterations.Op> ops = new ArrayList<>();
            for (Struct c : r.get(AlterConfigsResource.CONFIGS)) {
                ops.add(new ConfigAlterations.Op(c.get(AlterableConfig.NAME), c.get(AlterableConfig.CONFIG_OPERATION),
                        c.get(AlterableConfig.VALUE)));
            }
            resources.add(new ConfigAlterations.Resource(r.get(AlterConfigsResource.RESOURCE_TYPE),
                    r.get(AlterConfigsResource.RESOURCE_NAME), ops));
        }
        return topics.async(() -> alterations.alter(resources, true, validateOnly, context.session()))
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
