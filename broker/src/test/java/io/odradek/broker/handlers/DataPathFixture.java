package io.odradek.broker.handlers;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.DefaultEventLoop;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.fetch.FileSliceRecords;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.broker.security.Session;
import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.PartitionWriters;
import io.odradek.replication.partition.Partitions;
import io.odradek.replication.partition.WaitingOperations;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Records;
import io.odradek.wire.schema.Struct;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;

/**
 * Real partition logs in a temp dir behind the real partition layer (writer threads, waiting-operations
 * set), a real event loop to run handlers on, and Kafka's own record classes to build batches and read
 * records back.
 */
final class DataPathFixture implements PartitionLogs, AutoCloseable {
    private final Path dir;
    private final Map<String, UUID> ids = new HashMap<>();
    private final Map<String, PartitionLog> logs = new HashMap<>();
    /** Topics whose partitions have an in-sync follower (id 2) that has fetched nothing yet. */
    private final Set<String> withLaggingFollower = new HashSet<>();
    final DefaultEventLoop loop = new DefaultEventLoop();
    final WaitingOperations<Partition> waiting = new WaitingOperations<>("test-waiting");
    final Partitions partitions = new Partitions(this, new PartitionWriters(2), waiting);
    /** The metadata image handlers see: this broker alone, leading every topic created here. */
    final DataPathClusterView cluster = new DataPathClusterView();
    private int correlationId;
    /** Who the requests come from (issue 10: a session with a test authorizer); anonymous, allow-all by default. */
    Session session = Session.PLAINTEXT_ANONYMOUS;

    DataPathFixture(Path dir) {
        this.dir = dir;
    }

    /** Creates a topic with {@code partitions} empty logs; returns its id. */
    UUID createTopic(String topic, int partitions) {
        return createTopic(topic, partitions, Map.of());
    }

    UUID createTopic(String topic, int partitions, Map<String, String> config) {
        UUID id = UUID.randomUUID();
        ids.put(topic, id);
        for (int p = 0; p < partitions; p++) {
            logs.put(topic + "-" + p, PartitionLog.open(dir, topic, p, LogConfig.defaults().with(config),
                    PartitionLog.Options.defaults().withTopicId(id)));
        }
        cluster.addTopic(topic, id, partitions);
        return id;
    }

    /** The topic deleted and created again under its name: new, empty logs (in {@code newDir}) with a new id. */
    UUID recreateTopic(String topic, int partitions, Path newDir) {
        UUID id = UUID.randomUUID();
        ids.put(topic, id);
        for (int p = 0; p < partitions; p++) {
            PartitionLog old = logs.put(topic + "-" + p, PartitionLog.open(newDir, topic, p, LogConfig.defaults(),
                    PartitionLog.Options.defaults().withTopicId(id)));
            if (old != null) {
                old.close();
            }
        }
        cluster.addTopic(topic, id, partitions);
        return id;
    }

    /** A topic whose high watermark stays at 0 until the test moves follower 2 (acks=all waits). */
    UUID createTopicWithLaggingFollower(String topic, int partitions) {
        withLaggingFollower.add(topic);
        return createTopic(topic, partitions);
    }

    @Override
    public Set<Integer> inSyncFollowers(String topic, int partition) {
        return withLaggingFollower.contains(topic) ? Set.of(2) : Set.of();
    }

    PartitionLog log(String topic, int partition) {
        return logs.get(topic + "-" + partition);
    }

    @Override
    public Optional<PartitionLog> partitionLog(String topic, int partition) {
        return Optional.ofNullable(logs.get(topic + "-" + partition));
    }

    @Override
    public OptionalInt leaderEpoch(String topic, int partition) {
        return ids.containsKey(topic) ? OptionalInt.of(0) : OptionalInt.empty();
    }

    Partition partition(String topic, int partition) {
        return partitions.partition(topic, partition).orElseThrow();
    }

    @Override
    public Optional<String> topicName(UUID topicId) {
        // Topics only the cluster metadata knows (led elsewhere, no replica here) resolve too, as in a cluster.
        Optional<String> local = ids.entrySet().stream().filter(e -> e.getValue().equals(topicId))
                .map(Map.Entry::getKey).findFirst();
        return local.isPresent() ? local : cluster.image().topic(topicId).map(t -> t.name());
    }

    @Override
    public Optional<UUID> topicId(String topic) {
        return Optional.ofNullable(ids.get(topic));
    }

    /** Calls the handler on the event loop, as the network layer does. */
    CompletableFuture<Struct> call(ApiHandler handler, int version, Struct request) {
        return call(handler, version, request, "test-client");
    }

    CompletableFuture<Struct> call(ApiHandler handler, int version, Struct request, String clientId) {
        return call(handler, version, request, clientId, loop.newPromise());
    }

    /** As a connection whose close future is {@code closed}: completing it is the client going away. */
    CompletableFuture<Struct> call(ApiHandler handler, int version, Struct request, String clientId,
            io.netty.util.concurrent.Future<?> closed) {
        RequestContext context = new RequestContext(
                new RequestHeader(handler.api().key(), (short) version, ++correlationId, clientId),
                new InetSocketAddress("127.0.0.1", 40000), ByteBufAllocator.DEFAULT, loop, closed, null, session);
        try {
            return loop.submit(() -> handler.handle(context, request)).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("handler failed", e);
        }
    }

    Struct callAndWait(ApiHandler handler, int version, Struct request) {
        return call(handler, version, request).orTimeout(10, TimeUnit.SECONDS).join();
    }

