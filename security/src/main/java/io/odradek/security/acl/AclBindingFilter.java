package io.odradek.security.acl;

/**
 * What DescribeAcls and DeleteAcls select, as Kafka's AclBindingFilter: a null name, principal or host matches
 * any; ResourceType.ANY, PatternType.ANY, AclOperation.ANY and AclPermissionType.ANY match any; PatternType.MATCH
 * matches every stored pattern that would apply to the named resource (literal equal, the literal wildcard, or a
 * prefix of the name).
 */
public record AclBindingFilter(ResourceType resourceType, String name, PatternType patternType, String principal,
        String host, AclOperation operation, AclPermissionType permission) {

    /** Every ACL: what {@code kafka-acls --list} with no options sends. */
    public static final AclBindingFilter ANY = new AclBindingFilter(ResourceType.ANY, null, PatternType.ANY, null, null,
            AclOperation.ANY, AclPermissionType.ANY);

    /** Whether {@code binding} is selected by this filter (Kafka's AclBindingFilter.matches). */
    public boolean matches(AclBinding binding) {
        return matchesPattern(binding.pattern()) && matchesEntry(binding.entry());
    }

    /** Kafka's ResourcePatternFilter.matches. */
    public boolean matchesPattern(ResourcePattern pattern) {
        if (resourceType != ResourceType.ANY && resourceType != pattern.type()) {
            return false;
        }
        if (patternType != PatternType.ANY && patternType != PatternType.MATCH && patternType != pattern.patternType()) {
            return false;
        }
        if (name == null) {
            return true;
        }
        if (patternType == PatternType.ANY || patternType == pattern.patternType()) {
            return name.equals(pattern.name());
        }
        // MATCH: the stored patterns that apply to a resource called name.
        return switch (pattern.patternType()) {
            case LITERAL -> name.equals(pattern.name()) || pattern.name().equals(ResourcePattern.WILDCARD);
            case PREFIXED -> name.startsWith(pattern.name());
            default -> throw new IllegalArgumentException("Unsupported PatternType: " + pattern.patternType());
        };
    }

    /** Kafka's AccessControlEntryFilter.matches. */
    public boolean matchesEntry(AccessControlEntry entry) {
        return (principal == null || principal.equals(entry.principal()))
                && (host == null || host.equals(entry.host()))
                && (operation == AclOperation.ANY || operation == entry.operation())
                && (permission == AclPermissionType.ANY || permission == entry.permission());
    }

    /**
     * Whether a part of the filter is UNKNOWN (a code this broker does not know): Kafka's controller refuses
     * such a filter ("Unknown patternFilter." / "Unknown entryFilter.").
     */
    public boolean patternUnknown() {
        return resourceType == ResourceType.UNKNOWN || patternType == PatternType.UNKNOWN;
    }

    public boolean entryUnknown() {
        return operation == AclOperation.UNKNOWN || permission == AclPermissionType.UNKNOWN;
    }
}
