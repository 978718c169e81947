package io.odradek.replication.config;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A client-quota entity as Kafka names it (ClientQuotaEntity): entity type ({@link #USER}, {@link #CLIENT_ID},
 * {@link #IP}) to entity name, where a null name is that type's default entity ({@code <default>} in
 * kafka-configs). {@code {user=alice, client-id=null}} is "user alice, any client id without its own entry".
 */
public record QuotaEntity(SortedMap<String, String> parts) {
    public static final String USER = "user";
    public static final String CLIENT_ID = "client-id";
    public static final String IP = "ip";

    public QuotaEntity {
        Objects.requireNonNull(parts);
        parts = Collections.unmodifiableSortedMap(new TreeMap<>(parts));
    }

    /** Null values allowed (the default entity of that type). */
    public static QuotaEntity of(Map<String, String> parts) {
        return new QuotaEntity(new TreeMap<>(parts));
    }
}
