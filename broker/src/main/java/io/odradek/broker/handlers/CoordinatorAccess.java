package io.odradek.broker.handlers;

import io.odradek.broker.api.RequestContext;
import io.odradek.broker.security.Session;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The authorization questions the group and transaction APIs ask (Kafka's KafkaApis through AuthHelper):
 * one resource, the cluster, "any topic" (KIP-679), and a request's topics each asked once. Without an
 * authorizer ({@code Authorizer.ALLOW_ALL}) every answer is yes without asking the session (which would
 * format the client's address per call), so those requests cost one check each and nothing per topic.
 */
final class CoordinatorAccess {
    /** Yes to every topic: what {@link #topics} gives without an authorizer. */
    private static final Predicate<String> EVERY_TOPIC = topic -> true;

    private CoordinatorAccess() {
    }

    /** Whether an authorizer is configured (false: every check below answers yes). */
    static boolean enabled(RequestContext context) {
        return context.session().authorizer().enabled();
    }

    static boolean allowed(RequestContext context, AclOperation operation, ResourceType type, String name) {
        Session session = context.session();
        return !session.authorizer().enabled() || session.authorized(operation, type, name);
    }

    static boolean allowedOnCluster(RequestContext context, AclOperation operation) {
        Session session = context.session();
        return !session.authorizer().enabled() || session.authorizedOnCluster(operation);
    }

    /** KIP-679: whether the principal may do {@code operation} on at least one resource of {@code type}. */
    static boolean allowedAny(RequestContext context, AclOperation operation, ResourceType type) {
        Session session = context.session();
        return !session.authorizer().enabled() || session.authorizedAny(operation, type);
    }

    /**
     * Whether the principal may do {@code operation} on a topic, each name asked once per request (Kafka's
     * filterByAuthorized). Safe to ask from the coordinator threads that complete a request's parts.
     */
    static Predicate<String> topics(RequestContext context, AclOperation operation) {
        Session session = context.session();
        if (!session.authorizer().enabled()) {
            return EVERY_TOPIC;
        }
        Map<String, Boolean> answers = new ConcurrentHashMap<>();
        return topic -> answers.computeIfAbsent(topic, t -> session.authorized(operation, ResourceType.TOPIC, t));
    }

    /**
     * KIP-430: the group operations the principal may do on {@code groupId} as a bit field; every one of them
     * (READ, DELETE, DESCRIBE) without an authorizer.
     */
    static int groupOperations(RequestContext context, String groupId) {
        Session session = context.session();
        return session.authorizer().enabled() ? session.authorizedOperations(ResourceType.GROUP, groupId)
                : DescribeGroupsHandler.ALL_GROUP_OPERATIONS;
    }
}
