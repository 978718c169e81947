package io.odradek.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.odradek.broker.Broker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.requests.FetchRequest;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that pipelines requests and never reads the responses: the broker stops reading it instead of
 * piling up responses, other clients are served meanwhile, and its memory comes back when it goes.
 */
class BackpressureTest {
    private static final int PIPELINED = 50_000;

    @TempDir
    Path logDir;
    Broker broker;
    final LoopbackBroker loopback = new LoopbackBroker();

    @AfterEach
    void stop() throws Exception {
        loopback.close();
    }

    private void start(Map<String, String> settings) throws InterruptedException {
        broker = loopback.start(logDir, settings);
    }

    private RawClient connect(int receiveBufferBytes) throws IOException {
        return loopback.connect(receiveBufferBytes);
    }

    @Test
    void clientThatNeverReadsIsMutedAndBrokerMemoryStaysFlat() throws Exception {
        start(Map.of());
        KafkaServer server = broker.network();
        // Warm the allocator up with one answered request, so the baseline has its first chunks.
        RawClient bystander = connect(0);
        assertThat(bystander.apiVersions(1)).isZero();
        long baseline = directMemoryInUse();

        // Greedy clients one after the other: each is muted with little memory in use, and what it used is
        // released when it goes. The allocator keeps its chunks per event loop, so "released" shows as no
        // growth once every event loop has served one greedy client: the second pass over the loops
        // reuses what the first allocated.
        int eventLoops = Math.max(1, io.netty.util.NettyRuntime.availableProcessors() * 2);
        List<Long> afterEach = new ArrayList<>();
        for (int round = 0; round < 2 * eventLoops; round++) {
            RawClient greedy = connect(4096);
            Thread writer = sendInBackground(greedy, pipelinedApiVersions(PIPELINED));
            awaitTrue(() -> server.mutedConnections() == 1, "the greedy connection is muted");

            // ~500 bytes per ApiVersions response: unmuted, 50,000 of them would be ~25 MB of direct memory.
            long peak = 0;
            for (int i = 0; i < 20; i++) {
                peak = Math.max(peak, directMemoryInUse() - baseline);
                Thread.sleep(25);
            }
            assertThat(peak).as("direct memory above baseline while muted").isLessThan(4L * 1024 * 1024);
            assertThat(server.mutedConnections()).as("still muted: the broker stopped reading").isEqualTo(1);
            assertThat(server.requestMemory().usedBytes()).as("request bytes held").isLessThan(8L * 1024);
            assertThat(bystander.apiVersions(900_000 + round)).as("another client is served meanwhile").isZero();

            greedy.close();
            writer.join(10_000);
            awaitTrue(() -> server.mutedConnections() == 0 && server.connections().open() == 1,
                    "the greedy connection is gone");
            assertThat(server.requestMemory().usedBytes()).isZero();
            assertThat(server.requestMemory().queuedRequests()).isZero();
            afterEach.add(directMemoryInUse() - baseline);
        }
        assertThat(afterEach.get(afterEach.size() - 1) - afterEach.get(eventLoops - 1))
                .as("growth over the second pass; direct memory above baseline after each client: " + afterEach)
                .isLessThan(256L * 1024);
        assertThat(bystander.apiVersions(900_100)).isZero();
    }

