package io.odradek.replication.metadata;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.UUID;

/** Topic and cluster ids the way Kafka makes them ({@code org.apache.kafka.common.Uuid}). */
public final class Ids {
    /** Kafka reserves 0/0 (no id) and 0/1 (the metadata topic). */
    private static final UUID ZERO = new UUID(0, 0);
    private static final UUID METADATA_TOPIC_ID = new UUID(0, 1);

    private Ids() {
    }

    /** A random id that is not reserved and whose string form does not start with '-' (it would read as a flag). */
    public static UUID randomId() {
        while (true) {
            UUID id = UUID.randomUUID();
            if (!id.equals(ZERO) && !id.equals(METADATA_TOPIC_ID) && !toBase64(id).startsWith("-")) {
                return id;
            }
        }
    }

    /** A new cluster id: 22 characters of unpadded base64url, like {@code kafka-storage random-uuid}. */
    public static String newClusterId() {
        return toBase64(randomId());
    }

    /** Kafka's string form of an id: the 16 bytes in unpadded base64url. */
    public static String toBase64(UUID id) {
        ByteBuffer bytes = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }

    public static UUID fromBase64(String s) {
        byte[] bytes = Base64.getUrlDecoder().decode(s);
        if (bytes.length != 16) {
            throw new IllegalArgumentException("Not a 16-byte id: " + s);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return new UUID(b.getLong(), b.getLong());
    }
}
