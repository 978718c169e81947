package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.ConfigDescriber;
import io.odradek.broker.topics.TopicService;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.replication.metadata.TopicNames;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeConfigsApi;
import io.odradek.wire.api.DescribeConfigsApi.Request.DescribeConfigsResource;
import io.odradek.wire.api.DescribeConfigsApi.Response;
import io.odradek.wire.api.DescribeConfigsApi.Response.DescribeConfigsResult;
import io.odradek.wire.api.DescribeConfigsApi.Response.DescribeConfigsResult.DescribeConfigsResourceResult;
import io.odradek.wire.api.DescribeConfigsApi.Response.DescribeConfigsResult.DescribeConfigsResourceResult.DescribeConfigsSynonym;
import io.odradek.wire.schema.Struct;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeConfigs (key 32), versions 0-4 (v0 is below Kafka 4's minimum; Kafka 3.9 still served it). v0 has no
 * source or synonyms but IsDefault, set as Kafka up to 2.6 set it: true when the source is DEFAULT_CONFIG (Kafka
 * 2.7-3.9's generated code left it false for every entry).
 * <ul>
 * <li>TOPIC (2): every topic-level config with its effective value (the topic's override, else the broker's
 *     dynamic or static value, else the default); sources and synonyms as Kafka 4.4's ConfigHelper gives them
 *     (see {@link ConfigDescriber}). An unknown topic is UNKNOWN_TOPIC_OR_PARTITION, an illegal name
 *     INVALID_TOPIC_EXCEPTION.</li>
 * <li>BROKER (4): name = our node id gives every broker config with the value in force (dynamic layers over the
 *     static config), read-only unless Kafka can change the key dynamically; "" gives the cluster-wide dynamic
 *     defaults only. Another id, or a non-number, is INVALID_REQUEST, with Kafka's messages.</li>
 * <li>GROUP (32, issue 12): every group config of Kafka 4.4's GroupConfig with the group's value (source
 *     GROUP_CONFIG, 8, shown by kafka-configs as DYNAMIC_GROUP_CONFIG) or else the broker's group.* default with
 *     that key's synonyms, as Kafka's ConfigHelper (see {@link ConfigDescriber#describeGroup}); any group id, whether
 *     or not the group exists (as Kafka); an empty name is INVALID_REQUEST "Group name must not be empty".</li>
 * <li>Other types (BROKER_LOGGER, CLIENT_METRICS) are INVALID_REQUEST for that resource.</li>
 * <li>Keys: null or empty = all, else only those named (unknown names are simply absent).</li>
 * <li>Authorization (issue 10), as Kafka 4.4's ConfigHelper, per resource before anything else: DESCRIBE_CONFIGS
 *     on the cluster for BROKER / BROKER_LOGGER / CLIENT_METRICS (else CLUSTER_AUTHORIZATION_FAILED), on the topic
 *     for TOPIC (TOPIC_AUTHORIZATION_FAILED, whether or not it exists), on the group for GROUP
 *     (GROUP_AUTHORIZATION_FAILED); Kafka's message, no configs.</li>
 * <li>Synonyms only when IncludeSynonyms; documentation (v3+) only when IncludeDocumentation, and only
 *     for broker keys (null for topic keys); config type from v3.</li>
 * </ul>
 */
public final class DescribeConfigsHandler implements ApiHandler {
    static final byte TOPIC = 2;
    static final byte BROKER = 4;
    static final byte GROUP = 32;

    private final TopicService topics;
    private final ConfigDescriber configs;

    public DescribeConfigsHandler(TopicService topics, ConfigDescriber configs) {
        this.topics = topics;
        this.configs = configs;
    }

    @Override
    public ApiSpec api() {
        return DescribeConfigsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        boolean synonyms = request.get(DescribeConfigsApi.Request.INCLUDE_SYNONYMS);
        boolean documentation = request.get(DescribeConfigsApi.Request.INCLUDE_DOCUMENTATION);
        Struct response = Response.SCHEMA.newStruct();
        for (Struct resource : request.get(DescribeConfigsApi.Request.RESOURCES)) {
            byte type = resource.get(DescribeConfigsResource.RESOURCE_TYPE);
            String name = resource.get(DescribeConfigsResource.RESOURCE_NAME);
            List<String> keys = resource.get(DescribeConfigsResource.CONFIGURATION_KEYS);
            Struct result = response.add(Response.RESULTS)
                    .set(DescribeConfigsResult.RESOURCE_TYPE, type)
                    .set(DescribeConfigsResult.RESOURCE_NAME, name)
                    .set(DescribeConfigsResult.ERROR_CODE, ErrorCode.NONE.code())
                    .set(DescribeConfigsResult.ERROR_MESSAGE, null);
            ConfigResourceAccess.Refusal refused = ConfigResourceAccess.refusal(context.session(),
                    AclOperation.DESCRIBE_CONFIGS, type, name);
            if (refused != null) {
                result.set(DescribeConfigsResult.ERROR_CODE, refused.error().code())
                        .set(DescribeConfigsResult.ERROR_MESSAGE, refused.message())
                        .set(DescribeConfigsResult.CONFIGS, List.of());
                continue;
            }
            try {
                for (ConfigDescriber.Entry e : describe(type, name)) {
                    if (keys == null || keys.isEmpty() || keys.contains(e.name())) {
                        addEntry(result, e, synonyms, documentation);
                    }
                }
            } catch (MetadataException e) {
                result.set(DescribeConfigsResult.ERROR_CODE, e.error().code())
                        .set(DescribeConfigsResult.ERROR_MESSAGE, e.getMessage())
                        .set(DescribeConfigsResult.CONFIGS, List.of());
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private List<ConfigDescriber.Entry> describe(byte type, String name) {
        if (type == TOPIC) {
            TopicNames.validate(name);
            TopicInfo topic = topics.topic(name).orElseThrow(() -> new MetadataException(
                    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "This server does not host this topic-partition."));
            return configs.describeTopic(topic, topics.effectiveConfig(topic));
        }
        if (type == BROKER) {
            if (name == null || name.isEmpty()) {
                return configs.describeClusterDefault();
            }
            int id;
            try {
                id = Integer.parseInt(name);
            } catch (NumberFormatException e) {
                throw new MetadataException(ErrorCode.INVALID_REQUEST, "Broker id must be an integer, but it is: " + name);
            }
            if (id != topics.nodeId()) {
                throw new MetadataException(ErrorCode.INVALID_REQUEST, "Unexpected broker id, expected "
                        + topics.nodeId() + " or empty string, but received " + name);
            }
            return configs.describeBroker();
        }
        if (type == GROUP) {
            if (name == null || name.isEmpty()) {
                throw new MetadataException(ErrorCode.INVALID_REQUEST, "Group name must not be empty");
            }
            return configs.describeGroup(name);
        }
        throw new MetadataException(ErrorCode.INVALID_REQUEST, "Unsupported resource type: " + type);
    }

    private static void addEntry(Struct result, ConfigDescriber.Entry e, boolean synonyms, boolean documentation) {
        Struct config = result.add(DescribeConfigsResult.CONFIGS)
                .set(DescribeConfigsResourceResult.NAME, e.name())
                .set(DescribeConfigsResourceResult.VALUE, e.value())
                .set(DescribeConfigsResourceResult.READ_ONLY, e.readOnly())
                .set(DescribeConfigsResourceResult.IS_DEFAULT, e.source() == ConfigDescriber.DEFAULT_CONFIG)
                .set(DescribeConfigsResourceResult.CONFIG_SOURCE, e.source())
                .set(DescribeConfigsResourceResult.IS_SENSITIVE, e.sensitive())
                .set(DescribeConfigsResourceResult.CONFIG_TYPE, e.type())
                .set(DescribeConfigsResourceResult.DOCUMENTATION, documentation ? e.documentation() : null);
        if (synonyms) {
            for (ConfigDescriber.Synonym s : e.synonyms()) {
                config.add(DescribeConfigsResourceResult.SYNONYMS)
                        .set(DescribeConfigsSynonym.NAME, s.name())
                        .set(DescribeConfigsSynonym.VALUE, s.value())
                        .set(DescribeConfigsSynonym.SOURCE, s.source());
            }
        }
    }
}
