package io.odradek.security.acl;

import io.odradek.security.KafkaPrincipal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable snapshot of every ACL, arranged for the authorizer's questions: per resource type, the literal
 * patterns by name, the literal wildcard ({@code *}) apart, the prefixed patterns in a {@link PrefixTrie}; under
 * each pattern its entries grouped by principal. Deciding one request thus looks at the few patterns that apply
 * to the resource and, under each, only the entries of the caller and of {@code User:*}. Rebuilt whole when the
 * ACLs change (changes are rare; requests are many).
 */
final class AclIndex {
    static final AclIndex EMPTY = new AclIndex(List.of());

    /** One entry of a pattern, its host pre-parsed when it is a CIDR block. */
    record Entry(AccessControlEntry ace, CidrRange cidr) {
        boolean hostMatches(String clientHost) {
            String host = ace.host();
            if (host.equals(AccessControlEntry.WILDCARD_HOST) || host.equals(clientHost)) {
                return true;
            }
            return cidr != null && cidr.contains(clientHost);
        }
    }

    /** The entries of one stored pattern; there is at least one. */
    static final class PatternAcls {
        final ResourcePattern pattern;
        final Map<KafkaPrincipal, List<Entry>> byPrincipal = new HashMap<>(4);

        PatternAcls(ResourcePattern pattern) {
            this.pattern = pattern;
        }
    }

    /** The ACLs of one resource type. */
    static final class TypeAcls {
        final Map<String, PatternAcls> literal = new HashMap<>();
        PatternAcls wildcard;
        final PrefixTrie<PatternAcls> prefixed = new PrefixTrie<>();
        /** For authorizeByResourceType: this type's ACLs by principal, in creation order. */
        final Map<KafkaPrincipal, List<AclBinding>> bindingsByPrincipal = new HashMap<>();
    }

    private final Map<ResourceType, TypeAcls> byType = new EnumMap<>(ResourceType.class);
    private final int count;

    AclIndex(List<AclBinding> bindings) {
        int n = 0;
        for (AclBinding binding : bindings) {
            ResourcePattern pattern = binding.pattern();
            KafkaPrincipal principal = principalOf(binding.entry().principal());
            if (principal == null || pattern.name() == null || pattern.name().isEmpty()) {
                continue; // stored ACLs are checked on creation; one that is not well formed matches no one
            }
            TypeAcls type = byType.computeIfAbsent(pattern.type(), t -> new TypeAcls());
            PatternAcls acls;
            if (pattern.patternType() == PatternType.LITERAL) {
                if (pattern.name().equals(ResourcePattern.WILDCARD)) {
                    if (type.wildcard == null) {
                        type.wildcard = new PatternAcls(pattern);
                    }
                    acls = type.wildcard;
                } else {
                    acls = type.literal.computeIfAbsent(pattern.name(), name -> new PatternAcls(pattern));
                }
            } else if (pattern.patternType() == PatternType.PREFIXED) {
                acls = type.prefixed.computeIfAbsent(pattern.name(), () -> new PatternAcls(pattern));
            } else {
                continue;
            }
            String host = binding.entry().host();
            CidrRange cidr = null;
            if (CidrRange.isCidr(host)) {
                try {
                    cidr = CidrRange.parse(host);
                } catch (IllegalArgumentException e) {
                    // stays null: matches only a client whose address is that very text, i.e. none
                }
            }
            acls.byPrincipal.computeIfAbsent(principal, p -> new ArrayList<>(2)).add(new Entry(binding.entry(), cidr));
            type.bindingsByPrincipal.computeIfAbsent(principal, p -> new ArrayList<>()).add(binding);
            n++;
        }
        count = n;
    }

    /** The parsed principal of an ACL, or null when it is not {@code Type:name}. */
    private static KafkaPrincipal principalOf(String text) {
        try {
            return KafkaPrincipal.parse(text);
        } catch (IllegalArgumentException | NullPointerException e) {
            return null;
        }
    }

    /** The ACLs of {@code type}, or null when it has none. */
    TypeAcls forType(ResourceType type) {
        return byType.get(type);
    }

    /** How many ACLs the snapshot holds. */
    int count() {
        return count;
    }
}
