package io.odradek.replication.config;

import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerCommand.AlterDynamicConfigs;
import io.odradek.replication.cluster.ControllerCommand.AlterGroupConfigs;
import io.odradek.replication.cluster.ItemResult;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongFunction;

/**
 * The cluster-mode store: the dynamic configs are a section of the metadata image; a change is an
 * {@link AlterDynamicConfigs} command to the controller quorum that completes once this broker has applied its
 * offset ({@code awaitApplied}), so the caller reads its change back at once. Reads are the section of the last
 * image this broker applied ({@link #apply}, called in image order); listeners run when the section changes.
 * A refusal by the controller fails the future with a {@link MetadataException}.
 */
public final class ImageDynamicConfigStore implements DynamicConfigStore {
    private final ControllerChannel channel;
    private final LongFunction<CompletableFuture<?>> awaitApplied;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile DynamicConfigs current = DynamicConfigs.EMPTY;

    public ImageDynamicConfigStore(ControllerChannel channel, LongFunction<CompletableFuture<?>> awaitApplied) {
        this.channel = channel;
        this.awaitApplied = awaitApplied;
    }

    /** Takes the image's dynamic configs; runs the listeners when they differ from the last ones. */
    public void apply(ClusterImage image) {
        DynamicConfigs next = image.dynamicConfigs();
        if (next.equals(current)) {
            return;
        }
        current = next;
        listeners.forEach(Runnable::run);
    }

    @Override
    public Map<String, String> brokerConfigs(String broker) {
        return current.broker(broker);
    }

    @Override
    public CompletableFuture<Void> alterBrokerConfigs(String broker, Map<String, String> changes) {
        return submit(new AlterDynamicConfigs(Map.of(broker, changes), Map.of()));
    }

    @Override
    public Map<QuotaEntity, Map<String, Double>> quotas() {
        return current.quotas();
    }

    @Override
    public CompletableFuture<Void> alterQuotas(Map<QuotaEntity, Map<String, Double>> changes) {
        return submit(new AlterDynamicConfigs(Map.of(), changes));
    }

    @Override
    public Map<String, String> groupConfigs(String groupId) {
        return current.group(groupId);
    }

    @Override
    public Map<String, Map<String, String>> groupConfigs() {
        return current.groups();
    }

    @Override
    public CompletableFuture<Void> alterGroupConfigs(String groupId, Map<String, String> changes) {
        return submit(new AlterGroupConfigs(groupId, changes));
    }

    @Override
    public void addListener(Runnable onChange) {
        listeners.add(onChange);
    }

    private CompletableFuture<Void> submit(ControllerCommand command) {
        return channel.submit(command).thenCompose(result -> {
            check(result);
            return awaitApplied.apply(result.offset());
        }).thenApply(applied -> null);
    }

    private static void check(CommandResult result) {
        if (result.error() != ErrorCode.NONE) {
            throw new MetadataException(result.error(), result.message());
        }
        for (ItemResult item : result.items()) {
            if (item.error() != ErrorCode.NONE) {
                throw new MetadataException(item.error(), item.message());
            }
        }
    }
}
