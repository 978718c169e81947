package io.odradek.broker.handlers;

import io.odradek.broker.api.CloseConnectionException;
import io.odradek.broker.api.RequestContext;
import io.odradek.security.acl.AccessControlEntry;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.AclPermissionType;
import io.odradek.security.acl.PatternType;
import io.odradek.security.acl.ResourcePattern;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;

/**
 * What the three ACL APIs share: reading codes into the ACL model, refusing unknown codes as Kafka does (its
 * request classes throw while parsing, and a request that does not parse closes the connection), and the
 * two answers every one of them may give before looking at the ACLs.
 */
final class AclRequests {
    /** Kafka's CLUSTER_AUTHORIZATION_FAILED message for these APIs (its own names the whole request). */
    static final String CLUSTER_AUTHORIZATION_FAILED = "Cluster authorization failed.";

    private AclRequests() {
    }

    /** The first of Kafka's answers before the ACLs are looked at, or null to go on. */
    record Refusal(ErrorCode error, String message) {
    }

    /**
     * CLUSTER_AUTHORIZATION_FAILED without {@code operation} on the cluster, else SECURITY_DISABLED (with
     * {@code disabledMessage}) when no authorizer is configured, else null. Kafka checks in that order (without an
     * authorizer every check passes, so SECURITY_DISABLED is what a client sees).
     */
    static Refusal refusal(RequestContext context, AclOperation operation, String disabledMessage) {
        if (!context.session().authorizedOnCluster(operation)) {
            return new Refusal(ErrorCode.CLUSTER_AUTHORIZATION_FAILED, CLUSTER_AUTHORIZATION_FAILED);
        }
        if (!context.session().authorizer().enabled()) {
            return new Refusal(ErrorCode.SECURITY_DISABLED, disabledMessage);
        }
        return null;
    }

    static AclBinding binding(String api, byte resourceType, String name, byte patternType, String principal,
            String host, byte operation, byte permission) {
        Codes c = Codes.decode(api, resourceType, patternType, operation, permission);
        return new AclBinding(new ResourcePattern(c.type(), name, c.pattern()),
                new AccessControlEntry(principal, host, c.op(), c.perm()));
    }

    static AclBindingFilter filter(String api, byte resourceType, String name, byte patternType, String principal,
            String host, byte operation, byte permission) {
        Codes c = Codes.decode(api, resourceType, patternType, operation, permission);
        return new AclBindingFilter(c.type(), name, c.pattern(), principal, host, c.op(), c.perm());
    }

    /** The four enum codes of an ACL binding or filter, decoded. */
    private record Codes(ResourceType type, PatternType pattern, AclOperation op, AclPermissionType perm) {
        /** Kafka's request classes refuse UNKNOWN (or unassigned) codes while parsing: the connection closes. */
        static Codes decode(String api, byte resourceType, byte patternType, byte operation, byte permission) {
            ResourceType type = ResourceType.fromCode(resourceType);
            PatternType pattern = PatternType.fromCode(patternType);
            AclOperation op = AclOperation.fromCode(operation);
            AclPermissionType perm = AclPermissionType.fromCode(permission);
            if (type == ResourceType.UNKNOWN || pattern == PatternType.UNKNOWN || op == AclOperation.UNKNOWN
                    || perm == AclPermissionType.UNKNOWN) {
                throw new CloseConnectionException(api + " request with an unknown resource type, pattern type,"
                        + " operation or permission type (" + type + ", " + pattern + ", " + op + ", " + perm + ")");
            }
            return new Codes(type, pattern, op, perm);
        }
    }
}
