package io.odradek.broker.quota;

import io.odradek.replication.config.DynamicConfigStore;
import io.odradek.replication.config.QuotaEntity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link DynamicConfigStore} in memory for tests: changes apply at once; listeners run on the caller. */
public final class InMemoryDynamicConfigStore implements DynamicConfigStore {
    private final Map<String, Map<String, String>> brokers = new HashMap<>();
    private volatile Map<QuotaEntity, Map<String, Double>> quotas = Map.of();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    /** Set to make the next alter fail with it. */
    public volatile RuntimeException failNext;
    public int alterCalls;

    @Override
    public synchronized Map<String, String> brokerConfigs(String broker) {
        return Map.copyOf(brokers.getOrDefault(broker, Map.of()));
    }

    @Override
    public CompletableFuture<Void> alterBrokerConfigs(String broker, Map<String, String> changes) {
        synchronized (this) {
            Map<String, String> m = brokers.computeIfAbsent(broker, b -> new HashMap<>());
            changes.forEach((k, v) -> {
                if (v == null) {
                    m.remove(k);
                } else {
                    m.put(k, v);
                }
            });
        }
        listeners.forEach(Runnable::run);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public Map<QuotaEntity, Map<String, Double>> quotas() {
        return quotas;
    }

    @Override
    public CompletableFuture<Void> alterQuotas(Map<QuotaEntity, Map<String, Double>> changes) {
        synchronized (this) {
            alterCalls++;
            RuntimeException fail = failNext;
            if (fail != null) {
                failNext = null;
                return CompletableFuture.failedFuture(fail);
            }
            Map<QuotaEntity, Map<String, Double>> next = new HashMap<>();
            quotas.forEach((e, v) -> next.put(e, new HashMap<>(v)));
            changes.forEach((entity, values) -> {
                Map<String, Double> m = next.computeIfAbsent(entity, x -> new HashMap<>());
                values.forEach((k, v) -> {
                    if (v == null) {
                        m.remove(k);
                    } else {
                        m.put(k, v);
                    }
                });
                if (m.isEmpty()) {
                    next.remove(entity);
                }
            });
            Map<QuotaEntity, Map<String, Double>> frozen = new HashMap<>();
            next.forEach((e, v) -> frozen.put(e, Map.copyOf(v)));
            quotas = Map.copyOf(frozen);
        }
        listeners.forEach(Runnable::run);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void addListener(Runnable onChange) {
        listeners.add(onChange);
    }
}
