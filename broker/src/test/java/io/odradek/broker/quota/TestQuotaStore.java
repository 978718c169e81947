package io.odradek.broker.quota;

import io.odradek.replication.config.DynamicConfigStore;
import io.odradek.replication.config.InMemoryDynamicConfigStore;
import io.odradek.replication.config.QuotaEntity;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** The in-memory store, counting quota writes and able to fail the next one (as a lost controller would). */
public final class TestQuotaStore implements DynamicConfigStore {
    private final InMemoryDynamicConfigStore store = new InMemoryDynamicConfigStore();
    /** Set to make the next quota write fail with it. */
    public volatile RuntimeException failNext;
    public volatile int alterCalls;
    /** The thread the last quota write was asked on. */
    public volatile String lastAlterThread;

    @Override
    public Map<String, String> brokerConfigs(String broker) {
        return store.brokerConfigs(broker);
    }

    @Override
    public CompletableFuture<Void> alterBrokerConfigs(String broker, Map<String, String> changes) {
        return store.alterBrokerConfigs(broker, changes);
    }

    @Override
    public Map<QuotaEntity, Map<String, Double>> quotas() {
        return store.quotas();
    }

    @Override
    public synchronized CompletableFuture<Void> alterQuotas(Map<QuotaEntity, Map<String, Double>> changes) {
        alterCalls++;
        lastAlterThread = Thread.currentThread().getName();
        RuntimeException fail = failNext;
        if (fail != null) {
            failNext = null;
            return CompletableFuture.failedFuture(fail);
        }
        return store.alterQuotas(changes);
    }

    @Override
    public void addListener(Runnable onChange) {
        store.addListener(onChange);
    }
}
