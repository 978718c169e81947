package io.odradek.replication.cluster;

/**
 * The metadata log's entry format: {@link ControllerCommand}s and their {@link CommandResult}s as compact
 * binary. Every encoding starts with a format byte (bumped when the layout changes, so a newer controller
 * can still read an older log) and then a type byte.
 */
public final class CommandCodec {
    public static final byte FORMAT = 1;

    private CommandCodec() {
    }

    public static byte[] encode(ControllerCommand command) {
        throw new UnsupportedOperationException("API: body follows");
    }

    /** Throws IllegalArgumentException for bytes that are not a command of a known format. */
    public static ControllerCommand decode(byte[] bytes) {
        throw new UnsupportedOperationException("API: body follows");
    }

    public static byte[] encodeResult(CommandResult result) {
        throw new UnsupportedOperationException("API: body follows");
    }

    public static CommandResult decodeResult(byte[] bytes) {
        throw new UnsupportedOperationException("API: body follows");
    }
}
