package io.odradek.replication.metadata;

import io.odradek.wire.ErrorCode;
import java.util.Set;

/**
 * Kafka's topic name rules: 1..249 characters of {@code [a-zA-Z0-9._-]}, not "." or "..". Because '.'
 * and '_' both become '_' in metric names, two topics differing only there "collide", and Kafka refuses
 * to create the second one.
 */
public final class TopicNames {
    public static final int MAX_LENGTH = 249;

    /** Kafka's internal topics: offsets, transactions and share-group state. */
    private static final Set<String> INTERNAL = Set.of("__consumer_offsets", "__transaction_state",
            "__share_group_state");

    private TopicNames() {
    }

    /** Throws INVALID_TOPIC_EXCEPTION with Kafka's message when the name breaks a rule. */
    public static void validate(String name) {
        if (name == null || name.isEmpty()) {
            throw invalid("Topic name is illegal, it can't be empty");
        }
        if (name.equals(".") || name.equals("..")) {
            throw invalid("Topic name cannot be \".\" or \"..\"");
        }
        if (name.length() > MAX_LENGTH) {
            throw invalid("Topic name is illegal, it can't be longer than " + MAX_LENGTH
                    + " characters, topic name: " + name);
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!ok) {
                throw invalid("Topic name \"" + name + "\" is illegal, it contains a character other than "
                        + "ASCII alphanumerics, '.', '_' and '-'");
            }
        }
    }

    public static boolean isValid(String name) {
        try {
            validate(name);
            return true;
        } catch (MetadataException e) {
            return false;
        }
    }

    public static boolean isInternal(String name) {
        return INTERNAL.contains(name);
    }

    /** Kafka's KRaft metadata topic; Odradek keeps its catalog in a log-dir directory of this name. */
    public static final String CLUSTER_METADATA = "__cluster_metadata";

    /**
     * Names only the broker may create: the internal topics (their partitions carry coordinator state the
     * broker must create with its own layout and configs) and the metadata topic.
     */
    public static boolean isReservedForBroker(String name) {
        return INTERNAL.contains(name) || CLUSTER_METADATA.equals(name);
    }

    public static boolean hasCollisionChars(String name) {
        return name.indexOf('.') >= 0 || name.indexOf('_') >= 0;
    }

    /** The name with '.' replaced by '_': two names collide when these are equal. */
    public static String unifyCollisionChars(String name) {
        return name.replace('.', '_');
    }

    private static MetadataException invalid(String message) {
        return new MetadataException(ErrorCode.INVALID_TOPIC_EXCEPTION, message);
    }
}
