package io.odradek.replication.config;

import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The dynamic configuration as data (immutable): broker configs per broker entity (a node id as text, or ""
 * for the cluster-wide default), client quotas per entity and (issue 12) group configs per group id (what
 * IncrementalAlterConfigs sets on a GROUP resource). What both {@link DynamicConfigStore}s hold: the
 * single-node file and the cluster image's section. Entities without any key are dropped, and everything is
 * kept in a stable order, so equal contents give equal bytes.
 */
public record DynamicConfigs(Map<String, Map<String, String>> brokers,
        Map<QuotaEntity, Map<String, Double>> quotas, Map<String, Map<String, String>> groups) {
    /** Quota entities by their parts (type, then name; the default entity, a null name, first). */
    public static final Comparator<QuotaEntity> ENTITY_ORDER = (a, b) -> {
        Comparator<String> names = Comparator.nullsFirst(Comparator.naturalOrder());
        Iterator<Map.Entry<String, String>> i = a.parts().entrySet().iterator();
        Iterator<Map.Entry<String, String>> j = b.parts().entrySet().iterator();
        while (i.hasNext() && j.hasNext()) {
            Map.Entry<String, String> x = i.next();
            Map.Entry<String, String> y = j.next();
            int c = x.getKey().compareTo(y.getKey());
            if (c == 0) {
                c = names.compare(x.getValue(), y.getValue());
            }
            if (c != 0) {
                return c;
            }
        }
        return Boolean.compare(i.hasNext(), j.hasNext());
    };

    public static final DynamicConfigs EMPTY = new DynamicConfigs(Map.of(), Map.of(), Map.of());

    /** Broker configs and quotas, no group configs (as stored before issue 12). */
    public DynamicConfigs(Map<String, Map<String, String>> brokers, Map<QuotaEntity, Map<String, Double>> quotas) {
        this(brokers, quotas, Map.of());
    }

    public DynamicConfigs {
        brokers = sortedNonEmpty(brokers);
        groups = sortedNonEmpty(groups);
        SortedMap<QuotaEntity, Map<String, Double>> q = new TreeMap<>(ENTITY_ORDER);
        quotas.forEach((entity, values) -> {
            if (!values.isEmpty()) {
                q.put(entity, Collections.unmodifiableSortedMap(new TreeMap<>(values)));
            }
        });
        quotas = Collections.unmodifiableSortedMap(q);
    }

    private static Map<String, Map<String, String>> sortedNonEmpty(Map<String, Map<String, String>> entities) {
        SortedMap<String, Map<String, String>> sorted = new TreeMap<>();
        entities.forEach((name, configs) -> {
            if (!configs.isEmpty()) {
                sorted.put(name, Collections.unmodifiableSortedMap(new TreeMap<>(configs)));
            }
        });
        return Collections.unmodifiableSortedMap(sorted);
    }

    /** The configs set for one group; empty if none. */
    public Map<String, String> group(String groupId) {
        Map<String, String> configs = groups.get(groupId);
        return configs == null ? Map.of() : configs;
    }

    /** These contents with {@code changes} applied to one group's configs (null values remove a key). */
    public DynamicConfigs withGroupChanges(String groupId, Map<String, String> changes) {
        Map<String, Map<String, String>> next = new TreeMap<>(groups);
        next.put(groupId, applied(group(groupId), changes));
        return new DynamicConfigs(brokers, quotas, next);
    }

    private static Map<String, String> applied(Map<String, String> current, Map<String, String> changes) {
        TreeMap<String, String> configs = new TreeMap<>(current);
        changes.forEach((k, v) -> {
            if (v == null) {
                configs.remove(k);
            } else {
                configs.put(k, v);
            }
        });
        return configs;
    }

    /** The configs of one broker entity; empty if none. */
    public Map<String, String> broker(String name) {
        Map<String, String> configs = brokers.get(name);
        return configs == null ? Map.of() : configs;
    }

    /** These contents with {@code changes} applied to one broker entity (null values remove a key). */
    public DynamicConfigs withBrokerChanges(String broker, Map<String, String> changes) {
        Map<String, Map<String, String>> next = new TreeMap<>(brokers);
        next.put(broker, applied(broker(broker), changes));
        return new DynamicConfigs(next, quotas, groups);
    }

    /** These contents with quota {@code changes} applied (null values remove a quota). */
    public DynamicConfigs withQuotaChanges(Map<QuotaEntity, Map<String, Double>> changes) {
        Map<QuotaEntity, Map<String, Double>> next = new TreeMap<>(ENTITY_ORDER);
        next.putAll(quotas);
        changes.forEach((entity, values) -> {
            TreeMap<String, Double> current = new TreeMap<>(next.getOrDefault(entity, Map.of()));
            values.forEach((k, v) -> {
                if (v == null) {
                    current.remove(k);
                } else {
                    current.put(k, v);
                }
            });
            next.put(entity, current);
        });
        return new DynamicConfigs(brokers, next, groups);
    }
}
