package io.odradek.replication.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The single-node store (no {@code process.roles}): {@link DynamicConfigs} in a {@link DynamicConfigFile} in the
 * {@code __cluster_metadata} dir beside the topic catalog. A change is written (and synced) before it becomes
 * visible, so what a client was told is stored survives a crash; a failed write changes nothing. Changes are
 * serialised; reads are a volatile snapshot.
 */
public final class LocalDynamicConfigStore implements DynamicConfigStore {
    private static final System.Logger LOG = System.getLogger(LocalDynamicConfigStore.class.getName());

    private final DynamicConfigFile file;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile DynamicConfigs current;

    public LocalDynamicConfigStore(Path metadataDir) {
        this.file = new DynamicConfigFile(metadataDir.resolve(DynamicConfigFile.FILE_NAME));
        this.current = file.load();
        if (!current.brokers().isEmpty() || !current.quotas().isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "dynamic configs from " + file.file() + ": brokers "
                    + current.brokers().keySet() + ", " + current.quotas().size() + " quota entit(ies)");
        }
    }

    /** Everything stored now. */
    public DynamicConfigs snapshot() {
        return current;
    }

    @Override
    public Map<String, String> brokerConfigs(String broker) {
        return current.broker(broker);
    }

    @Override
    public CompletableFuture<Void> alterBrokerConfigs(String broker, Map<String, String> changes) {
        return commit(() -> current.withBrokerChanges(broker, changes));
    }

    @Override
    public Map<QuotaEntity, Map<String, Double>> quotas() {
        return current.quotas();
    }

    @Override
    public CompletableFuture<Void> alterQuotas(Map<QuotaEntity, Map<String, Double>> changes) {
        return commit(() -> current.withQuotaChanges(changes));
    }

    @Override
    public void addListener(Runnable onChange) {
        listeners.add(onChange);
    }

    private CompletableFuture<Void> commit(java.util.function.Supplier<DynamicConfigs> change) {
        try {
            synchronized (this) {
                DynamicConfigs next = change.get();
                if (next.equals(current)) {
                    return CompletableFuture.completedFuture(null);
                }
                file.save(next);
                current = next;
            }
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        listeners.forEach(Runnable::run);
        return CompletableFuture.completedFuture(null);
    }
}
