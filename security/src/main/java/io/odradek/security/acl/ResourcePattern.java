package io.odradek.security.acl;

/**
 * What an ACL is about: a resource type, a name ({@code *} = every resource of the type, with LITERAL) and how
 * the name matches (LITERAL or PREFIXED in a stored ACL). Kafka's name for the cluster resource is
 * {@code kafka-cluster}.
 */
public record ResourcePattern(ResourceType type, String name, PatternType patternType) {
    public static final String WILDCARD = "*";
    public static final String CLUSTER_NAME = "kafka-cluster";
}
