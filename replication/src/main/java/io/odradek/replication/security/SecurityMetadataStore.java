package io.odradek.replication.security;

import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramMechanism;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The cluster's security metadata: ACLs (what CreateAcls / DeleteAcls change) and SCRAM credentials (what
 * AlterUserScramCredentials changes). Single node: a synced file beside the topic catalog; cluster mode:
 * commands through the controller quorum, read from the applied metadata image. Reads are lock-free snapshots;
 * a change is visible to readers here when its future completes.
 */
public interface SecurityMetadataStore {
    /** Every ACL, in creation order. */
    List<AclBinding> acls();

    /** Adds ACLs (an ACL already present stays once); completes when durable (file synced / committed). */
    CompletableFuture<Void> createAcls(List<AclBinding> acls);

    /**
     * Removes every ACL any of {@code filters} matches, atomically; completes with, per filter in order, the
     * ACLs it matched and removed (an ACL matched by two filters is listed under both, as Kafka does).
     */
    CompletableFuture<List<List<AclBinding>>> deleteAcls(List<AclBindingFilter> filters);

    /** user -> mechanism -> credential, for every user with a credential. */
    Map<String, Map<ScramMechanism, ScramCredential>> scramCredentials();

    /** One change of {@link #alterScramCredentials}: a credential to set, or null to delete it. */
    record ScramChange(String user, ScramMechanism mechanism, ScramCredential credential) {
    }

    /** Applies the changes, all or nothing; completes when durable and visible here. */
    CompletableFuture<Void> alterScramCredentials(List<ScramChange> changes);

    /** Runs (on any thread, after the change is visible) whenever ACLs or SCRAM credentials change. */
    void addListener(Runnable onChange);
}
