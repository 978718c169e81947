package io.odradek.wire.batch;

import java.nio.ByteBuffer;

/**
 * snappy-java's stream framing, as its {@code SnappyOutputStream} writes it (Kafka's producers for snappy): magic
 * {0x82, 'SNAPPY', 0}, version int32, compatible-version int32 (big endian), then chunks of [compressed length
 * int32][raw snappy block]. Shared by the bounded readers of the wire (legacy wrappers) and the log (v2 batches).
 */
public final class SnappyFraming {
    public static final int HEADER_SIZE = 16;
    /** The first four magic bytes as a big-endian int: a chunk length equal to it may be a repeated header. */
    public static final int MAGIC_HEAD = 0x82534E41;
    /**
     * Most bytes a snappy block expands to per compressed byte: its densest element is a 3-byte copy of 64
     * bytes (~21x); 32 leaves room for the length varint.
     */
    private static final int MAX_EXPANSION = 32;
    private static final byte[] MAGIC = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};

    private SnappyFraming() {
    }

    /** True if a whole framing header starts at {@code at} in {@code b}. */
    public static boolean hasMagic(ByteBuffer b, int at) {
        if (b.limit() - at < HEADER_SIZE) {
            return false;
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (b.get(at + i) != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * False if a block of {@code size} compressed bytes cannot expand to the {@code length} its header claims:
     * such a block is refused before a buffer is allocated from the client's number.
     */
    public static boolean canExpandTo(int size, int length) {
        return length >= 0 && length <= (long) size * MAX_EXPANSION + MAX_EXPANSION;
    }
}