    @Test
    void clientThatReadsLateGetsEveryPipelinedResponseInOrder() throws Exception {
        start(Map.of());
        RawClient client = connect(4096);
        int count = 20_000;
        Thread writer = sendInBackground(client, pipelinedApiVersions(count));
        awaitTrue(() -> broker.network().mutedConnections() == 1, "the connection is muted");

        List<Integer> correlationIds = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ByteBuffer answer = client.readFrame();
            correlationIds.add(answer.getInt());
            assertThat(answer.getShort()).as("error code of response " + i).isZero();
        }
        writer.join(10_000);
        assertThat(correlationIds).hasSize(count);
        for (int i = 0; i < count; i++) {
            assertThat(correlationIds.get(i)).as("response " + i).isEqualTo(i + 1);
        }
        awaitTrue(() -> broker.network().mutedConnections() == 0, "unmuted once everything is answered");
    }

    @Test
    void connectionIsNotReadPastItsInFlightLimitWhileRequestsAreParked() throws Exception {
        start(Map.of("odradek.connection.max.in.flight.requests", "3"));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.port()))) {
            admin.createTopics(List.of(new NewTopic("quiet", 1, (short) 1))).all().get();
        }
        ByteArrayOutputStream fetches = new ByteArrayOutputStream();
        for (int i = 1; i <= 5; i++) { // long polls on an empty partition: each parks for max_wait_ms
            fetches.writeBytes(RawClient.frame(FetchRequest.Builder.forConsumer((short) 12, 2_000, 1,
                    Map.of(new TopicPartition("quiet", 0), new FetchRequest.PartitionData(Uuid.ZERO_UUID, 0, 0,
                            1024, Optional.empty()))).build((short) 12), "consumer", i));
        }
        RawClient consumer = connect(0);
        consumer.send(fetches.toByteArray());
        awaitTrue(() -> broker.network().mutedConnections() == 1, "muted with three fetches parked");
        assertThat(broker.network().requestMemory().queuedRequests()).as("parked requests are not queued").isZero();

        List<Integer> answered = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            answered.add(consumer.readFrame().getInt());
        }
        assertThat(answered).as("every fetch answered in order once the parked ones completed")
                .containsExactly(1, 2, 3, 4, 5);
        awaitTrue(() -> broker.network().mutedConnections() == 0, "read again");
        assertThat(broker.network().requestMemory().usedBytes()).isZero();
    }

    @Test
    void framesBeingReceivedDrawFromTheRequestPoolAndOthersWaitWithoutFailing() throws Exception {
        start(Map.of("queued.max.request.bytes", "65536", "socket.request.max.bytes", "10485760"));
        RequestMemoryPool pool = broker.network().requestMemory();

        // Claims 1 MiB (allowed) and sends 100 bytes of it: the whole MiB is reserved, the pool is spent.
        RawClient trickler = connect(0);
        trickler.send(ByteBuffer.allocate(4 + 100).putInt(1024 * 1024).array());
        awaitTrue(() -> pool.usedBytes() == 1024 * 1024, "the claimed frame is reserved");

        RawClient waiting = connect(0);
        waiting.send(RawClient.apiVersionsFrame(77));
        awaitTrue(() -> pool.waiting() == 1, "the next connection waits for memory");
        assertThat(broker.network().mutedConnections()).isEqualTo(1);

        trickler.close();
        ByteBuffer answer = waiting.readFrame();
        assertThat(answer.getInt()).as("answered once memory came back").isEqualTo(77);
        assertThat(answer.getShort()).as("error code").isZero();
        awaitTrue(() -> pool.usedBytes() == 0 && pool.waiting() == 0, "all request memory released");
    }

    @Test
    void manyPartialLargeFramesAreBoundedByThePool() throws Exception {
        start(Map.of("queued.max.request.bytes", "1048576", "socket.request.max.bytes", "104857600"));
        RequestMemoryPool pool = broker.network().requestMemory();
        List<RawClient> clients = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            RawClient c = connect(0);
            c.send(ByteBuffer.allocate(4 + 10).putInt(100 * 1024 * 1024).array()); // claims 100 MiB each
            clients.add(c);
        }
        awaitTrue(() -> pool.usedBytes() == 100L * 1024 * 1024 && pool.waiting() == 9,
                "one claim is reserved, nine connections wait");
        // Not strict (as Kafka's pool): one frame may overshoot, the other nine buffer nothing.
        assertThat(pool.queuedRequests()).isEqualTo(1);
        for (RawClient c : clients) {
            c.close();
        }
        awaitTrue(() -> pool.usedBytes() == 0 && pool.waiting() == 0 && pool.queuedRequests() == 0,
                "everything released when they go");
    }

    private static byte[] pipelinedApiVersions(int count) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int i = 1; i <= count; i++) {
            all.writeBytes(RawClient.apiVersionsFrame(i));
        }
        return all.toByteArray();
    }

    /** Writes the bytes from another thread: the write blocks once the broker stops reading. */
    private static Thread sendInBackground(RawClient client, byte[] bytes) {
        AtomicLong unused = new AtomicLong();
        Thread writer = new Thread(() -> {
            try {
                client.send(bytes);
            } catch (IOException e) {
                unused.incrementAndGet(); // the test closed the socket under the blocked write
            }
        }, "pipelining-writer");
        writer.setDaemon(true);
        writer.start();
        return writer;
    }

    static long directMemoryInUse() {
        return ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric().usedDirectMemory();
    }

    /** Polls the value until it is below the bound (or 15 s pass); returns the last value seen. */
    static long awaitAtMost(java.util.function.LongSupplier value, long bound) throws InterruptedException {
        long deadline = System.nanoTime() + 15_000_000_000L;
        long now = value.getAsLong();
        while (now >= bound && System.nanoTime() < deadline) {
            Thread.sleep(10);
            now = value.getAsLong();
        }
        return now;
    }

    static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(10);
        }
    }
}
