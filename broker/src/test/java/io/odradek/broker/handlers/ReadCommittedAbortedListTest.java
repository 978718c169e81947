package io.odradek.broker.handlers;

import static io.odradek.broker.handlers.DataPathFixture.transactionalBatch;
import static io.odradek.broker.handlers.FetchHandlerTest.fetchRequest;
import static io.odradek.broker.handlers.FetchHandlerTest.partition;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.FetchApi.Request;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData;
import io.odradek.wire.api.FetchApi.Response.FetchableTopicResponse.PartitionData.AbortedTransaction;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * read_committed aborted lists where a fetch's data ends at a segment end or at the last stable offset: the
 * list is bounded by the offset there, which the log knows without reading the file.
 */
class ReadCommittedAbortedListTest {
    private static final long PID = 7L;
    private static final long OTHER_PID = 8L;
    private static final short EPOCH = 3;
    private static final byte READ_COMMITTED = 1;
    private static final long TS = System.currentTimeMillis();

    @TempDir
    Path dir;
    DataPathFixture fx;
    FetchHandler fetch;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        // Two small batches per segment at most.
        fx.createTopic("orders", 1, Map.of("segment.bytes", "170"));
        fetch = new FetchHandler(fx, fx.partitions, fx.cluster, FetchHandlerTest.FETCH_MAX_BYTES);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void aFetchEndingAtASegmentEndListsOnlyTheAbortsBeforeIt() {
        appendTxn(PID, 0, "a1");                                     // 0
        writeMarker(PID, false);                                     // 1
        appendTxn(OTHER_PID, 0, "b1");                               // 2
        writeMarker(OTHER_PID, false);                               // 3

        Struct first = fetch(0L);
        assertThat(offsets(first)).containsExactly(0L, 1L);          // the first segment
        assertThat(aborted(first)).containsExactly(PID + "@0");
        assertThat(aborted(fetch(2L))).containsExactly(OTHER_PID + "@2");
    }

    @Test
    void aFetchEndingAtTheLastStableOffsetListsNoAbortAfterIt() {
        fx.createTopic("big", 1);                                    // one segment
        appendTxn("big", PID, 0, "a1");                              // 0
        writeMarker("big", PID, false);                              // 1
        appendTxn("big", OTHER_PID, 0, "b1");                        // 2, open: the LSO
        appendTxn("big", PID, 1, "a2");                              // 3
        writeMarker("big", PID, false);                              // 4: aborted, past the LSO

        Struct committed = fetch("big", 0L);
        assertThat(offsets(committed)).containsExactly(0L, 1L);
        assertThat(committed.get(PartitionData.LAST_STABLE_OFFSET)).isEqualTo(2L);
        assertThat(aborted(committed)).containsExactly(PID + "@0");

        writeMarker("big", OTHER_PID, true);                         // 5
        Struct all = fetch("big", 0L);
        assertThat(offsets(all)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(aborted(all)).containsExactly(PID + "@0", PID + "@3");
    }

    private void appendTxn(long pid, int baseSequence, String... values) {
        appendTxn("orders", pid, baseSequence, values);
    }

    private void appendTxn(String topic, long pid, int baseSequence, String... values) {
        fx.partition(topic, 0).appendAsLeader(transactionalBatch(pid, EPOCH, baseSequence, TS, values), (short) 1)
                .orTimeout(10, TimeUnit.SECONDS).join();
    }

    private void writeMarker(long pid, boolean commit) {
        writeMarker("orders", pid, commit);
    }

    private void writeMarker(String topic, long pid, boolean commit) {
        fx.partition(topic, 0).appendMarker(pid, EPOCH, 0, commit).orTimeout(10, TimeUnit.SECONDS).join();
    }

    private Struct fetch(long offset) {
        return fetch("orders", offset);
    }

    private Struct fetch(String topic, long offset) {
        Struct request = fetchRequest(0, 1, topic, 0, offset).set(Request.ISOLATION_LEVEL, READ_COMMITTED);
        Struct p = partition(fx.callAndWait(fetch, 12, request), 0, 0);
        assertThat(p.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        return p;
    }

    private static List<String> aborted(Struct partition) {
        List<String> out = new ArrayList<>();
        for (Struct t : partition.<List<Struct>>get(PartitionData.ABORTED_TRANSACTIONS)) {
            out.add(t.get(AbortedTransaction.PRODUCER_ID) + "@" + t.get(AbortedTransaction.FIRST_OFFSET));
        }
        return out;
    }

    private static List<Long> offsets(Struct partition) {
        Records records = partition.get(PartitionData.RECORDS);
        List<Long> out = new ArrayList<>();
        for (RecordBatch batch : MemoryRecords.readableRecords(DataPathFixture.bytesOf(records)).batches()) {
            for (Record r : batch) {
                out.add(r.offset());
            }
        }
        return out;
    }
}
