package io.odradek.security.acl;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What Kafka 4.4 accepts as a new ACL and which operations a resource type has: the checks of AclApis
 * (broker) and AclControlManager.validateNewAcl (controller), with their messages, and AclEntry's supported
 * operations (what KIP-430's authorized-operations fields range over).
 */
public final class AclRules {
    private AclRules() {
    }

    /**
     * Why {@code binding} may not be created (Kafka answers INVALID_REQUEST with this message), or null when it
     * may. CIDR host blocks are accepted, as Kafka 4.4 at its latest metadata version does.
     */
    public static String creationProblem(AclBinding binding) {
        ResourcePattern pattern = binding.pattern();
        AccessControlEntry entry = binding.entry();
        // AclApis (the broker) first.
        if (pattern.type() == ResourceType.CLUSTER && !ResourcePattern.CLUSTER_NAME.equals(pattern.name())) {
            return "The only valid name for the CLUSTER resource is " + ResourcePattern.CLUSTER_NAME;
        }
        if (pattern.name() != null && pattern.name().isEmpty()) {
            return "Invalid empty resource name";
        }
        // Then AclControlManager.validateNewAcl (the controller).
        if (pattern.type() == ResourceType.UNKNOWN || pattern.type() == ResourceType.ANY) {
            return "Invalid resourceType " + pattern.type();
        }
        if (pattern.patternType() != PatternType.LITERAL && pattern.patternType() != PatternType.PREFIXED) {
            return "Invalid patternType " + pattern.patternType();
        }
        if (entry.operation() == AclOperation.UNKNOWN || entry.operation() == AclOperation.ANY) {
            return "Invalid operation " + entry.operation();
        }
        if (entry.permission() != AclPermissionType.ALLOW && entry.permission() != AclPermissionType.DENY) {
            return "Invalid permissionType " + entry.permission();
        }
        if (pattern.name() == null || pattern.name().isEmpty()) {
            return "Resource name should not be empty";
        }
        if (entry.principal() == null || entry.principal().indexOf(':') < 0) {
            return "Could not parse principal from `" + entry.principal()
                    + "` (no colon is present separating the principal type from the principal name)";
        }
        return hostProblem(entry.host());
    }

    /** Kafka's AclControlManager.validateHostPattern: not empty; {@code *}, an address, or a valid CIDR block. */
    static String hostProblem(String host) {
        if (host == null || host.isEmpty()) {
            return "Host pattern cannot be null or empty";
        }
        if (host.equals(AccessControlEntry.WILDCARD_HOST) || !CidrRange.isCidr(host)) {
            return null;
        }
        try {
            CidrRange.parse(host);
            return null;
        } catch (IllegalArgumentException e) {
            return "Invalid CIDR notation '" + host + "': " + e.getMessage();
        }
    }

    /**
     * Kafka's controller refuses a delete filter with an unknown part ("Unknown patternFilter." /
     * "Unknown entryFilter."), else null.
     */
    public static String filterProblem(AclBindingFilter filter) {
        if (filter.patternUnknown()) {
            return "Unknown patternFilter.";
        }
        if (filter.entryUnknown()) {
            return "Unknown entryFilter.";
        }
        return null;
    }

    private static final Set<AclOperation> TOPIC = ops(AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE,
            AclOperation.DESCRIBE, AclOperation.DELETE, AclOperation.ALTER, AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS);
    private static final Set<AclOperation> GROUP = ops(AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE,
            AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS);
    private static final Set<AclOperation> CLUSTER = ops(AclOperation.CREATE, AclOperation.CLUSTER_ACTION,
            AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE,
            AclOperation.ALTER, AclOperation.DESCRIBE);
    private static final Set<AclOperation> TRANSACTIONAL_ID = ops(AclOperation.DESCRIBE, AclOperation.WRITE,
            AclOperation.TWO_PHASE_COMMIT);
    private static final Set<AclOperation> DELEGATION_TOKEN = ops(AclOperation.DESCRIBE);
    private static final Set<AclOperation> USER = ops(AclOperation.CREATE_TOKENS, AclOperation.DESCRIBE_TOKENS);

    private static Set<AclOperation> ops(AclOperation first, AclOperation... rest) {
        return Collections.unmodifiableSet(EnumSet.of(first, rest));
    }

    /** Kafka's AclEntry.supportedOperations; IllegalArgumentException for ANY and UNKNOWN. */
    public static Set<AclOperation> supportedOperations(ResourceType type) {
        return switch (type) {
            case TOPIC -> TOPIC;
            case GROUP -> GROUP;
            case CLUSTER -> CLUSTER;
            case TRANSACTIONAL_ID -> TRANSACTIONAL_ID;
            case DELEGATION_TOKEN -> DELEGATION_TOKEN;
            case USER -> USER;
            default -> throw new IllegalArgumentException("Not a concrete resource type");
        };
    }

    /** The KIP-430 bit field of {@code operations}: bit n set for the operation with code n (Utils.to32BitField). */
    public static int bitField(Set<AclOperation> operations) {
        int bits = 0;
        for (AclOperation op : operations) {
            bits |= 1 << op.code;
        }
        return bits;
    }
}
