package io.odradek.security.acl;

/**
 * Who may (or may not) do what, from where: a principal as text ({@code User:alice}, {@code User:*} for every
 * user), a host ({@code *} for any), an operation and ALLOW or DENY.
 */
public record AccessControlEntry(String principal, String host, AclOperation operation, AclPermissionType permission) {
    public static final String WILDCARD_PRINCIPAL = "User:*";
    public static final String WILDCARD_HOST = "*";
}
