package io.odradek.security.acl;

/** One ACL: a resource pattern and an access control entry, as CreateAcls creates and DescribeAcls lists it. */
public record AclBinding(ResourcePattern pattern, AccessControlEntry entry) {
}
