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
        throw new UnsupportedOperationException("authorizer part of issue 10: not written yet");
    }
}
