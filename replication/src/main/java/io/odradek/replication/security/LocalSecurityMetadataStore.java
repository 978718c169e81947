package io.odradek.replication.security;

import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramMechanism;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The single-node store (no {@code process.roles}): {@link SecurityMetadata} in a {@link SecurityMetadataFile}
 * ({@code __cluster_metadata/security}) beside the topic catalog and the dynamic configs. A change is written and
 * synced before it becomes visible, so an ACL or credential a client was told is stored survives a crash, and a
 * failed write changes nothing. Changes are serialised on one daemon thread, {@value #THREAD_NAME}, which also
 * runs the listeners (the sync must never run on a network event loop): the change methods return at once and
 * complete there. A refused change (Kafka's checks, {@link SecurityMetadata}) fails its future with a
 * MetadataException and changes nothing. Reads are a volatile snapshot. Opening refuses a corrupt or cut-short file
 * (IllegalStateException naming it) rather than starting without the ACLs it held.
 */
public final class LocalSecurityMetadataStore implements SecurityMetadataStore {
    private static final System.Logger LOG = System.getLogger(LocalSecurityMetadataStore.class.getName());

    static final String THREAD_NAME = "odradek-security-metadata";

    private final SecurityMetadataFile file;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, THREAD_NAME);
        t.setDaemon(true);
        return t;
    });
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile SecurityMetadata current;

    public LocalSecurityMetadataStore(Path metadataDir) {
        this.file = new SecurityMetadataFile(metadataDir.resolve(SecurityMetadataFile.FILE_NAME));
        this.current = file.load();
        if (!current.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, current.acls().size() + " ACL(s) and the SCRAM credentials of "
                    + current.scram().size() + " user(s) from " + file.file());
        }
    }

    /** Everything stored now. */
    public SecurityMetadata snapshot() {
        return current;
    }

    @Override
    public List<AclBinding> acls() {
        return current.acls();
    }

    @Override
    public CompletableFuture<Void> createAcls(List<AclBinding> acls) {
        return commit(now -> new Step<Void>(now.withAcls(acls), null));
    }

    @Override
    public CompletableFuture<List<List<AclBinding>>> deleteAcls(List<AclBindingFilter> filters) {
        return commit(now -> {
            SecurityMetadata.Deletion deletion = now.withoutMatching(filters);
            return new Step<>(deletion.next(), deletion.removed());
        });
    }

    @Override
    public Map<String, Map<ScramMechanism, ScramCredential>> scramCredentials() {
        return current.scram();
    }

    @Override
    public CompletableFuture<Void> alterScramCredentials(List<ScramChange> changes) {
        return commit(now -> new Step<Void>(now.withScramChanges(changes), null));
    }

    @Override
    public void addListener(Runnable onChange) {
        listeners.add(onChange);
    }

    private record Step<T>(SecurityMetadata next, T answer) {
    }

    /** Computes the change from the state current on the writer thread, so concurrent changes never interleave. */
    private <T> CompletableFuture<T> commit(Function<SecurityMetadata, Step<T>> change) {
        return CompletableFuture.supplyAsync(() -> {
            Step<T> step = change.apply(current);
            if (!step.next().equals(current)) {
                file.save(step.next());
                current = step.next();
                listeners.forEach(Runnable::run);
            }
            return step.answer();
        }, writer);
    }
}
