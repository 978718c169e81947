package io.odradek.replication.config;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A store kept only in memory: for tests, and for a broker view that has no dynamic configs (every read empty
 * until something is altered). Changes apply at once; listeners run after each.
 */
public final class InMemoryDynamicConfigStore implements DynamicConfigStore {
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile DynamicConfigs current = DynamicConfigs.EMPTY;

    public DynamicConfigs snapshot() {
        return current;
    }

    @Override
    public Map<String, String> brokerConfigs(String broker) {
        return current.broker(broker);
    }

    @Override
    public CompletableFuture<Void> alterBrokerConfigs(String broker, Map<String, String> changes) {
        synchronized (this) {
            current = current.withBrokerChanges(broker, changes);
        }
        listeners.forEach(Runnable::run);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public Map<QuotaEntity, Map<String, Double>> quotas() {
        return current.quotas();
    }

    @Override
    public CompletableFuture<Void> alterQuotas(Map<QuotaEntity, Map<String, Double>> changes) {
        synchronized (this) {
            current = current.withQuotaChanges(changes);
        }
        listeners.forEach(Runnable::run);
        return CompletableFuture.completedFuture(null);
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
        synchronized (this) {
            current = current.withGroupChanges(groupId, changes);
        }
        listeners.forEach(Runnable::run);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void addListener(Runnable onChange) {
        listeners.add(onChange);
    }
}
