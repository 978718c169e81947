package io.odradek.broker.quota;

import io.odradek.replication.config.DynamicConfigStore;
import io.odradek.replication.config.QuotaEntity;
import java.util.EnumMap;
import java.util.Map;

/**
 * The broker's client quota managers, one per {@link QuotaKind}, following the quotas in the
 * {@link DynamicConfigStore}: a change there (AlterClientQuotas, {@code kafka-configs --alter}) applies to
 * the next request. Until issue 10 adds authentication every client is the user {@link #ANONYMOUS}.
 * {@code controller_mutation_rate} is stored and described but not enforced; {@code ip} entities'
 * {@code connection_creation_rate} likewise.
 */
public final class ClientQuotas {
    /** Kafka's principal name for an unauthenticated client. */
    public static final String ANONYMOUS = "ANONYMOUS";

    private final QuotaWindows windows;
    private final Map<QuotaKind, ClientQuotaManager> managers = new EnumMap<>(QuotaKind.class);
    /** quotafix: whether any kind is configured, so the request path without quotas costs one volatile read. */
    private volatile boolean any;

    public ClientQuotas(QuotaWindows windows) {
        this.windows = windows;
        for (QuotaKind kind : QuotaKind.values()) {
            managers.put(kind, new ClientQuotaManager(kind, windows));
        }
    }

    /** Quotas that follow a store: read now and again on every change it reports. */
    public static ClientQuotas following(DynamicConfigStore store, QuotaWindows windows) {
        ClientQuotas quotas = new ClientQuotas(windows);
        store.addListener(() -> quotas.reload(store));
        quotas.reload(store);
        return quotas;
    }

    /**
     * Applies the store's quotas as they are now. Read under the lock: two listeners running at once (two
     * changes made on different threads) apply one after the other, each reading what is then the newest
     * state, so an older read can never be applied after a newer one.
     */
    private synchronized void reload(DynamicConfigStore store) {
        update(store.quotas());
    }

    public QuotaWindows windows() {
        return windows;
    }

    /** Replaces every configured quota (entity -> key -> value). */
    public synchronized void update(Map<QuotaEntity, Map<String, Double>> quotas) {
        boolean configured = false;
        for (ClientQuotaManager m : managers.values()) {
            m.update(quotas);
            configured |= m.enabled();
        }
        any = configured;
    }

    /** Whether any enforced quota is configured (false by default: then nothing on the request path is measured). */
    public boolean any() {
        return any;
    }

    ClientQuotaManager manager(QuotaKind kind) {
        return managers.get(kind);
    }

    /** Whether any quota of this kind is configured. */
    public boolean enabled(QuotaKind kind) {
        return managers.get(kind).enabled();
    }

    /** Records a value for a client and returns its throttle time in ms (0: within its quota or none). */
    public int recordAndGetThrottleMs(QuotaKind kind, String user, String clientId, double value, long nowMs) {
        ClientQuotaManager m = managers.get(kind);
        if (!m.enabled()) {
            return 0;
        }
        int throttleMs = m.recordAndGetThrottleMs(user, clientId, value, nowMs);
        for (ClientQuotaManager each : managers.values()) {
            each.sweep(nowMs); // at most once a minute each: rates of a kind nobody records any more expire too
        }
        return throttleMs;
    }

    /** Takes back a recorded value whose response was not sent (a throttled fetch answered empty). */
    public void unrecord(QuotaKind kind, String user, String clientId, double value, long nowMs) {
        ClientQuotaManager m = managers.get(kind);
        if (m.enabled()) {
            m.unrecord(user, clientId, value, nowMs);
        }
    }

    /** The most a single value may be without being throttled for certain (bounds a consumer's fetch). */
    public double maxValueInQuotaWindow(QuotaKind kind, String user, String clientId) {
        return managers.get(kind).maxValueInQuotaWindow(user, clientId);
    }

    /** The quota that applies to a client, or {@link Double#MAX_VALUE} when none does. */
    public double quotaLimit(QuotaKind kind, String user, String clientId) {
        return managers.get(kind).quotaLimit(user, clientId);
    }
}
