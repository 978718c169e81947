package io.odradek.broker.quota;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ReferenceCountUtil;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData;
import io.odradek.wire.codec.ResponseEncoder;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.WireWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * quotafix: the size of a fetch response as it would be sent, header included (Kafka counts the whole
 * response against {@code consumer_byte_rate}, not just its records), for consumers with a byte quota only.
 * The wire schemas have no size computation, so the response's fields are encoded aside (a few bytes per
 * partition) with each partition's records counted by their {@link Records#sizeInBytes} and never written:
 * file slices are not read, down-converted records not copied.
 */
final class FetchResponseSize {
    private static final UnpooledByteBufAllocator HEAP = new UnpooledByteBufAllocator(false);

    private FetchResponseSize() {
    }

    /** Records standing in for the real ones while the fields are encoded: the length prefix, no bytes. */
    private record Counted(int sizeInBytes) implements Records {
        @Override
        public void writeTo(WireWriter out) {
        }
    }

    static long of(short version, int correlationId, Struct response) {
        List<Struct> partitions = new ArrayList<>();
        List<Records> originals = new ArrayList<>();
        long recordBytes = 0;
        for (Struct topic : response.get(FetchApi.Response.RESPONSES)) {
            for (Struct partition : topic.get(FetchableTopicResponse.PARTITIONS)) {
                Records records = partition.get(PartitionData.RECORDS);
                if (records != null) {
                    partitions.add(partition);
                    originals.add(records);
                    recordBytes += records.sizeInBytes();
                    partition.set(PartitionData.RECORDS, new Counted(records.sizeInBytes()));
                }
            }
        }
        try {
            long fields = 0;
            for (Object part : ResponseEncoder.encode(HEAP, FetchApi.SPEC, version, correlationId, response)) {
                fields += ((ByteBuf) part).readableBytes(); // no file regions: every records value is Counted
                ReferenceCountUtil.release(part);
            }
            return fields - 4 + recordBytes; // the length prefix is framing, not response
        } finally {
            for (int i = 0; i < partitions.size(); i++) {
                partitions.get(i).set(PartitionData.RECORDS, originals.get(i));
            }
        }
    }
}
