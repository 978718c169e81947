package io.odradek.broker.handlers;

import io.odradek.broker.security.Session;
import io.odradek.security.KafkaPrincipal;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.Authorizer;
import io.odradek.security.acl.ResourcePattern;
import io.odradek.security.acl.ResourceType;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An authorizer for handler tests: allows exactly the (operation, resource type, name) triples it is told, for
 * anyone, and remembers every question it was asked (so a test can see what a handler checked).
 */
final class ScriptedAuthorizer implements Authorizer {
    record Grant(AclOperation operation, ResourceType type, String name) {
    }

    private final Set<Grant> grants = new HashSet<>();
    final List<Grant> asked = new ArrayList<>();

    ScriptedAuthorizer allow(AclOperation operation, ResourceType type, String name) {
        grants.add(new Grant(operation, type, name));
        return this;
    }

    ScriptedAuthorizer allowTopic(AclOperation operation, String topic) {
        return allow(operation, ResourceType.TOPIC, topic);
    }

    ScriptedAuthorizer allowCluster(AclOperation operation) {
        return allow(operation, ResourceType.CLUSTER, ResourcePattern.CLUSTER_NAME);
    }

    /** A connection of User:alice whose requests this authorizer judges. */
    Session session() {
        return new Session(KafkaPrincipal.user("alice"), "PLAINTEXT", SecurityProtocol.PLAINTEXT,
                InetAddress.getLoopbackAddress(), this);
    }

    @Override
    public synchronized boolean authorize(KafkaPrincipal principal, String host, AclOperation operation,
            ResourceType type, String name) {
        Grant question = new Grant(operation, type, name);
        asked.add(question);
        return grants.contains(question);
    }

    @Override
    public synchronized boolean authorizeAny(KafkaPrincipal principal, String host, AclOperation operation,
            ResourceType type) {
        return grants.stream().anyMatch(g -> g.operation() == operation && g.type() == type);
    }

    @Override
    public boolean enabled() {
        return true;
    }
}
