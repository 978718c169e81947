package io.odradek.broker.handlers;

import io.odradek.broker.security.Session;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;

/**
 * Issue 10: Kafka's per-resource check for DescribeConfigs (DESCRIBE_CONFIGS) and AlterConfigs /
 * IncrementalAlterConfigs (ALTER_CONFIGS), as its ConfigHelper and ControllerApis.authorizeAlterResource do:
 * BROKER, BROKER_LOGGER and CLIENT_METRICS resources on the cluster (CLUSTER_AUTHORIZATION_FAILED), TOPIC on the
 * topic (TOPIC_AUTHORIZATION_FAILED), GROUP on the group (GROUP_AUTHORIZATION_FAILED), each with Kafka's default
 * message for the error.
 */
final class ConfigResourceAccess {
    static final byte TOPIC = 2;
    static final byte BROKER = 4;
    static final byte BROKER_LOGGER = 8;
    static final byte CLIENT_METRICS = 16;
    static final byte GROUP = 32;

    /** A refusal: the error and Kafka's message for it. */
    record Refusal(ErrorCode error, String message) {
    }

    private static final Refusal CLUSTER = new Refusal(ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
            "Cluster authorization failed.");
    private static final Refusal TOPIC_REFUSED = new Refusal(ErrorCode.TOPIC_AUTHORIZATION_FAILED,
            "Topic authorization failed.");
    private static final Refusal GROUP_REFUSED = new Refusal(ErrorCode.GROUP_AUTHORIZATION_FAILED,
            "Group authorization failed.");

    private ConfigResourceAccess() {
    }

    /**
     * Null when the session may do {@code operation} on the resource, when no authorizer is configured, or when
     * the type is one Kafka does not authorize (the handler refuses it as an unknown type itself).
     */
    static Refusal refusal(Session session, AclOperation operation, byte type, String name) {
        if (!session.authorizer().enabled()) {
            return null;
        }
        return switch (type) {
            case BROKER, BROKER_LOGGER, CLIENT_METRICS -> session.authorizedOnCluster(operation) ? null : CLUSTER;
            case TOPIC -> session.authorized(operation, ResourceType.TOPIC, name) ? null : TOPIC_REFUSED;
            case GROUP -> session.authorized(operation, ResourceType.GROUP, name) ? null : GROUP_REFUSED;
            default -> null;
        };
    }
}
