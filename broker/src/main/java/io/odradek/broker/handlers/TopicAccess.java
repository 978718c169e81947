package io.odradek.broker.handlers;

import io.odradek.broker.api.RequestContext;
import io.odradek.broker.security.Session;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import java.util.HashMap;
import java.util.Map;

/**
 * One request's answers to "may this client do {@code operation} on topic T", each topic asked once, as
 * Kafka's AuthHelper.filterByAuthorized. Without an authorizer it is one shared instance that answers yes
 * without asking or allocating, so the data path pays one check per request and nothing per partition.
 * Used on one thread (the request's), so it needs no lock.
 */
final class TopicAccess {
    private static final TopicAccess EVERYTHING = new TopicAccess(null, null);

    private final Session session;
    private final AclOperation operation;
    private Map<String, Boolean> answers;

    private TopicAccess(Session session, AclOperation operation) {
        this.session = session;
        this.operation = operation;
    }

    static TopicAccess of(RequestContext context, AclOperation operation) {
        Session session = context.session();
        return session.authorizer().enabled() ? new TopicAccess(session, operation) : EVERYTHING;
    }

    /** Whether the request's principal may do the operation on {@code topic} (a name, never null). */
    boolean allowed(String topic) {
        if (session == null) {
            return true;
        }
        if (answers == null) {
            answers = new HashMap<>();
        }
        Boolean known = answers.get(topic);
        if (known == null) {
            known = session.authorized(operation, ResourceType.TOPIC, topic);
            answers.put(topic, known);
        }
        return known;
    }

    /** True when no authorizer is configured: every topic is allowed. */
    boolean allowsEverything() {
        return session == null;
    }
}
