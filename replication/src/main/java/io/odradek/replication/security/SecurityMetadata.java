package io.odradek.replication.security;

import io.odradek.replication.metadata.MetadataException;
import io.odradek.replication.security.SecurityMetadataStore.ScramChange;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.AclPermissionType;
import io.odradek.security.acl.PatternType;
import io.odradek.security.acl.ResourceType;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramMechanism;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * ACLs and SCRAM credentials at one point in time, immutable: what the single-node file holds and what the cluster
 * image's security section is. The changes are pure functions, used alike by the controller (so every controller
 * computes the same image) and by the single-node store, and refuse what Kafka 4.4's controller refuses
 * (AclControlManager / ScramControlManager), with its error codes and messages, all or nothing.
 *
 * <p>Equality compares credentials by content ({@link ScramCredential} is a record over byte arrays, whose own
 * equality is identity), so an image that did not change these sections compares equal and wakes no listener.
 */
public final class SecurityMetadata {
    public static final SecurityMetadata EMPTY = new SecurityMetadata(List.of(), Map.of());

    /** The result of {@link #withoutMatching}: what is left, and per filter the ACLs it matched. */
    public record Deletion(SecurityMetadata next, List<List<AclBinding>> removed) {
    }

    private final List<AclBinding> acls;
    private final SortedMap<String, Map<ScramMechanism, ScramCredential>> scram;

    /** {@code acls} in creation order; {@code scram}: user -> mechanism -> credential (users without one left out). */
    public SecurityMetadata(List<AclBinding> acls, Map<String, Map<ScramMechanism, ScramCredential>> scram) {
        this.acls = List.copyOf(acls);
        TreeMap<String, Map<ScramMechanism, ScramCredential>> users = new TreeMap<>();
        scram.forEach((user, creds) -> {
            if (!creds.isEmpty()) {
                users.put(user, Collections.unmodifiableMap(new EnumMap<>(creds)));
            }
        });
        this.scram = Collections.unmodifiableSortedMap(users);
    }

    public List<AclBinding> acls() {
        return acls;
    }

    /** user -> mechanism -> credential, users in name order. */
    public SortedMap<String, Map<ScramMechanism, ScramCredential>> scram() {
        return scram;
    }

    public boolean isEmpty() {
        return acls.isEmpty() && scram.isEmpty();
    }

    /**
     * With {@code added} appended (one already present stays once, where it was), after checking each as Kafka's
     * AclControlManager.validateNewAcl: INVALID_REQUEST with its message for an ANY/UNKNOWN type, operation or
     * permission, a pattern type other than LITERAL/PREFIXED, or an empty name.
     */
    public SecurityMetadata withAcls(List<AclBinding> added) {
        added.forEach(SecurityMetadata::validateNewAcl);
        Set<AclBinding> next = new LinkedHashSet<>(acls);
        next.addAll(added);
        return next.size() == acls.size() ? this : new SecurityMetadata(List.copyOf(next), scram);
    }

    /**
     * Without every ACL any filter matches; per filter (in order) the ACLs it matched in this state, so an ACL two
     * filters match is listed under both, as Kafka's controller lists it. A filter with an UNKNOWN part is refused
     * (INVALID_REQUEST "Unknown patternFilter." / "Unknown entryFilter.", Kafka's messages).
     */
    public Deletion withoutMatching(List<AclBindingFilter> filters) {
        filters.forEach(SecurityMetadata::validateFilter);
        List<List<AclBinding>> removed = new ArrayList<>(filters.size());
        Set<AclBinding> gone = new LinkedHashSet<>();
        for (AclBindingFilter filter : filters) {
            List<AclBinding> matched = acls.stream().filter(filter::matches).toList();
            removed.add(matched);
            gone.addAll(matched);
        }
        if (gone.isEmpty()) {
            return new Deletion(this, removed);
        }
        List<AclBinding> left = acls.stream().filter(b -> !gone.contains(b)).toList();
        return new Deletion(new SecurityMetadata(left, scram), removed);
    }

