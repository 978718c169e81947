package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.log.PartitionLog;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code kafka-transactions describe-producers} and {@code abort} do against a hanging transaction
 * (one its coordinator has forgotten), with Kafka's own Admin client: DescribeProducers shows the open
 * transaction, WriteTxnMarkers to the partition leader aborts it, and read_committed consumers move on.
 */
class HangingTransactionEndToEndTest {
    private static final long PID = 4242L;
    private static final short EPOCH = 2;

    @TempDir
    Path logDir;
    Broker broker;
    Admin admin;

    @BeforeEach
    void start() throws Exception {
        broker = Broker.start(BrokerConfig.of(Map.of(
                "node.id", "1",
                "listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", logDir.toString())));
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
        admin.createTopics(List.of(new NewTopic("hang", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        admin.close();
        broker.close();
    }

    @Test
    void aHangingTransactionIsDescribedAndAbortedWithKafkasAdminClient() throws Exception {
        TopicPartition tp = new TopicPartition("hang", 0);
        PartitionLog log = broker.topics().partitionLog("hang", 0).orElseThrow();
        long now = System.currentTimeMillis();
        log.append(batch(RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH, false, now, "before"), 0); // 0
        log.append(batch(PID, EPOCH, true, now, "hanging-1", "hanging-2"), 0);                              // 1-2, never ended
        log.append(batch(RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH, false, now, "after"), 0);   // 3

        List<ProducerState> producers = admin.describeProducers(List.of(tp)).partitionResult(tp)
                .get(30, TimeUnit.SECONDS).activeProducers();
        assertThat(producers).containsExactly(
                new ProducerState(PID, EPOCH, 1, now, OptionalInt.empty(), OptionalLong.of(1L)));
        // read_committed consumers are stuck before the open transaction.
        assertThat(committedValues(tp, 1)).containsExactly("before");

        admin.abortTransaction(new AbortTransactionSpec(tp, PID, EPOCH, 0)).all().get(30, TimeUnit.SECONDS);

        assertThat(committedValues(tp, 2)).containsExactly("before", "after");
        ProducerState afterAbort = admin.describeProducers(List.of(tp)).partitionResult(tp)
                .get(30, TimeUnit.SECONDS).activeProducers().get(0);
        assertThat(afterAbort.currentTransactionStartOffset()).isEmpty();
        assertThat(afterAbort.coordinatorEpoch()).hasValue(0);
        assertThat(log.logEndOffset()).isEqualTo(5L); // the abort marker at offset 4
    }

    /** The values a read_committed consumer reads from the start, until it has {@code count} of them. */
    private List<String> committedValues(TopicPartition tp, int count) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (values.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(r.value());
                }
            }
            // Nothing more shows up past what was expected (a short extra poll).
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(300))) {
                values.add(r.value());
            }
            return values;
        }
    }

    private String bootstrap() {
        return "127.0.0.1:" + broker.port();
    }

    private static ByteBuffer batch(long pid, short epoch, boolean transactional, long timestamp, String... values) {
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(1024), RecordBatch.MAGIC_VALUE_V2,
                Compression.NONE, TimestampType.CREATE_TIME, 0L, timestamp, pid, epoch,
                pid < 0 ? RecordBatch.NO_SEQUENCE : 0, transactional, RecordBatch.NO_PARTITION_LEADER_EPOCH);
        for (String v : values) {
            b.append(new SimpleRecord(timestamp, null, v.getBytes(StandardCharsets.UTF_8)));
        }
        return b.build().buffer();
    }
}
