package io.odradek.security.acl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** Kafka 4.4's checks of a new ACL (AclApis, AclControlManager) and AclEntry's supported operations. */
class AclRulesTest {
    private static AclBinding binding(ResourceType type, String name, PatternType pattern, String principal,
            String host, AclOperation op, AclPermissionType permission) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal, host, op, permission));
    }

    private static String problem(ResourceType type, String name, PatternType pattern, String principal, String host,
            AclOperation op, AclPermissionType permission) {
        return AclRules.creationProblem(binding(type, name, pattern, principal, host, op, permission));
    }

    @Test
    void wellFormedAclsAreAccepted() {
        assertThat(problem(ResourceType.TOPIC, "t", PatternType.PREFIXED, "User:alice", "*", AclOperation.READ,
                AclPermissionType.ALLOW)).isNull();
        assertThat(problem(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL, "User:*", "10.0.0.0/8",
                AclOperation.ALTER, AclPermissionType.DENY)).isNull();
    }

    @Test
    void eachProblemHasKafkasMessage() {
        assertThat(problem(ResourceType.CLUSTER, "my-cluster", PatternType.LITERAL, "User:a", "*", AclOperation.ALTER,
                AclPermissionType.ALLOW)).isEqualTo("The only valid name for the CLUSTER resource is kafka-cluster");
        assertThat(problem(ResourceType.TOPIC, "", PatternType.LITERAL, "User:a", "*", AclOperation.READ,
                AclPermissionType.ALLOW)).isEqualTo("Invalid empty resource name");
        assertThat(problem(ResourceType.ANY, "t", PatternType.LITERAL, "User:a", "*", AclOperation.READ,
                AclPermissionType.ALLOW)).isEqualTo("Invalid resourceType ANY");
        assertThat(problem(ResourceType.TOPIC, "t", PatternType.MATCH, "User:a", "*", AclOperation.READ,
                AclPermissionType.ALLOW)).isEqualTo("Invalid patternType MATCH");
        assertThat(problem(ResourceType.TOPIC, "t", PatternType.LITERAL, "User:a", "*", AclOperation.ANY,
                AclPermissionType.ALLOW)).isEqualTo("Invalid operation ANY");
        assertThat(problem(ResourceType.TOPIC, "t", PatternType.LITERAL, "User:a", "*", AclOperation.READ,
                AclPermissionType.ANY)).isEqualTo("Invalid permissionType ANY");
        assertThat(problem(ResourceType.TOPIC, "t", PatternType.LITERAL, "alice", "*", AclOperation.READ,
                AclPermissionType.ALLOW)).isEqualTo("Could not parse principal from `alice` (no colon is present"
                        + " separating the principal type from the principal name)");
        assertThat(problem(ResourceType.TOPIC, "t", PatternType.LITERAL, "User:a", "", AclOperation.READ,
                AclPermissionType.ALLOW)).isEqualTo("Host pattern cannot be null or empty");
        assertThat(problem(ResourceType.TOPIC, "t", PatternType.LITERAL, "User:a", "10.0.0.1/40", AclOperation.READ,
                AclPermissionType.ALLOW)).isEqualTo("Invalid CIDR notation '10.0.0.1/40': Value [40] not in range [0,32]");
    }

    @Test
    void supportedOperationsAreKafkasPerResourceType() {
        assertThat(AclRules.supportedOperations(ResourceType.TOPIC)).containsExactlyInAnyOrder(AclOperation.READ,
                AclOperation.WRITE, AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.DELETE, AclOperation.ALTER,
                AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS);
        assertThat(AclRules.supportedOperations(ResourceType.TRANSACTIONAL_ID)).containsExactlyInAnyOrder(
                AclOperation.DESCRIBE, AclOperation.WRITE, AclOperation.TWO_PHASE_COMMIT);
        // Kafka's DescribeTopics authorized operations with every topic operation allowed: 3576 (bits 3-8, 10, 11)
        assertThat(AclRules.bitField(AclRules.supportedOperations(ResourceType.TOPIC))).isEqualTo(3576);
        assertThat(AclRules.bitField(EnumSet.noneOf(AclOperation.class))).isZero();
    }
}
