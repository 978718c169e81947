package io.odradek.security.acl;

import io.odradek.security.KafkaPrincipal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Kafka 4.4's StandardAuthorizer decisions over a set of ACLs (StandardAuthorizerData.authorize and the
 * Authorizer interface's authorizeByResourceType):
 * <ul>
 * <li>a super user ({@code super.users}: {@code User:admin;User:ops}) may do anything, whatever the ACLs;</li>
 * <li>otherwise the ACLs that apply to the resource are those whose pattern matches its name (LITERAL equal,
 *     LITERAL {@code *}, PREFIXED a prefix of it) and, among them, those of the caller's principal or of
 *     {@code User:*}, from the caller's host (the host equal, {@code *}, or a CIDR block holding it);</li>
 * <li>a DENY for the operation (or for ALL) wins over any ALLOW; an ALLOW for the operation or for ALL
 *     allows; an ALLOW of READ, WRITE, DELETE or ALTER also allows DESCRIBE, and of ALTER_CONFIGS also
 *     DESCRIBE_CONFIGS (a DENY implies nothing);</li>
 * <li>no applying ALLOW: denied, except when the resource has no ACL at all (of anyone, from anywhere, for
 *     any operation) and {@code allow.everyone.if.no.acl.found} is true.</li>
 * </ul>
 * The ACLs are held in an immutable {@link AclIndex} snapshot swapped whole on {@link #refresh}, so a decision
 * never locks and sees one consistent set of ACLs.
 */
public final class AclAuthorizer implements Authorizer {
    private static final KafkaPrincipal WILDCARD_PRINCIPAL = KafkaPrincipal.parse(AccessControlEntry.WILDCARD_PRINCIPAL);
    /** Kafka's authorizeByResourceType asks the plain authorizer about a resource of this name first. */
    private static final String HARDCODED_NAME = "hardcode";
    private static final Set<AclOperation> IMPLIES_DESCRIBE = Collections.unmodifiableSet(
            EnumSet.of(AclOperation.DESCRIBE, AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE,
                    AclOperation.ALTER));
    private static final Set<AclOperation> IMPLIES_DESCRIBE_CONFIGS = Collections.unmodifiableSet(
            EnumSet.of(AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS));

    private final Set<KafkaPrincipal> superUsers;
    private final boolean allowIfNoAcl;
    private volatile AclIndex index = AclIndex.EMPTY;
    private List<AclBinding> indexed; // the list the index was built from (guarded by this)

    /**
     * @param superUsers principals (as {@code User:name}) allowed everything
     * @param allowEveryoneIfNoAclFound Kafka's {@code allow.everyone.if.no.acl.found}
     */
    public AclAuthorizer(Set<KafkaPrincipal> superUsers, boolean allowEveryoneIfNoAclFound) {
        this.superUsers = Set.copyOf(superUsers);
        this.allowIfNoAcl = allowEveryoneIfNoAclFound;
    }

    /**
     * {@code super.users} as Kafka reads it: principals separated by ';', blanks around each trimmed, empty ones
     * skipped; IllegalArgumentException naming the one that is not {@code Type:name}.
     */
    public static Set<KafkaPrincipal> parseSuperUsers(String value) {
        if (value == null) {
            return Set.of();
        }
        Set<KafkaPrincipal> out = new HashSet<>();
        for (String s : value.split(";")) {
            String v = s.trim();
            if (!v.isEmpty()) {
                out.add(KafkaPrincipal.parse(v));
            }
        }
        return out;
    }

    /**
     * Rebuilds the snapshot from {@code source} (the ACL store's current list) unless that list is the one the
     * snapshot was built from. Called when the store changes; reading the source under this lock keeps two
     * concurrent refreshes from installing an older list after a newer one.
     */
    public synchronized void refresh(Supplier<List<AclBinding>> source) {
        List<AclBinding> acls = source.get();
        if (acls != indexed) {
            index = new AclIndex(acls);
            indexed = acls;
        }
    }

    /** How many ACLs decisions are made over now. */
    public int aclCount() {
        return index.count();
    }

    public Set<KafkaPrincipal> superUsers() {
        return superUsers;
    }

    public boolean allowEveryoneIfNoAclFound() {
        return allowIfNoAcl;
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public boolean authorize(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type,
            String name) {
        if (superUsers.contains(principal)) {
            return true;
        }
        return decide(index, principal, host, operation, type, name);
    }

    private boolean decide(AclIndex snapshot, KafkaPrincipal principal, String host, AclOperation operation,
            ResourceType type, String name) {
        AclIndex.TypeAcls acls = snapshot.forType(type);
        if (acls == null) {
            return allowIfNoAcl;
        }
        Verdict verdict = new Verdict(principal, host, operation);
        AclIndex.PatternAcls literal = acls.literal.get(name);
        if (literal != null) {
            verdict.accept(literal);
        }
        if (acls.wildcard != null) {
            verdict.accept(acls.wildcard);
        }
        acls.prefixed.forEachPrefixOf(name, verdict);
        if (verdict.denied) {
            return false;
        }
        if (verdict.allowed) {
            return true;
        }
        return !verdict.resourceHasAcls && allowIfNoAcl;
    }

    /** What the ACLs applying to one resource say about one request. */
    private static final class Verdict implements Consumer<AclIndex.PatternAcls> {
        final KafkaPrincipal principal;
        final String host;
        final AclOperation operation;
        boolean resourceHasAcls;
        boolean allowed;
        boolean denied;

        Verdict(KafkaPrincipal principal, String host, AclOperation operation) {
            this.principal = principal;
            this.host = host;
            this.operation = operation;
        }

        @Override
        public void accept(AclIndex.PatternAcls acls) {
            resourceHasAcls = true; // any ACL on the resource, whoever it is for
            if (denied) {
                return;
            }
            check(acls.byPrincipal.get(principal));
            if (!principal.equals(WILDCARD_PRINCIPAL)) {
                check(acls.byPrincipal.get(WILDCARD_PRINCIPAL));
            }
        }

        private void check(List<AclIndex.Entry> entries) {
            if (entries == null) {
                return;
            }
            for (AclIndex.Entry e : entries) {
                if (!e.hostMatches(host) || !operationMatches(e.ace())) {
                    continue;
                }
                if (e.ace().permission() == AclPermissionType.DENY) {
                    denied = true;
                    return;
                }
                if (e.ace().permission() == AclPermissionType.ALLOW) {
                    allowed = true;
                }
            }
        }

        /** Kafka's StandardAuthorizerData.findResult: ALL matches all; ALLOW ACLs imply DESCRIBE(_CONFIGS). */
        private boolean operationMatches(AccessControlEntry ace) {
            if (ace.operation() == AclOperation.ALL) {
                return true;
            }
            if (ace.permission() == AclPermissionType.ALLOW) {
                return switch (operation) {
                    case DESCRIBE -> IMPLIES_DESCRIBE.contains(ace.operation());
                    case DESCRIBE_CONFIGS -> IMPLIES_DESCRIBE_CONFIGS.contains(ace.operation());
                    default -> operation == ace.operation();
                };
            }
            return operation == ace.operation();
        }
    }

    /**
     * KIP-679, as Kafka's Authorizer.authorizeByResourceType: allowed when the plain check on a resource named
     * "hardcode" allows (super users; allow.everyone.if.no.acl.found with no ACL applying to it; ALLOW on
     * {@code *}), else when some LITERAL or PREFIXED ALLOW of the operation (or ALL) for the caller or
     * {@code User:*} from the caller's host is not overridden by a DENY of the same literal name or of a prefix
     * of it; a DENY on the literal {@code *} refuses. Implied operations do not count here, as in Kafka.
     */
    @Override
    public boolean authorizeAny(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type) {
        if (type == ResourceType.ANY) {
            throw new IllegalArgumentException("Must specify a non-filter resource type for authorizeByResourceType");
        }
        if (type == ResourceType.UNKNOWN) {
            throw new IllegalArgumentException("Unknown resource type");
        }
        if (operation == AclOperation.ANY) {
            throw new IllegalArgumentException("Must specify a non-filter operation type for authorizeByResourceType");
        }
        if (operation == AclOperation.UNKNOWN) {
            throw new IllegalArgumentException("Unknown operation type");
        }
        if (superUsers.contains(principal)) {
            return true;
        }
        AclIndex snapshot = index;
        if (decide(snapshot, principal, host, operation, type, HARDCODED_NAME)) {
            return true;
        }
        AclIndex.TypeAcls acls = snapshot.forType(type);
        if (acls == null) {
            return false;
        }
        Set<String> denyLiteral = new HashSet<>();
        Set<String> denyPrefixed = new HashSet<>();
        List<ResourcePattern> allows = new ArrayList<>();
        for (KafkaPrincipal p : principal.equals(WILDCARD_PRINCIPAL) ? List.of(principal)
                : List.of(principal, WILDCARD_PRINCIPAL)) {
            for (AclBinding b : acls.bindingsByPrincipal.getOrDefault(p, List.of())) {
                AccessControlEntry ace = b.entry();
                if (!hostMatches(ace.host(), host)) {
                    continue;
                }
                if (ace.operation() != operation && ace.operation() != AclOperation.ALL) {
                    continue;
                }
                ResourcePattern pattern = b.pattern();
                if (ace.permission() == AclPermissionType.DENY) {
                    if (pattern.patternType() == PatternType.LITERAL) {
                        if (pattern.name().equals(ResourcePattern.WILDCARD)) {
                            return false;
                        }
                        denyLiteral.add(pattern.name());
                    } else if (pattern.patternType() == PatternType.PREFIXED) {
                        denyPrefixed.add(pattern.name());
                    }
                } else if (ace.permission() == AclPermissionType.ALLOW) {
                    allows.add(pattern);
                }
            }
        }
        boolean wildcardAllow = false;
        for (ResourcePattern allow : allows) {
            if (allow.patternType() == PatternType.LITERAL && allow.name().equals(ResourcePattern.WILDCARD)) {
                wildcardAllow = true;
            }
        }
        if (wildcardAllow) {
            return true;
        }
        for (ResourcePattern allow : allows) {
            if (allow.patternType() == PatternType.LITERAL && denyLiteral.contains(allow.name())) {
                continue;
            }
            boolean dominated = false;
            for (int end = 1; end <= allow.name().length() && !dominated; end++) {
                dominated = denyPrefixed.contains(allow.name().substring(0, end));
            }
            if (!dominated) {
                return true;
            }
        }
        return false;
    }

    private static boolean hostMatches(String aclHost, String clientHost) {
        if (aclHost.equals(clientHost) || aclHost.equals(AccessControlEntry.WILDCARD_HOST)) {
            return true;
        }
        if (!CidrRange.isCidr(aclHost)) {
            return false;
        }
        try {
            return CidrRange.parse(aclHost).contains(clientHost);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
