package io.odradek.replication.cluster;

/** PLACEHOLDER (quorum branch, dropped at integration): the signatures cluster-model publishes. */
public final class ImageCodec {
    private ImageCodec() {
    }

    public static byte[] encode(ClusterImage image) {
        throw new UnsupportedOperationException("PLACEHOLDER");
    }

    public static ClusterImage decode(byte[] bytes) {
        throw new UnsupportedOperationException("PLACEHOLDER");
    }
}
