package io.odradek.replication.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A whole {@link ClusterImage} as bytes, for Ratis snapshots: a format byte, then the offset, cluster id,
 * producer-id counter, brokers and topics.
 */
public final class ImageCodec {
    public static final byte FORMAT = 1;

    private ImageCodec() {
    }

    public static byte[] encode(ClusterImage image) {
        throw new UnsupportedOperationException("API: body follows");
    }

    /** Throws IllegalArgumentException for bytes that are not an image of a known format. */
    public static ClusterImage decode(byte[] bytes) {
        throw new UnsupportedOperationException("API: body follows");
    }

    /** Writes the image to {@code out} (not closed). */
    public static void write(ClusterImage image, OutputStream out) throws IOException {
        throw new UnsupportedOperationException("API: body follows");
    }

    /** Reads one image written by {@link #write}. */
    public static ClusterImage read(InputStream in) throws IOException {
        throw new UnsupportedOperationException("API: body follows");
    }
}
