package io.odradek.replication.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The single-node store (no {@code process.roles}): {@link DynamicConfigs} in a {@link DynamicConfigFile} in the
 * {@code __cluster_metadata} dir beside the topic catalog. A change is written (and synced) before it becomes
 * visible, so what a client was told is stored survives a crash; a failed write changes nothing. Changes are
 * serialised on one daemon thread, {@value #THREAD_NAME}, which also runs the listeners: the write syncs the
 * file and its directory, which must never happen on a network event loop, so the alter methods return at once
 * and complete on that thread once the change is written and the listeners have run. Reads are a volatile
 * snapshot.
 */
public final class LocalDynamicConfigStore implements DynamicConfigStore {
    private static final System.Logger LOG = System.getLogger(LocalDynamicConfigStore.class.getName());

    static final String THREAD_NAME = "odradek-dynamic-configs";

    private final DynamicConfigFile file;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, THREAD_NAME);
        t.setDaemon(true);
        return t;
    });
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile DynamicConfigs current;

    public LocalDynamicConfigStore(Path metadataDir) {
        this.file = new DynamicConfigFile(metadataDir.resolve(DynamicConfigFile.FILE_NAME));
        this.current = file.load();
        if (!current.brokers().isEmpty() || !current.quotas().isEmpty() || !current.groups().isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "dynamic configs from " + file.file() + ": brokers "
                    + current.brokers().keySet() + ", " + current.quotas().size() + " quota entit(ies), "
                    + current.groups().size() + " group(s)");
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
    public Map<String, String> groupConfigs(String groupId) {
        return current.group(groupId);
    }

    @Override
    public Map<String, Map<String, String>> groupConfigs() {
        return current.groups();
    }

    @Override
    public CompletableFuture<Void> alterGroupConfigs(String groupId, Map<String, String> changes) {
        return commit(() -> current.withGroupChanges(groupId, changes));
    }

    @Override
    public void addListener(Runnable onChange) {
        listeners.add(onChange);
    }

    private CompletableFuture<Void> commit(Supplier<DynamicConfigs> change) {
        return CompletableFuture.runAsync(() -> {
            DynamicConfigs next = change.get();
            if (next.equals(current)) {
                return;
            }
            file.save(next);
            current = next;
            listeners.forEach(Runnable::run);
        }, writer);
    }
}
