package io.odradek.broker.fetch;

import io.odradek.log.FileSlice;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.WireWriter;

/**
 * The records of a fetch response partition: a slice of a segment file. Encoding adds it to the response
 * as a file region of its own, between the buffers of the surrounding fields, so the record bytes go from
 * the page cache to the socket without a copy. The region is made only when the response is written, so a
 * response that is built and dropped (a delayed fetch re-checked) holds nothing that needs releasing.
 */
public record FileSliceRecords(FileSlice slice) implements Records {
    @Override
    public int sizeInBytes() {
        return slice.size();
    }

    @Override
    public void writeTo(WireWriter out) {
        out.appendRegion(new SegmentFileRegion(slice.channel(), slice.position(), slice.size()));
    }
}
