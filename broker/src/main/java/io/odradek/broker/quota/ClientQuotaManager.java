package io.odradek.broker.quota;

import io.odradek.replication.config.QuotaEntity;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One kind of client quota, enforced as Kafka's ClientQuotaManager with its default quota callback: a
 * client (user principal, client id) is measured on a rate shared by everyone with the same "quota tags"
 * (only the client id when only client-id quotas exist, only the user when only user quotas do, both when
 * both levels or user+client-id quotas are configured: see {@link #tags}); its limit is the most specific
 * configured quota, in Kafka's precedence order:
 * <ol>
 * <li>{@code /config/users/<user>/clients/<client-id>}</li>
 * <li>{@code /config/users/<user>/clients/<default>}</li>
 * <li>{@code /config/users/<user>}</li>
 * <li>{@code /config/users/<default>/clients/<client-id>}</li>
 * <li>{@code /config/users/<default>/clients/<default>}</li>
 * <li>{@code /config/users/<default>}</li>
 * <li>{@code /config/clients/<client-id>}</li>
 * <li>{@code /config/clients/<default>}</li>
 * </ol>
 * Nothing is measured while no quota of this kind exists. A value recorded over the limit gives the time
 * it takes the rate to come back to it (Kafka's throttle time). Rates nobody used for an hour are dropped,
 * and every rate when the last quota of this kind is removed. A request without a client id (a null string
 * in its header) is measured as client id "", as Kafka does: no client-id quota applies to it.
 * Thread-safe: quota changes swap an immutable snapshot; rates lock themselves.
 */
final class ClientQuotaManager {
    private static final long INACTIVE_RATE_EXPIRY_MS = TimeUnit.HOURS.toMillis(1);
    private static final long SWEEP_INTERVAL_MS = TimeUnit.MINUTES.toMillis(1);

    private static final int NO_QUOTAS = 0;
    private static final int CLIENT_ID_QUOTAS = 1;
    private static final int USER_QUOTAS = 2;
    private static final int USER_CLIENT_ID_QUOTAS = 4;

    /** The rate a client is measured on: "" leaves a part out, as Kafka's metric tags do. */
    record Tags(String user, String clientId) {
    }

    private record Client(String user, String clientId) {
    }

    /** A client's rate and quota as worked out from {@code snapshot}. */
    private record Resolved(Snapshot snapshot, Tags tags, double limit) {
    }

    /** The configured quotas of this kind (user / client-id entities only) and which levels they use. */
    private record Snapshot(Map<QuotaEntity, Double> quotas, int levels) {
    }

    private final QuotaKind kind;
    private final QuotaWindows windows;
    private volatile Snapshot snapshot = new Snapshot(Map.of(), NO_QUOTAS);
    private final Map<Client, Resolved> resolved = new ConcurrentHashMap<>();
    private final Map<Tags, SampledRate> rates = new ConcurrentHashMap<>();
    private volatile long lastSweepMs;

    ClientQuotaManager(QuotaKind kind, QuotaWindows windows) {
        this.kind = kind;
        this.windows = windows;
    }

    QuotaKind kind() {
        return kind;
    }

    /** Replaces the configured quotas: every entity's value for this kind's key. Applies at once. */
    void update(Map<QuotaEntity, Map<String, Double>> all) {
        Map<QuotaEntity, Double> mine = new HashMap<>();
        int levels = NO_QUOTAS;
        for (Map.Entry<QuotaEntity, Map<String, Double>> e : all.entrySet()) {
            Double value = e.getValue().get(kind.configKey());
            Map<String, String> parts = e.getKey().parts();
            boolean user = parts.containsKey(QuotaEntity.USER);
            boolean client = parts.containsKey(QuotaEntity.CLIENT_ID);
            if (value == null || parts.containsKey(QuotaEntity.IP) || (!user && !client)) {
                continue;
            }
            mine.put(e.getKey(), value);
            levels |= user && client ? USER_CLIENT_ID_QUOTAS : user ? USER_QUOTAS : CLIENT_ID_QUOTAS;
        }
        snapshot = new Snapshot(Map.copyOf(mine), levels);
        resolved.clear();
        if (levels == NO_QUOTAS) {
            // Nothing is measured, nor swept, without a quota: rates kept now would stay for good (a client
            // that sprayed client ids while a quota existed would leave one per id). A quota set later
            // starts every client afresh.
            rates.clear();
        }
    }

    /** Whether any quota of this kind is configured (Kafka records nothing otherwise). */
    boolean enabled() {
        return snapshot.levels != NO_QUOTAS;
    }

    /**
     * Records {@code value} for the client and returns how long it must be throttled: 0 within its quota,
     * else the time for its rate to come back to the quota (request quotas: at most one window, as Kafka).
     */
    int recordAndGetThrottleMs(String user, String clientId, double value, long nowMs) {
        Resolved r = resolve(user, clientId);
        SampledRate rate = rates.computeIfAbsent(r.tags, t -> new SampledRate(windows));
        rate.record(value, nowMs);
        double measured = rate.measure(nowMs);
        if (measured <= r.limit) {
            return 0;
        }
        long throttle = Math.round((measured - r.limit) / r.limit * rate.windowSizeMs(nowMs));
        if (kind == QuotaKind.REQUEST) {
            throttle = Math.min(throttle, windows.windowMs());
        }
        return (int) Math.min(throttle, Integer.MAX_VALUE);
    }

    /** Takes back a value recorded for a response that was not sent after all (a throttled fetch). */
    void unrecord(String user, String clientId, double value, long nowMs) {
        SampledRate rate = rates.get(resolve(user, clientId).tags);
        if (rate != null) {
            rate.record(-value, nowMs);
        }
    }

    /**
     * The most that can be recorded at once without certain throttling, as Kafka bounds a consumer's fetch:
     * the client's quota over the shortest span a rate is measured over (one window here; see
     * {@link SampledRate}); unbounded without a quota.
     */
    double maxValueInQuotaWindow(String user, String clientId) {
        if (!enabled()) {
            return Double.MAX_VALUE;
        }
        double limit = resolve(user, clientId).limit;
        return limit == Double.MAX_VALUE ? Double.MAX_VALUE : limit * windows.windowSeconds();
    }

    /** The quota that applies to this client, or {@link Double#MAX_VALUE} when none does. */
    double quotaLimit(String user, String clientId) {
        return resolve(user, clientId).limit;
    }

    /** How many rates are kept (for tests and metrics). */
    int rateCount() {
        return rates.size();
    }

    /** The rate this client shares (for tests and metrics). */
    Tags tagsOf(String user, String clientId) {
        return resolve(user, clientId).tags;
    }

    private Resolved resolve(String user, String clientId) {
        // A request header's client id is a nullable string; Kafka's quotas measure a missing one as "".
        if (clientId == null) {
            clientId = "";
        }
        if (user == null) {
            user = "";
        }
        Client client = new Client(user, clientId);
        Snapshot s = snapshot;
        Resolved r = resolved.get(client);
        // What another thread cached is used only if worked out from the quotas in force now: a lookup that
        // raced a change may cache an answer from the quotas before it, even after update() cleared the cache.
        if (r == null || r.snapshot != s) {
            Tags tags = tags(s, user, clientId);
            Double limit = limit(s, tags);
            r = new Resolved(s, tags, limit == null ? Double.MAX_VALUE : limit);
            resolved.put(client, r);
        }
        return r;
    }

    /** Kafka's DefaultQuotaCallback.quotaMetricTags. */
    private static Tags tags(Snapshot s, String user, String clientId) {
        switch (s.levels) {
            case NO_QUOTAS, CLIENT_ID_QUOTAS:
                return new Tags("", clientId);
            case USER_QUOTAS:
                return new Tags(user, "");
            case USER_CLIENT_ID_QUOTAS:
                return new Tags(user, clientId);
            default:
                // Several levels: the first configured entity in precedence order decides what is shared.
                Map<QuotaEntity, Double> q = s.quotas;
                if (q.containsKey(entity(user, clientId)) || q.containsKey(entity(user, null))) {
                    return new Tags(user, clientId);
                }
                if (q.containsKey(userOnly(user))) {
                    return new Tags(user, "");
                }
                if (q.containsKey(entity(null, clientId)) || q.containsKey(entity(null, null))) {
                    return new Tags(user, clientId);
                }
                if (q.containsKey(userOnly(null))) {
                    return new Tags(user, "");
                }
                return new Tags("", clientId);
        }
    }

    /** Kafka's DefaultQuotaCallback.quotaLimit: the most specific quota for the rate's tags, or null. */
    private static Double limit(Snapshot s, Tags tags) {
        Map<QuotaEntity, Double> q = s.quotas;
        if (!tags.user.isEmpty() && !tags.clientId.isEmpty()) {
            return first(q, entity(tags.user, tags.clientId), entity(tags.user, null),
                    entity(null, tags.clientId), entity(null, null));
        }
        if (!tags.user.isEmpty()) {
            return first(q, userOnly(tags.user), userOnly(null));
        }
        if (!tags.clientId.isEmpty()) {
            return first(q, clientOnly(tags.clientId), clientOnly(null));
        }
        return null;
    }

    private static Double first(Map<QuotaEntity, Double> quotas, QuotaEntity... inOrder) {
        for (QuotaEntity e : inOrder) {
            Double v = quotas.get(e);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /** {user, client-id} with null names for the defaults. */
    private static QuotaEntity entity(String user, String clientId) {
        TreeMap<String, String> parts = new TreeMap<>();
        parts.put(QuotaEntity.USER, user);
        parts.put(QuotaEntity.CLIENT_ID, clientId);
        return new QuotaEntity(parts);
    }

    private static QuotaEntity userOnly(String user) {
        TreeMap<String, String> parts = new TreeMap<>();
        parts.put(QuotaEntity.USER, user);
        return new QuotaEntity(parts);
    }

    private static QuotaEntity clientOnly(String clientId) {
        TreeMap<String, String> parts = new TreeMap<>();
        parts.put(QuotaEntity.CLIENT_ID, clientId);
        return new QuotaEntity(parts);
    }

    /**
     * Drops rates unused for an hour (Kafka expires its quota sensors the same way), once a minute at most.
     * Called on every value recorded of any kind ({@link ClientQuotas}), so a rate expires even if nothing
     * is recorded of its own kind any more.
     */
    void sweep(long nowMs) {
        if (nowMs - lastSweepMs < SWEEP_INTERVAL_MS) {
            return;
        }
        lastSweepMs = nowMs;
        rates.values().removeIf(rate -> nowMs - rate.lastEventMs() > INACTIVE_RATE_EXPIRY_MS);
        resolved.clear();
    }
}
