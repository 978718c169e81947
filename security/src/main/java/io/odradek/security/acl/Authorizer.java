package io.odradek.security.acl;

import io.odradek.security.KafkaPrincipal;

/**
 * Answers whether a principal, connected from a host, may do an operation on a resource: the question every
 * handler asks before it acts (Kafka's Authorizer.authorize). {@link #ALLOW_ALL} when no authorizer is configured.
 */
public interface Authorizer {
    Authorizer ALLOW_ALL = new Authorizer() {
        @Override
        public boolean authorize(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type,
                String name) {
            return true;
        }

        @Override
        public boolean authorizeAny(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type) {
            return true;
        }

        @Override
        public boolean enabled() {
            return false;
        }
    };

    /** Whether {@code principal} from {@code host} may do {@code operation} on the resource {@code type}/{@code name}. */
    boolean authorize(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type, String name);

    /**
     * Whether {@code principal} may do {@code operation} on at least one resource of {@code type} (Kafka's
     * authorizeByResourceType, KIP-679: e.g. an idempotent producer allowed to WRITE some topic).
     */
    boolean authorizeAny(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type);

    /** False for {@link #ALLOW_ALL}: the ACL APIs then answer SECURITY_DISABLED, as Kafka without an authorizer. */
    boolean enabled();
}
