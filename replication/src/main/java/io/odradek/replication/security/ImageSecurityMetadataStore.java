package io.odradek.replication.security;

import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerCommand.AlterScramCredentials;
import io.odradek.replication.cluster.ControllerCommand.CreateAcls;
import io.odradek.replication.cluster.ControllerCommand.DeleteAcls;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramMechanism;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongFunction;

/**
 * The cluster-mode store: ACLs and SCRAM credentials are the security section of the metadata image; a change is a
 * {@link CreateAcls} / {@link DeleteAcls} / {@link AlterScramCredentials} command to the controller quorum that
 * completes once this broker has applied its offset ({@code awaitApplied}), so the caller reads its change back at
 * once. DeleteAcls' filters are evaluated by the controller against the image the command applies to, and the
 * removed ACLs per filter come back in the command's result. Reads are the section of the last image this broker
 * applied ({@link #apply}, called in image order); listeners run when the section changes. A refusal by the
 * controller fails the future with a {@link MetadataException}.
 */
public final class ImageSecurityMetadataStore implements SecurityMetadataStore {
    private final ControllerChannel channel;
    private final LongFunction<CompletableFuture<?>> awaitApplied;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile SecurityMetadata current = SecurityMetadata.EMPTY;

    public ImageSecurityMetadataStore(ControllerChannel channel, LongFunction<CompletableFuture<?>> awaitApplied) {
        this.channel = channel;
        this.awaitApplied = awaitApplied;
    }

    /** Takes the image's security section; runs the listeners when it differs from the last one. */
    public void apply(ClusterImage image) {
        SecurityMetadata next = image.security();
        if (next.equals(current)) {
            return;
        }
        current = next;
        listeners.forEach(Runnable::run);
    }

    @Override
    public List<AclBinding> acls() {
        return current.acls();
    }

    @Override
    public CompletableFuture<Void> createAcls(List<AclBinding> acls) {
        return submit(new CreateAcls(acls)).thenApply(result -> null);
    }

    @Override
    public CompletableFuture<List<List<AclBinding>>> deleteAcls(List<AclBindingFilter> filters) {
        return submit(new DeleteAcls(filters)).thenApply(CommandResult::deletedAcls);
    }

    @Override
    public Map<String, Map<ScramMechanism, ScramCredential>> scramCredentials() {
        return current.scram();
    }

    @Override
    public CompletableFuture<Void> alterScramCredentials(List<ScramChange> changes) {
        return submit(new AlterScramCredentials(changes)).thenApply(result -> null);
    }

    @Override
    public void addListener(Runnable onChange) {
        listeners.add(onChange);
    }

    private CompletableFuture<CommandResult> submit(ControllerCommand command) {
        return channel.submit(command).thenCompose(result -> {
            if (result.error() != ErrorCode.NONE) {
                throw new MetadataException(result.error(), result.message());
            }
            return awaitApplied.apply(result.offset()).thenApply(applied -> result);
        });
    }
}
