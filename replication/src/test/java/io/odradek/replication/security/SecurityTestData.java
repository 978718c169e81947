package io.odradek.replication.security;

import io.odradek.replication.security.SecurityMetadataStore.ScramChange;
import io.odradek.security.acl.AccessControlEntry;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.AclPermissionType;
import io.odradek.security.acl.PatternType;
import io.odradek.security.acl.ResourcePattern;
import io.odradek.security.acl.ResourceType;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramFormatter;
import io.odradek.security.scram.ScramMechanism;

/** ACLs, filters and SCRAM credentials for the store and codec tests. */
public final class SecurityTestData {
    private SecurityTestData() {
    }

    public static AclBinding allow(String principal, ResourceType type, String name, PatternType patternType,
            AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, patternType),
                new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
    }

    public static AclBinding deny(String principal, String host, ResourceType type, String name, AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
                new AccessControlEntry(principal, host, operation, AclPermissionType.DENY));
    }

    /** alice may write topic "orders". */
    public static final AclBinding ALICE_WRITES_ORDERS = allow("User:alice", ResourceType.TOPIC, "orders",
            PatternType.LITERAL, AclOperation.WRITE);
    /** alice may read group "billing". */
    public static final AclBinding ALICE_READS_BILLING = allow("User:alice", ResourceType.GROUP, "billing",
            PatternType.LITERAL, AclOperation.READ);
    /** bob may read every topic starting with "ord". */
    public static final AclBinding BOB_READS_ORD_PREFIX = allow("User:bob", ResourceType.TOPIC, "ord",
            PatternType.PREFIXED, AclOperation.READ);
    /** everyone may describe every topic. */
    public static final AclBinding ANYONE_DESCRIBES_TOPICS = allow("User:*", ResourceType.TOPIC, "*",
            PatternType.LITERAL, AclOperation.DESCRIBE);
    /** bob may not write "orders" from 10.0.0.1. */
    public static final AclBinding BOB_DENIED_ORDERS = deny("User:bob", "10.0.0.1", ResourceType.TOPIC, "orders",
            AclOperation.WRITE);

    public static AclBindingFilter filter(ResourceType type, String name, PatternType patternType) {
        return new AclBindingFilter(type, name, patternType, null, null, AclOperation.ANY, AclPermissionType.ANY);
    }

    public static AclBindingFilter byPrincipal(String principal) {
        return new AclBindingFilter(ResourceType.ANY, null, PatternType.ANY, principal, null, AclOperation.ANY,
                AclPermissionType.ANY);
    }

    public static final AclBindingFilter EVERYTHING = byPrincipal(null);

    /** A real credential for {@code password} (4096 iterations: cheap enough on two cores). */
    public static ScramCredential credential(ScramMechanism mechanism, String password) {
        return new ScramFormatter(mechanism).credential(password, ScramMechanism.MIN_ITERATIONS);
    }

    public static ScramChange set(String user, ScramMechanism mechanism, ScramCredential credential) {
        return new ScramChange(user, mechanism, credential);
    }

    public static ScramChange delete(String user, ScramMechanism mechanism) {
        return new ScramChange(user, mechanism, null);
    }
}
