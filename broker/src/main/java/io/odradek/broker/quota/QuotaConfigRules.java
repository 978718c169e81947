package io.odradek.broker.quota;

import io.odradek.replication.config.QuotaEntity;
import io.odradek.wire.ErrorCode;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

/**
 * What AlterClientQuotas accepts, with Kafka 4.4's errors and messages (its controller's
 * ClientQuotaControlManager): entity types {@code user}, {@code client-id}, {@code ip}; user and client-id
 * alone or together, ip alone; the keys each allows and their types (byte rates are longs, percentages and
 * mutation rates doubles, connection rates ints); values finite and above zero.
 */
public final class QuotaConfigRules {
    /** A rejected entity or value: always INVALID_REQUEST except a key of a type Kafka cannot check. */
    public record Rejection(ErrorCode error, String message) {
        static Rejection invalid(String message) {
            return new Rejection(ErrorCode.INVALID_REQUEST, message);
        }
    }

    private enum KeyType { INT, LONG, DOUBLE }

    private static final Map<String, KeyType> USER_AND_CLIENT_KEYS = Map.of(
            "producer_byte_rate", KeyType.LONG,
            "consumer_byte_rate", KeyType.LONG,
            "request_percentage", KeyType.DOUBLE,
            "controller_mutation_rate", KeyType.DOUBLE);
    private static final Map<String, KeyType> IP_KEYS = Map.of("connection_creation_rate", KeyType.INT);

    private QuotaConfigRules() {
    }

    /** Checks an entity's types and names; null when it is acceptable. */
    public static Rejection checkEntity(Map<String, String> entity) {
        if (entity.isEmpty()) {
            return Rejection.invalid("Invalid empty client quota entity");
        }
        for (Map.Entry<String, String> e : entity.entrySet()) {
            String type = e.getKey();
            if (!type.equals(QuotaEntity.USER) && !type.equals(QuotaEntity.CLIENT_ID) && !type.equals(QuotaEntity.IP)) {
                return Rejection.invalid("Unhandled client quota entity type: " + type);
            }
            if (e.getValue() != null && e.getValue().isEmpty()) {
                return Rejection.invalid("Empty " + type + " not supported");
            }
        }
        boolean ip = entity.containsKey(QuotaEntity.IP);
        if (ip && entity.size() > 1) {
            return Rejection.invalid("Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId");
        }
        if (ip && !isValidIp(entity.get(QuotaEntity.IP))) {
            return Rejection.invalid(entity.get(QuotaEntity.IP) + " is not a valid IP or resolvable host.");
        }
        return null;
    }

    /** Checks one key and value for an entity {@link #checkEntity} accepted; null when acceptable. */
    public static Rejection checkValue(Map<String, String> entity, String key, double value) {
        KeyType type = (entity.containsKey(QuotaEntity.IP) ? IP_KEYS : USER_AND_CLIENT_KEYS).get(key);
        if (type == null) {
            return Rejection.invalid("Invalid configuration key " + key);
        }
        if (!Double.isFinite(value)) {
            return Rejection.invalid("Quota " + key + " must be a finite number");
        }
        if (!(value > 0)) {
            return Rejection.invalid("Quota " + key + " must be greater than 0");
        }
        switch (type) {
            case INT:
                if (value > Integer.MAX_VALUE) {
                    return Rejection.invalid("Proposed value for " + key + " is too large for an INT.");
                }
                return integral(key, value);
            case LONG:
                if (value > Long.MAX_VALUE) {
                    return Rejection.invalid("Proposed value for " + key + " is too large for a LONG.");
                }
                return integral(key, value);
            default:
                return null;
        }
    }

    private static Rejection integral(String key, double value) {
        return Math.abs(value % 1) > 1e-6 ? Rejection.invalid(key + " cannot be a fractional value.") : null;
    }

    /** Whether an ip entity name is an address or a name that resolves (may look the name up). */
    public static boolean isValidIp(String name) {
        if (name == null) {
            return true; // the default ip entity
        }
        try {
            InetAddress.getByName(name);
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
