package io.odradek.broker.security;

import io.odradek.security.KafkaPrincipal;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.AclRules;
import io.odradek.security.acl.Authorizer;
import io.odradek.security.acl.ResourceType;
import java.net.InetAddress;

/**
 * Who sent a request and through which listener, with the authorizer that decides what they may do: what
 * every handler asks before it acts ({@code context.session().authorized(READ, TOPIC, "orders")}). A connection's
 * session starts ANONYMOUS and gets its principal from the TLS client certificate or the SASL login.
 */
public record Session(KafkaPrincipal principal, String listenerName, SecurityProtocol protocol, InetAddress clientHost,
        Authorizer authorizer) {

    /** Tests and handlers called directly: an anonymous PLAINTEXT client with no authorizer (everything allowed). */
    public static final Session PLAINTEXT_ANONYMOUS = new Session(KafkaPrincipal.ANONYMOUS, "PLAINTEXT",
            SecurityProtocol.PLAINTEXT, InetAddress.getLoopbackAddress(), Authorizer.ALLOW_ALL);

    /** The client's host as ACLs name it (an IP address). */
    public String host() {
        return clientHost.getHostAddress();
    }

    public boolean authorized(AclOperation operation, ResourceType type, String name) {
        return authorizer.authorize(principal, host(), operation, type, name);
    }

    /** KIP-679: whether the principal may do {@code operation} on some resource of {@code type}. */
    public boolean authorizedAny(AclOperation operation, ResourceType type) {
        return authorizer.authorizeAny(principal, host(), operation, type);
    }

    /** On the cluster resource ({@code kafka-cluster}). */
    public boolean authorizedOnCluster(AclOperation operation) {
        return authorized(operation, ResourceType.CLUSTER, io.odradek.security.acl.ResourcePattern.CLUSTER_NAME);
    }

    /**
     * KIP-430: the operations the principal may do on the resource, as a bit field (bit = the operation's code)
     * over the operations Kafka defines for the resource type; every one of them when no authorizer is set.
     */
    public int authorizedOperations(ResourceType type, String name) {
        int bits = 0;
        for (AclOperation op : AclRules.supportedOperations(type)) {
            if (authorized(op, type, name)) {
                bits |= 1 << op.code;
            }
        }
        return bits;
    }

    public Session withPrincipal(KafkaPrincipal newPrincipal) {
        return new Session(newPrincipal, listenerName, protocol, clientHost, authorizer);
    }
}
