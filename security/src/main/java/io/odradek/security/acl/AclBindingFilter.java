package io.odradek.security.acl;

/**
 * What DescribeAcls and DeleteAcls select, as Kafka's AclBindingFilter: a null name, principal or host matches
 * any; ResourceType.ANY, PatternType.ANY, AclOperation.ANY and AclPermissionType.ANY match any; PatternType.MATCH
 * matches every stored pattern that would apply to the named resource (literal equal, the literal wildcard, or a
 * prefix of the name).
 */
public record AclBindingFilter(ResourceType resourceType, String name, PatternType patternType, String principal,
        String host, AclOperation operation, AclPermissionType permission) {

    /** Whether {@code binding} is selected by this filter (Kafka's AclBindingFilter.matches). */
    public boolean matches(AclBinding binding) {
        return matchesPattern(binding.pattern()) && matchesEntry(binding.entry());
    }

    /** Kafka's ResourcePatternFilter.matches. */
    private boolean matchesPattern(ResourcePattern pattern) {
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
        // MATCH: the stored patterns that apply to a resource called `name`.
        return switch (pattern.patternType()) {
            case LITERAL -> name.equals(pattern.name()) || pattern.name().equals(ResourcePattern.WILDCARD);
            case PREFIXED -> name.startsWith(pattern.name());
            default -> throw new IllegalArgumentException("Unsupported PatternType: " + pattern.patternType());
        };
    }

    /** Kafka's AccessControlEntryFilter.matches. */
    private boolean matchesEntry(AccessControlEntry entry) {
        if (principal != null && !principal.equals(entry.principal())) {
            return false;
        }
        if (host != null && !host.equals(entry.host())) {
            return false;
        }
        if (operation != AclOperation.ANY && operation != entry.operation()) {
            return false;
        }
        return permission == AclPermissionType.ANY || permission == entry.permission();
    }
}
