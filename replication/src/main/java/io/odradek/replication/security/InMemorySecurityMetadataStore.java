package io.odradek.replication.security;

import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramMechanism;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link SecurityMetadataStore} held in memory only: for tests, and the base of the durable single-node one. */
public class InMemorySecurityMetadataStore implements SecurityMetadataStore {
    private volatile List<AclBinding> acls = List.of();
    private volatile Map<String, Map<ScramMechanism, ScramCredential>> scram = Map.of();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    @Override
    public List<AclBinding> acls() {
        return acls;
    }

    @Override
    public synchronized CompletableFuture<Void> createAcls(List<AclBinding> added) {
        List<AclBinding> next = new ArrayList<>(acls);
        for (AclBinding b : added) {
            if (!next.contains(b)) {
                next.add(b);
            }
        }
        acls = List.copyOf(next);
        changed();
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public synchronized CompletableFuture<List<List<AclBinding>>> deleteAcls(List<AclBindingFilter> filters) {
        List<List<AclBinding>> matched = new ArrayList<>();
        List<AclBinding> next = new ArrayList<>(acls);
        for (AclBindingFilter f : filters) {
            matched.add(acls.stream().filter(f::matches).toList());
        }
        matched.forEach(next::removeAll);
        acls = List.copyOf(next);
        changed();
        return CompletableFuture.completedFuture(matched);
    }

    @Override
    public Map<String, Map<ScramMechanism, ScramCredential>> scramCredentials() {
        return scram;
    }

    @Override
    public synchronized CompletableFuture<Void> alterScramCredentials(List<ScramChange> changes) {
        Map<String, Map<ScramMechanism, ScramCredential>> next = new LinkedHashMap<>();
        scram.forEach((user, creds) -> next.put(user, new EnumMap<>(creds)));
        for (ScramChange c : changes) {
            Map<ScramMechanism, ScramCredential> creds = next.computeIfAbsent(c.user(), u -> new EnumMap<>(ScramMechanism.class));
            if (c.credential() == null) {
                creds.remove(c.mechanism());
            } else {
                creds.put(c.mechanism(), c.credential());
            }
            if (creds.isEmpty()) {
                next.remove(c.user());
            }
        }
        Map<String, Map<ScramMechanism, ScramCredential>> frozen = new LinkedHashMap<>();
        next.forEach((user, creds) -> frozen.put(user, Map.copyOf(creds)));
        scram = Map.copyOf(frozen);
        changed();
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void addListener(Runnable onChange) {
        listeners.add(onChange);
    }

    /** Runs the listeners; subclasses call it after their own changes become visible. */
    protected void changed() {
        listeners.forEach(Runnable::run);
    }
}
