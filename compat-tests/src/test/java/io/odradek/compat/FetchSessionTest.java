package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * KIP-227 with Kafka's own consumer: a consumer of 1,000 partitions names all of them in its first fetch, then
 * only those whose position moved. The broker advertises a small TCP proxy in front of it, which measures every
 * Fetch request the consumer sends.
 */
class FetchSessionTest {
    private static final int PARTITIONS = 1000;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(120);

    private static final FetchCountingProxy PROXY = FetchCountingProxy.start();

    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withConfig(Map.of(
            "advertised.listeners", "PLAINTEXT://127.0.0.1:" + PROXY.port()));

    static {
        PROXY.forwardTo(BROKER::port);
    }

    @AfterAll
    static void stopProxy() throws IOException {
        PROXY.close();
    }

    @Test
    void aConsumerOfAThousandPartitionsSendsOnlyWhatChangedAfterItsFirstFetch() throws Exception {
        String topic = "thousand";
        createSlowly(topic);
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of(ProducerConfig.LINGER_MS_CONFIG, 20));
        Map<Integer, List<String>> expected = produce(producer, topic, allPartitions(), 3, "first");

        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, Map.of());
        List<TopicPartition> partitions = Clients.partitions(topic, PARTITIONS);
        int before = PROXY.fetchRequestSizes().size();
        Map<Integer, List<String>> read = seen(Clients.readAll(consumer, partitions, READ_TIMEOUT));

        assertThat(read).isEqualTo(expected);
        List<Integer> sizes = PROXY.fetchRequestSizes().subList(before, PROXY.fetchRequestSizes().size());
        int full = sizes.get(0);
        assertThat(full).as("the first fetch names every partition").isGreaterThan(PARTITIONS * 20);

        // Caught up: the consumer keeps polling. The fetch it sent with its last records names every partition
        // (all positions moved); once that is answered (within fetch.max.wait.ms), its fetches name nothing.
        pollIdle(consumer, Duration.ofSeconds(1));
        int idleFrom = PROXY.fetchRequestSizes().size();
        pollIdle(consumer, Duration.ofSeconds(2));
        List<Integer> idle = List.copyOf(PROXY.fetchRequestSizes().subList(idleFrom, PROXY.fetchRequestSizes().size()));
        assertThat(idle).hasSizeGreaterThanOrEqualTo(2).allSatisfy(size -> assertThat(size).isLessThan(full / 100));

        // New records on five partitions: they come back exactly, and the next fetches name at most those five.
        List<Integer> some = List.of(3, 250, 499, 777, 999);
        Map<Integer, List<String>> more = produce(producer, topic, some, 2, "second");
        Map<Integer, List<String>> readMore = new TreeMap<>();
        int moreFrom = PROXY.fetchRequestSizes().size();
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (readMore.values().stream().mapToInt(List::size).sum() < 10 && System.nanoTime() < deadline) {
            seen(consumer.poll(Duration.ofMillis(200))).forEach((p, records) ->
                    readMore.computeIfAbsent(p, k -> new ArrayList<>()).addAll(records));
        }
        consumer.poll(Duration.ofMillis(600)); // one more fetch naming the moved positions
        assertThat(readMore).isEqualTo(more);
        List<Integer> after = List.copyOf(PROXY.fetchRequestSizes().subList(moreFrom, PROXY.fetchRequestSizes().size()));
        assertThat(after).isNotEmpty().allSatisfy(size -> assertThat(size).isLessThan(full / 20));
    }

    private static void pollIdle(KafkaConsumer<String, String> consumer, Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < until) {
            assertThat(consumer.poll(Duration.ofMillis(200))).isEmpty();
        }
    }

    /** 1,000 partition logs can take longer than the harness admin's 30 s on a busy machine: wait for them. */
    private static void createSlowly(String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, BROKER.bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "300000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "300000"))) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get(300, TimeUnit.SECONDS);
        }
    }

    private static List<Integer> allPartitions() {
        List<Integer> all = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            all.add(p);
        }
        return all;
    }

    /** {@code count} records to each partition; returns what the broker acknowledged, "offset:key=value" per partition. */
    private static Map<Integer, List<String>> produce(KafkaProducer<String, String> producer, String topic,
            List<Integer> partitions, int count, String round) throws Exception {
        Map<Integer, List<Future<RecordMetadata>>> acks = new TreeMap<>();
        Map<Integer, List<String>> sent = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            for (int p : partitions) {
                String key = "k-" + p + "-" + round + "-" + i;
                String value = "v-" + p + "-" + round + "-" + i + "-" + "x".repeat(p % 17);
                acks.computeIfAbsent(p, k -> new ArrayList<>()).add(producer.send(new ProducerRecord<>(topic, p, key, value)));
                sent.computeIfAbsent(p, k -> new ArrayList<>()).add(key + "=" + value);
            }
        }
        producer.flush();
        Map<Integer, List<String>> expected = new TreeMap<>();
        for (Map.Entry<Integer, List<Future<RecordMetadata>>> e : acks.entrySet()) {
            List<String> records = new ArrayList<>();
            for (int i = 0; i < e.getValue().size(); i++) {
                RecordMetadata ack = e.getValue().get(i).get();
                assertThat(ack.partition()).isEqualTo(e.getKey());
                records.add(ack.offset() + ":" + sent.get(e.getKey()).get(i));
            }
            expected.put(e.getKey(), records);
        }
        return expected;
    }

    private static Map<Integer, List<String>> seen(Iterable<ConsumerRecord<String, String>> records) {
        Map<Integer, List<String>> out = new TreeMap<>();
        for (ConsumerRecord<String, String> r : records) {
            out.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(r.offset() + ":" + r.key() + "=" + r.value());
        }
        return out;
    }

    /**
     * A TCP proxy in front of the broker that reads the client's request frames as they pass and keeps the size
     * (length prefix included) of every Fetch request (api key 1). Responses pass through untouched.
     */
    static final class FetchCountingProxy implements AutoCloseable {
        private final ServerSocket server;
        private final List<Integer> fetchSizes = new CopyOnWriteArrayList<>();
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private volatile IntSupplier target;

        private FetchCountingProxy(ServerSocket server) {
            this.server = server;
        }

        static FetchCountingProxy start() {
            try {
                FetchCountingProxy proxy = new FetchCountingProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
                Thread accept = new Thread(proxy::acceptLoop, "fetch-proxy-accept");
                accept.setDaemon(true);
                accept.start();
                return proxy;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        int port() {
            return server.getLocalPort();
        }

        /** The broker's port, asked when a client connects (the broker starts after the proxy). */
        void forwardTo(IntSupplier brokerPort) {
            this.target = brokerPort;
        }

        List<Integer> fetchRequestSizes() {
            return fetchSizes;
        }

        private void acceptLoop() {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    Socket broker = new Socket(InetAddress.getLoopbackAddress(), target.getAsInt());
                    sockets.add(client);
                    sockets.add(broker);
                    start("fetch-proxy-requests", () -> frames(client.getInputStream(), broker.getOutputStream()),
                            client, broker);
                    start("fetch-proxy-responses", () -> broker.getInputStream().transferTo(client.getOutputStream()),
                            client, broker);
                } catch (IOException e) {
                    return; // closed
                }
            }
        }

        private interface Io {
            void run() throws IOException;
        }

        private static void start(String name, Io io, Socket a, Socket b) {
            Thread t = new Thread(() -> {
                try {
                    io.run();
                } catch (IOException e) {
                    // a side closed
                } finally {
                    closeQuietly(a);
                    closeQuietly(b);
                }
            }, name);
            t.setDaemon(true);
            t.start();
        }

        /** Copies whole request frames, noting the size of each Fetch request. */
        private void frames(InputStream from, OutputStream to) throws IOException {
            DataInputStream in = new DataInputStream(from);
            while (true) {
                int length = in.readInt();
                byte[] frame = new byte[length];
                in.readFully(frame);
                short apiKey = (short) (((frame[0] & 0xff) << 8) | (frame[1] & 0xff));
                if (apiKey == 1) {
                    fetchSizes.add(4 + length);
                }
                to.write(new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length});
                to.write(frame);
                to.flush();
            }
        }

        private static void closeQuietly(Socket s) {
            try {
                s.close();
            } catch (IOException e) {
                // already closed
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket s : sockets) {
                closeQuietly(s);
            }
        }
    }
}
