package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.log.PartitionLog;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DescribeLogDirsApi;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DescribeLogDirs v0 (Kafka 3.9's minimum, dropped by Kafka 4) in the bytes an old admin client writes and
 * reads: the same answer as v1, without v3's error code or v4's volume sizes.
 */
class DescribeLogDirsV0Test {
    @TempDir
    Path dir;
    AdminFixture fx;
    DescribeLogDirsHandler handler;

    @BeforeEach
    void setUp() {
        fx = new AdminFixture(dir);
        handler = new DescribeLogDirsHandler(fx.topics);
        fx.topics.createTopic("orders", 2, Map.of(), false);
        fx.topics.createTopic("audit", 1, Map.of(), false);
        fx.topics.partitionLog("orders", 1).orElseThrow().append(DataPathFixture.batch(1_000L, "a", "b"), 0);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void everyReplicaOfTheLogDirWithItsSize() {
        long size = fx.topics.partitionLog("orders", 1).map(PartitionLog::sizeInBytes).orElseThrow();
        assertThat(size).isPositive();

        List<String> answer = describe(new WireRoundTrip.Body().int32(-1).toArray()); // null: every replica

        assertThat(answer).containsExactly("dir " + dir.toAbsolutePath().normalize() + " NONE",
                "audit-0 size 0 lag 0 future false",
                "orders-0 size 0 lag 0 future false",
                "orders-1 size " + size + " lag 0 future false");
    }

    @Test
    void onlyTheNamedPartitionsUnknownOnesLeftOut() {
        byte[] body = new WireRoundTrip.Body().int32(1).string("orders").int32s(1, 7).toArray();

        assertThat(describe(body)).containsExactly("dir " + dir.toAbsolutePath().normalize() + " NONE",
                "orders-1 size " + fx.topics.partitionLog("orders", 1).orElseThrow().sizeInBytes() + " lag 0 future false");
    }

    /** The v0 response read from its bytes: throttle time, then per dir its error, path and replicas. */
    private List<String> describe(byte[] requestBody) {
        Struct request = WireRoundTrip.decodeRequest(DescribeLogDirsApi.SPEC, 0, requestBody);
        ByteBuffer in = WireRoundTrip.responseBody(DescribeLogDirsApi.SPEC, 0, fx.call(handler, 0, request));
        assertThat(in.getInt()).as("throttle time").isZero();
        List<String> out = new ArrayList<>();
        for (int d = in.getInt(); d > 0; d--) {
            ErrorCode error = ErrorCode.forCode(in.getShort());
            out.add("dir " + WireRoundTrip.string(in) + " " + error);
            for (int t = in.getInt(); t > 0; t--) {
                String topic = WireRoundTrip.string(in);
                for (int p = in.getInt(); p > 0; p--) {
                    out.add(topic + "-" + in.getInt() + " size " + in.getLong() + " lag " + in.getLong()
                            + " future " + (in.get() != 0));
                }
            }
        }
        assertThat(in.remaining()).as("bytes after the v0 body").isZero();
        return out;
    }
}
