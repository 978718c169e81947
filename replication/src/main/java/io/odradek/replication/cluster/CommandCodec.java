package io.odradek.replication.cluster;

/** PLACEHOLDER (quorum branch, dropped at integration): the signatures cluster-model publishes. */
public final class CommandCodec {
    private CommandCodec() {
    }

    public static byte[] encode(ControllerCommand command) {
        throw new UnsupportedOperationException("PLACEHOLDER");
    }

    public static ControllerCommand decode(byte[] bytes) {
        throw new UnsupportedOperationException("PLACEHOLDER");
    }

    public static byte[] encodeResult(CommandResult result) {
        throw new UnsupportedOperationException("PLACEHOLDER");
    }

    public static CommandResult decodeResult(byte[] bytes) {
        throw new UnsupportedOperationException("PLACEHOLDER");
    }
}
