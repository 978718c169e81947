package io.odradek.wire.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;

class EndTxnMarkerTest {
    @Test
    void kafkaReadsOurCommitMarkerBatch() {
        ByteBuffer batch = new EndTxnMarker(true, 7).toBatch(4242L, (short) 3, 1_700_000_000_000L);

        RecordBatch read = MemoryRecords.readableRecords(batch).batches().iterator().next();
        read.ensureValid();
        assertThat(read.isControlBatch()).isTrue();
        assertThat(read.isTransactional()).isTrue();
        assertThat(read.producerId()).isEqualTo(4242L);
        assertThat(read.producerEpoch()).isEqualTo((short) 3);
        assertThat(read.baseSequence()).isEqualTo(RecordBatch.NO_SEQUENCE);
        Record record = read.iterator().next();
        assertThat(ControlRecordType.parse(record.key())).isEqualTo(ControlRecordType.COMMIT);
        EndTransactionMarker marker = EndTransactionMarker.deserialize(record);
        assertThat(marker.coordinatorEpoch()).isEqualTo(7);
    }

    @Test
    void weParseKafkasAbortMarker() {
        MemoryRecords kafka = MemoryRecords.withEndTransactionMarker(0L, 1_700_000_000_000L, 0, 99L, (short) 1,
                new EndTransactionMarker(ControlRecordType.ABORT, 12));
        Record record = kafka.batches().iterator().next().iterator().next();

        EndTxnMarker marker = EndTxnMarker.parse(record.key(), record.value());

        assertThat(marker).isEqualTo(new EndTxnMarker(false, 12));
    }
}
