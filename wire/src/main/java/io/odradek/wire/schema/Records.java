package io.odradek.wire.schema;

/**
 * The value of a {@code records} field: whole record batches, carried as bytes the codec never looks into.
 * On a request they are a slice of the received frame; on a fetch response a slice of a segment file,
 * written to the socket with sendfile.
 */
public interface Records {
    int sizeInBytes();

    /** Appends these bytes to the message being written (a file slice becomes its own part, not a copy). */
    void writeTo(WireWriter out);
}