    /** Appends through the partition, as a Produce would, waking parked fetches; returns the base offset. */
    long append(String topic, int partition, long timestamp, String... values) {
        return partition(topic, partition).appendAsLeader(batch(timestamp, values), (short) 1)
                .orTimeout(10, TimeUnit.SECONDS).join().baseOffset();
    }

    // ------------------------------------------------------------------ produce requests

    /** A Produce request of one record (value "x") to partition 0 of {@code topic}. */
    static Struct produceOneRecord(String topic, short acks, int timeoutMs) {
        Struct request = ProduceApi.Request.SCHEMA.newStruct().set(ProduceApi.Request.ACKS, acks)
                .set(ProduceApi.Request.TIMEOUT_MS, timeoutMs);
        request.add(ProduceApi.Request.TOPIC_DATA).set(ProduceApi.Request.TopicProduceData.NAME, topic)
                .add(ProduceApi.Request.TopicProduceData.PARTITION_DATA)
                .set(ProduceApi.Request.TopicProduceData.PartitionProduceData.INDEX, 0)
                .set(ProduceApi.Request.TopicProduceData.PartitionProduceData.RECORDS, (Records) wire(batch(1L, "x")));
        return request;
    }

    /** The first partition answered in a Produce response. */
    static Struct firstProducePartition(Struct response) {
        return response.get(ProduceApi.Response.RESPONSES).get(0)
                .get(ProduceApi.Response.TopicProduceResponse.PARTITION_RESPONSES).get(0);
    }

    /** Spins until {@code condition} holds; fails the test after 5 s. */
    static void await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 5 s");
            }
            Thread.onSpinWait();
        }
    }

    // ------------------------------------------------------------------ batches

    /** A producer's batch: key "k-v" and value v per record, offsets from 0. */
    static ByteBuffer batch(long timestamp, String... values) {
        return idempotentBatch(RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH, RecordBatch.NO_SEQUENCE,
                timestamp, values);
    }

    static ByteBuffer idempotentBatch(long producerId, short epoch, int baseSequence, long timestamp, String... values) {
        return builder(Compression.NONE, producerId, epoch, baseSequence, false, timestamp, values);
    }

    static ByteBuffer transactionalBatch(long producerId, short epoch, long timestamp, String... values) {
        return builder(Compression.NONE, producerId, epoch, 0, true, timestamp, values);
    }

    /** A transactional producer's later batch: its sequence continues the producer's previous ones. */
    static ByteBuffer transactionalBatch(long producerId, short epoch, int baseSequence, long timestamp, String... values) {
        return builder(Compression.NONE, producerId, epoch, baseSequence, true, timestamp, values);
    }

    static ByteBuffer compressedBatch(Compression compression, long timestamp, String... values) {
        return builder(compression, RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH, RecordBatch.NO_SEQUENCE,
                false, timestamp, values);
    }

    private static ByteBuffer builder(Compression compression, long producerId, short epoch, int sequence,
            boolean transactional, long timestamp, String... values) {
        int size = 256;
        for (String v : values) {
            size += 64 + 2 * v.length();
        }
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(size), RecordBatch.MAGIC_VALUE_V2,
                compression, TimestampType.CREATE_TIME, 0L, timestamp, producerId, epoch, sequence, transactional,
                RecordBatch.NO_PARTITION_LEADER_EPOCH);
        for (String v : values) {
            b.append(new SimpleRecord(timestamp, ("k-" + v).getBytes(StandardCharsets.UTF_8),
                    v.getBytes(StandardCharsets.UTF_8)));
        }
        return b.build().buffer();
    }

    static ByteBuffer concat(ByteBuffer... buffers) {
        int total = 0;
        for (ByteBuffer b : buffers) {
            total += b.remaining();
        }
        ByteBuffer out = ByteBuffer.allocate(total);
        for (ByteBuffer b : buffers) {
            out.put(b.duplicate());
        }
        return out.flip();
    }

    /** Our records field value over a (copied) frame buffer, as the request decoder would hand it over. */
    static io.odradek.wire.schema.MemoryRecords wire(ByteBuffer batch) {
        return new io.odradek.wire.schema.MemoryRecords(Unpooled.copiedBuffer(batch.duplicate()));
    }

    // ------------------------------------------------------------------ reading records back

    /** The bytes of a records field: a fetch response's file slice, or a memory buffer. */
    static ByteBuffer bytesOf(Records records) {
        if (records instanceof FileSliceRecords file) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                file.slice().transferTo(Channels.newChannel(out));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return ByteBuffer.wrap(out.toByteArray());
        }
        io.odradek.wire.schema.MemoryRecords memory = (io.odradek.wire.schema.MemoryRecords) records;
        return memory.buffer().nioBuffer();
    }

    /** "offset:key=value" for every whole record Kafka's own reader finds (a cut-off last batch is skipped). */
    static List<String> records(Records records) {
        return records(bytesOf(records));
    }

    static List<String> records(ByteBuffer bytes) {
        List<String> out = new ArrayList<>();
        for (RecordBatch batch : MemoryRecords.readableRecords(bytes).batches()) {
            batch.ensureValid();
            for (Record r : batch) {
                out.add(r.offset() + ":" + StandardCharsets.UTF_8.decode(r.key()) + "="
                        + StandardCharsets.UTF_8.decode(r.value()));
            }
        }
        return out;
    }

    @Override
    public void close() {
        partitions.close();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        logs.values().forEach(PartitionLog::close);
    }
}