    /**
     * With the credential changes applied in order, after Kafka's checks (ScramControlManager): an empty user name
     * or fewer than {@value ScramMechanism#MIN_ITERATIONS} / more than {@value ScramMechanism#MAX_ITERATIONS}
     * iterations is UNACCEPTABLE_CREDENTIAL, no mechanism UNSUPPORTED_SASL_MECHANISM, deleting a credential that
     * does not exist RESOURCE_NOT_FOUND.
     */
    public SecurityMetadata withScramChanges(List<ScramChange> changes) {
        TreeMap<String, Map<ScramMechanism, ScramCredential>> next = new TreeMap<>();
        scram.forEach((user, creds) -> next.put(user, new EnumMap<>(creds)));
        for (ScramChange change : changes) {
            validateScramChange(change);
            Map<ScramMechanism, ScramCredential> creds = next.computeIfAbsent(change.user(),
                    u -> new EnumMap<>(ScramMechanism.class));
            if (change.credential() == null) {
                if (creds.remove(change.mechanism()) == null) {
                    throw new MetadataException(ErrorCode.RESOURCE_NOT_FOUND,
                            "Attempt to delete a user credential that does not exist");
                }
            } else {
                creds.put(change.mechanism(), change.credential());
            }
            if (creds.isEmpty()) {
                next.remove(change.user());
            }
        }
        return new SecurityMetadata(acls, next);
    }

    static void validateNewAcl(AclBinding binding) {
        if (binding == null || binding.pattern() == null || binding.entry() == null) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Invalid ACL binding " + binding);
        }
        ResourceType type = binding.pattern().type();
        if (type == null || type == ResourceType.UNKNOWN || type == ResourceType.ANY) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Invalid resourceType " + type);
        }
        PatternType patternType = binding.pattern().patternType();
        if (patternType != PatternType.LITERAL && patternType != PatternType.PREFIXED) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Invalid patternType " + patternType);
        }
        AclOperation operation = binding.entry().operation();
        if (operation == null || operation == AclOperation.UNKNOWN || operation == AclOperation.ANY) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Invalid operation " + operation);
        }
        AclPermissionType permission = binding.entry().permission();
        if (permission != AclPermissionType.ALLOW && permission != AclPermissionType.DENY) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Invalid permissionType " + permission);
        }
        if (binding.pattern().name() == null || binding.pattern().name().isEmpty()) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Resource name should not be empty");
        }
        if (binding.entry().principal() == null || binding.entry().host() == null) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "An ACL needs a principal and a host");
        }
    }

    static void validateFilter(AclBindingFilter filter) {
        if (filter.resourceType() == null || filter.resourceType() == ResourceType.UNKNOWN
                || filter.patternType() == null || filter.patternType() == PatternType.UNKNOWN) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Unknown patternFilter.");
        }
        if (filter.operation() == null || filter.operation() == AclOperation.UNKNOWN
                || filter.permission() == null || filter.permission() == AclPermissionType.UNKNOWN) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Unknown entryFilter.");
        }
    }

    static void validateScramChange(ScramChange change) {
        if (change.user() == null || change.user().isEmpty()) {
            throw new MetadataException(ErrorCode.UNACCEPTABLE_CREDENTIAL, "Username must not be empty");
        }
        if (change.mechanism() == null) {
            throw new MetadataException(ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
        }
        ScramCredential credential = change.credential();
        if (credential != null) {
            if (credential.iterations() < ScramMechanism.MIN_ITERATIONS) {
                throw new MetadataException(ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too few iterations");
            }
            if (credential.iterations() > ScramMechanism.MAX_ITERATIONS) {
                throw new MetadataException(ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too many iterations");
            }
            if (credential.salt() == null || credential.storedKey() == null || credential.serverKey() == null) {
                throw new MetadataException(ErrorCode.UNACCEPTABLE_CREDENTIAL, "Incomplete SCRAM credential");
            }
        }
    }

    /** Two credentials with the same salt, keys and iterations. */
    public static boolean sameCredential(ScramCredential a, ScramCredential b) {
        return a.iterations() == b.iterations() && Arrays.equals(a.salt(), b.salt())
                && Arrays.equals(a.storedKey(), b.storedKey()) && Arrays.equals(a.serverKey(), b.serverKey());
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;   // the usual case: an image whose command did not touch this section
        }
        if (!(o instanceof SecurityMetadata other) || !acls.equals(other.acls)
                || !scram.keySet().equals(other.scram.keySet())) {
            return false;
        }
        for (Map.Entry<String, Map<ScramMechanism, ScramCredential>> e : scram.entrySet()) {
            Map<ScramMechanism, ScramCredential> theirs = other.scram.get(e.getKey());
            if (!e.getValue().keySet().equals(theirs.keySet())) {
                return false;
            }
            for (Map.Entry<ScramMechanism, ScramCredential> c : e.getValue().entrySet()) {
                if (!sameCredential(c.getValue(), theirs.get(c.getKey()))) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Objects.hash(acls, scram.keySet());
    }

    /** Counts only: credentials are never printed. */
    @Override
    public String toString() {
        return "SecurityMetadata(" + acls.size() + " ACL(s), SCRAM credentials of " + scram.size() + " user(s))";
    }
}
