import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The few measurements bench/run needs that Kafka's own tools do not make. Compiled by bench/run against the
 * cached kafka-clients jar; talks to 127.0.0.1 only.
 *
 * <pre>
 *   ready PORT TIMEOUT_MS [MIN_PARTITIONS]   poll until the broker answers ApiVersions and Metadata (with a
 *                                            leader for every partition, and at least MIN_PARTITIONS outside
 *                                            internal topics); prints the epoch millisecond it did
 *   create PORT NAME:PARTITIONS...           create these topics (one request)
 *   create-many PORT PREFIX TOPICS PARTITIONS
 *                                            create TOPICS topics PREFIX-0.. of PARTITIONS partitions each,
 *                                            one request per topic
 *   fanout PORT TOPIC CONSUMERS RATE SECONDS SIZE
 *                                            CONSUMERS consumers, each in its own group, tail TOPIC while one
 *                                            producer sends RATE records/s of SIZE bytes for SECONDS; prints
 *                                            delivery latency percentiles over every (record, consumer) pair
 *   wordcount PORT RECORDS STATE_DIR         Kafka Streams word count with exactly_once_v2 (a state store and a
 *                                            repartition topic): RECORDS lines are produced first, then the time
 *                                            from the application's start until a read_committed consumer has
 *                                            seen every word's exact final count is printed
 *   share PORT TOPIC RECORDS CONSUMERS       CONSUMERS share consumers (KIP-932) in one new share group, acknowledging
 *                                            explicitly (ACCEPT each record; the acknowledgements go with the
 *                                            next poll, as a typical application's do), read the RECORDS records
 *                                            already in TOPIC; prints the time from the first delivery until every
 *                                            record's acknowledgement is confirmed (the commit callback), the
 *                                            records/s and MB/s over it, and any record delivered twice
 *   cluster-ready BOOTSTRAP BROKERS TIMEOUT_MS
 *                                            poll DescribeCluster until BROKERS brokers are listed (registered and
 *                                            unfenced); prints the epoch millisecond they were
 *   cluster-topic BOOTSTRAP NAME PARTITIONS RF MIN_ISR
 *                                            create a replicated topic and wait until every partition has a leader
 *                                            and its full replica set in the ISR
 *   failover BOOTSTRAP ID=PID,...            create a 1-partition RF=3 topic (min.insync.replicas=2) led by a node
 *                                            that is not the active controller, produce to it continuously with
 *                                            acks=all, SIGKILL the leader's process and print the milliseconds
 *                                            from the kill to the first acknowledgement after it (necessarily
 *                                            from the new leader: the old one is dead)
 * </pre>
 */
public final class BenchTool {
    public static void main(String[] args) throws Exception {
        switch (args.length == 0 ? "" : args[0]) {
            case "ready" -> ready(Integer.parseInt(args[1]), Long.parseLong(args[2]),
                    args.length > 3 ? Integer.parseInt(args[3]) : 0);
            case "create" -> create(Integer.parseInt(args[1]), Arrays.copyOfRange(args, 2, args.length));
            case "create-many" -> createMany(Integer.parseInt(args[1]), args[2], Integer.parseInt(args[3]),
                    Integer.parseInt(args[4]));
            case "fanout" -> fanout(Integer.parseInt(args[1]), args[2], Integer.parseInt(args[3]),
                    Integer.parseInt(args[4]), Integer.parseInt(args[5]), Integer.parseInt(args[6]));
            case "wordcount" -> wordCount(Integer.parseInt(args[1]), Integer.parseInt(args[2]), args[3]);
            case "share" -> share(Integer.parseInt(args[1]), args[2], Integer.parseInt(args[3]),
                    Integer.parseInt(args[4]));
            case "cluster-ready" -> clusterReady(args[1], Integer.parseInt(args[2]), Long.parseLong(args[3]));
            case "cluster-topic" -> clusterTopic(args[1], args[2], Integer.parseInt(args[3]), Short.parseShort(args[4]),
                    args[5]);
            case "failover" -> failover(args[1], args[2]);
            default -> {
                System.err.println("usage: BenchTool ready|create|create-many|fanout|wordcount|share|cluster-ready|cluster-topic"
                        + "|failover ... (see the source)");
                System.exit(2);
            }
        }
    }

    // ---- ready: raw ApiVersions v0 then Metadata v4 (all topics), no client library, so it is cheap to poll.

    private static void ready(int port, long timeoutMs, int minPartitions) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        String last = "no answer";
        while (System.currentTimeMillis() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                s.setSoTimeout(5000);
                s.setTcpNoDelay(true);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                DataInputStream in = new DataInputStream(s.getInputStream());
                while (System.currentTimeMillis() < deadline) {
                    String notReady = probe(out, in, minPartitions);
                    if (notReady == null) {
                        System.out.println(System.currentTimeMillis());
                        return;
                    }
                    last = notReady;
                    // Metadata for thousands of partitions is a big answer: ask less often, not to slow the start.
                    Thread.sleep(minPartitions > 0 ? 100 : 20);
                }
            } catch (IOException e) {
                last = e.toString();
                Thread.sleep(5);
            }
        }
        System.err.println("not ready after " + timeoutMs + " ms: " + last);
        System.exit(1);
    }

    /** Null when ready, else why not. */
    private static String probe(DataOutputStream out, DataInputStream in, int minPartitions) throws IOException {
        // ApiVersions v0: api key 18, version 0, correlation id 1, null client id.
        out.writeInt(10);
        out.writeShort(18);
        out.writeShort(0);
        out.writeInt(1);
        out.writeShort(-1);
        out.flush();
        ByteBuffer r = readFrame(in);
        r.getInt(); // correlation id
        short error = r.getShort();
        if (error != 0) return "ApiVersions error " + error;

        // Metadata v4: all topics (null array), no auto-creation.
        out.writeInt(15);
        out.writeShort(3);
        out.writeShort(4);
        out.writeInt(2);
        out.writeShort(-1);
        out.writeInt(-1);
        out.writeByte(0);
        out.flush();
        r = readFrame(in);
        r.getInt(); // correlation id
        r.getInt(); // throttle time
        int brokers = r.getInt();
        if (brokers < 1) return "no brokers in Metadata";
        for (int i = 0; i < brokers; i++) {
            r.getInt();
            skipString(r);
            r.getInt();
            skipString(r);
        }
        skipString(r); // cluster id
        r.getInt(); // controller id
        int topics = r.getInt();
        int partitions = 0;
        for (int t = 0; t < topics; t++) {
            short topicError = r.getShort();
            String name = readString(r);
            boolean internal = r.get() != 0;
            if (topicError != 0) return "topic " + name + " error " + topicError;
            int n = r.getInt();
            for (int p = 0; p < n; p++) {
                short partitionError = r.getShort();
                int index = r.getInt();
                int leader = r.getInt();
                skipInt32Array(r); // replicas
                skipInt32Array(r); // isr
                if (partitionError != 0 || leader < 0) {
                    return name + "-" + index + " error " + partitionError + " leader " + leader;
                }
            }
            if (!internal) partitions += n;
        }
        return partitions >= minPartitions ? null : partitions + " of " + minPartitions + " partitions";
    }

    private static ByteBuffer readFrame(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return ByteBuffer.wrap(b);
    }

    private static void skipInt32Array(ByteBuffer r) {
        int n = r.getInt(); // read before r.position() is taken: getInt moves it
        r.position(r.position() + 4 * n);
    }

    private static void skipString(ByteBuffer r) {
        short len = r.getShort();
        if (len > 0) r.position(r.position() + len);
    }

    private static String readString(ByteBuffer r) {
        short len = r.getShort();
        if (len < 0) return null;
        byte[] b = new byte[len];
        r.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    // ---- create

    private static void create(int port, String[] specs) throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        for (String spec : specs) {
            String[] nameAndCount = spec.split(":");
            topics.add(new NewTopic(nameAndCount[0], Integer.parseInt(nameAndCount[1]), (short) 1));
        }
        try (Admin admin = admin(port)) {
            admin.createTopics(topics).all().get();
        }
    }

    private static void createMany(int port, String prefix, int topics, int partitions) throws Exception {
        try (Admin admin = admin(port)) {
            for (int t = 0; t < topics; t++) {
                admin.createTopics(List.of(new NewTopic(prefix + "-" + t, partitions, (short) 1))).all().get();
            }
        }
    }

    private static Admin admin(int port) {
        Properties props = new Properties();
        props.put("bootstrap.servers", "127.0.0.1:" + port);
        props.put("default.api.timeout.ms", "600000");
        props.put("request.timeout.ms", "600000");
        return Admin.create(props);
    }

    // ---- fanout

    private static void fanout(int port, String topic, int consumers, int rate, int seconds, int size)
            throws Exception {
        int expected = rate * seconds;
        long[][] latencies = new long[consumers][expected];
        AtomicIntegerArray counts = new AtomicIntegerArray(consumers);
        CountDownLatch assigned = new CountDownLatch(consumers);
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        String run = Long.toString(System.currentTimeMillis(), 36);
        for (int c = 0; c < consumers; c++) {
            int id = c;
            Properties props = new Properties();
            props.put("bootstrap.servers", "127.0.0.1:" + port);
            props.put("group.id", "fanout-" + run + "-" + c);
            props.put("auto.offset.reset", "latest");
            props.put("key.deserializer", ByteArrayDeserializer.class.getName());
            props.put("value.deserializer", ByteArrayDeserializer.class.getName());
            Thread t = new Thread(() -> {
                try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
                    consumer.subscribe(List.of(topic));
                    while (consumer.assignment().isEmpty()) consumer.poll(Duration.ofMillis(100));
                    consumer.assignment().forEach(consumer::position); // resolve "latest" before producing
                    assigned.countDown();
                    while (!stop.get()) {
                        for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(100))) {
                            long now = System.nanoTime();
                            int n = counts.get(id);
                            if (n < expected) {
                                latencies[id][n] = now - ByteBuffer.wrap(rec.value()).getLong();
                                counts.set(id, n + 1); // after the write: publishes it to the main thread
                            }
                        }
                    }
                }
            }, "consumer-" + c);
            t.start();
            threads.add(t);
        }
        if (!assigned.await(120, TimeUnit.SECONDS)) throw new IllegalStateException("consumers not assigned");

        Properties props = new Properties();
        props.put("bootstrap.servers", "127.0.0.1:" + port);
        props.put("acks", "1");
        props.put("linger.ms", "0");
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        long periodNs = 1_000_000_000L / rate;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            long start = System.nanoTime();
            for (int i = 0; i < expected; i++) {
                long due = start + i * periodNs;
                long wait = due - System.nanoTime();
                if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
                byte[] value = new byte[size];
                ByteBuffer.wrap(value).putLong(System.nanoTime());
                producer.send(new ProducerRecord<>(topic, value));
            }
            producer.flush();
        }
        long drainUntil = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < drainUntil && total(counts) < expected * consumers) {
            Thread.sleep(50);
        }
        stop.set(true);
        for (Thread t : threads) t.join();

        int total = total(counts);
        long[] all = new long[total];
        int k = 0;
        for (int c = 0; c < consumers; c++) {
            System.arraycopy(latencies[c], 0, all, k, counts.get(c));
            k += counts.get(c);
        }
        Arrays.sort(all);
        System.out.printf("fanout consumers=%d sent=%d delivered=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f%n",
                consumers, expected, total, pct(all, 0.50), pct(all, 0.99), total == 0 ? 0 : all[total - 1] / 1e6);
    }

    private static int total(AtomicIntegerArray counts) {
        int sum = 0;
        for (int i = 0; i < counts.length(); i++) sum += counts.get(i);
        return sum;
    }

    private static double pct(long[] sorted, double p) {
        if (sorted.length == 0) return 0;
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }

    // ---- wordcount: Kafka Streams, exactly_once_v2

    private static final int WORDS_PER_LINE = 8;
    private static final int VOCABULARY = 1000;

    private static void wordCount(int port, int records, String stateDir) throws Exception {
        String run = Long.toString(System.nanoTime(), 36);
        String in = "wc-in-" + run;
        String out = "wc-out-" + run;
        try (Admin admin = admin(port)) {
            admin.createTopics(List.of(new NewTopic(in, 3, (short) 1), new NewTopic(out, 3, (short) 1))).all().get();
        }
        Map<String, Long> expected = new HashMap<>();
        Properties pp = new Properties();
        pp.put("bootstrap.servers", "127.0.0.1:" + port);
        pp.put("linger.ms", "5");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                StringBuilder line = new StringBuilder();
                for (int w = 0; w < WORDS_PER_LINE; w++) {
                    String word = "w" + Math.floorMod(i * 31 + w * 977, VOCABULARY);
                    expected.merge(word, 1L, Long::sum);
                    line.append(w == 0 ? "" : " ").append(word);
                }
                producer.send(new ProducerRecord<>(in, Integer.toString(i), line.toString()));
            }
            producer.flush();
        }

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(in, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(line -> Arrays.asList(line.split(" ")))
                .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"))
                .toStream()
                .to(out, Produced.with(Serdes.String(), Serdes.Long()));
        Properties sp = new Properties();
        sp.put(StreamsConfig.APPLICATION_ID_CONFIG, "wordcount-" + run);
        sp.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port);
        sp.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        sp.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        sp.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, "1");
        sp.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");

        Properties cp = new Properties();
        cp.put("bootstrap.servers", "127.0.0.1:" + port);
        cp.put("isolation.level", "read_committed");
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(cp, new StringDeserializer(), new LongDeserializer())) {
            List<TopicPartition> parts = List.of(new TopicPartition(out, 0), new TopicPartition(out, 1), new TopicPartition(out, 2));
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<String, Long> seen = new HashMap<>();
            long t0 = System.nanoTime();
            try (KafkaStreams streams = new KafkaStreams(builder.build(), sp)) {
                streams.start();
                long deadline = t0 + TimeUnit.MINUTES.toNanos(10);
                int done = 0;
                while (done < expected.size()) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("word count incomplete after 10 minutes: " + done + " of "
                                + expected.size() + " words at their final count");
                    }
                    for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(100))) {
                        Long before = seen.put(r.key(), r.value());
                        long want = expected.getOrDefault(r.key(), -1L);
                        if (r.value() > want) {
                            throw new IllegalStateException("word " + r.key() + " counted " + r.value() + ", expected " + want);
                        }
                        if (r.value() == want && (before == null || before != want)) {
                            done++;
                        }
                    }
                }
                double seconds = (System.nanoTime() - t0) / 1e9;
                System.out.printf("wordcount records=%d words=%d seconds=%.2f%n", records, expected.size(), seconds);
            }
        }
    }

    // ---- share: share consumers with explicit acknowledgement

    private static void share(int port, String topic, int records, int consumers) throws Exception {
        String group = "share-" + Long.toString(System.nanoTime(), 36);
        try (Admin admin = admin(port)) {
            // A new share group starts at the latest offset unless told otherwise; these records are already there.
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), List.of(
                    new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET))))
                    .all().get();
        }
        AtomicLong acknowledged = new AtomicLong();
        AtomicLong delivered = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        AtomicLong failedAcks = new AtomicLong();
        AtomicLong firstDelivery = new AtomicLong();
        Map<Integer, java.util.BitSet> seen = new HashMap<>();
        AtomicLong duplicates = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int c = 0; c < consumers; c++) {
            Properties props = new Properties();
            props.put("bootstrap.servers", "127.0.0.1:" + port);
            props.put("group.id", group);
            props.put("client.id", group + "-" + c);
            props.put("share.acknowledgement.mode", "explicit");
            props.put("key.deserializer", ByteArrayDeserializer.class.getName());
            props.put("value.deserializer", ByteArrayDeserializer.class.getName());
            Thread t = new Thread(() -> {
                try (KafkaShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(props)) {
                    consumer.setAcknowledgementCommitCallback((offsets, error) -> {
                        long n = offsets.values().stream().mapToLong(java.util.Set::size).sum();
                        (error == null ? acknowledged : failedAcks).addAndGet(n);
                    });
                    consumer.subscribe(List.of(topic));
                    while (!stop.get()) {
                        for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(100))) {
                            firstDelivery.compareAndSet(0, System.nanoTime());
                            delivered.incrementAndGet();
                            bytes.addAndGet(rec.serializedValueSize() + Math.max(0, rec.serializedKeySize()));
                            synchronized (seen) {
                                java.util.BitSet offsets = seen.computeIfAbsent(rec.partition(), p -> new java.util.BitSet());
                                if (offsets.get((int) rec.offset())) duplicates.incrementAndGet();
                                offsets.set((int) rec.offset());
                            }
                            consumer.acknowledge(rec, AcknowledgeType.ACCEPT);
                        }
                    }
                    consumer.commitSync(); // the last poll's acknowledgements
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "share-consumer-" + c);
            t.start();
            threads.add(t);
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (acknowledged.get() < records && failure.get() == null) {
            if (System.nanoTime() > deadline) {
                stop.set(true);
                throw new IllegalStateException("share consumers acknowledged " + acknowledged.get() + " of " + records
                        + " records in 10 minutes (" + delivered.get() + " delivered)");
            }
            Thread.sleep(5);
        }
        long t1 = System.nanoTime();
        stop.set(true);
        for (Thread t : threads) t.join(60_000);
        if (failure.get() != null) throw new IllegalStateException("a share consumer failed", failure.get());
        double seconds = (t1 - firstDelivery.get()) / 1e9;
        double mb = bytes.get() * (double) records / Math.max(1, delivered.get()) / (1024 * 1024);
        System.out.printf("share consumers=%d records=%d delivered=%d duplicates=%d failed_acks=%d seconds=%.2f"
                + " records_per_s=%.0f mb_per_s=%.2f%n", consumers, records, delivered.get(), duplicates.get(),
                failedAcks.get(), seconds, records / seconds, mb / seconds);
    }

    // ---- cluster: three brokers

    private static Admin clusterAdmin(String bootstrap) {
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("default.api.timeout.ms", "60000");
        props.put("request.timeout.ms", "5000");
        return Admin.create(props);
    }

    private static void clusterReady(String bootstrap, int brokers, long timeoutMs) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMs;
        String last = "no answer";
        try (Admin admin = clusterAdmin(bootstrap)) {
            while (System.currentTimeMillis() < deadline) {
                try {
                    int n = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size();
                    if (n >= brokers) {
                        System.out.println(System.currentTimeMillis());
                        return;
                    }
                    last = n + " brokers";
                } catch (Exception e) {
                    last = e.toString();
                }
                Thread.sleep(50);
            }
        }
        System.err.println("cluster not ready after " + timeoutMs + " ms: " + last);
        System.exit(1);
    }

    private static void clusterTopic(String bootstrap, String name, int partitions, short rf, String minIsr)
            throws Exception {
        try (Admin admin = clusterAdmin(bootstrap)) {
            admin.createTopics(List.of(new NewTopic(name, partitions, rf).configs(Map.of("min.insync.replicas",
                    minIsr)))).all().get(60, TimeUnit.SECONDS);
            awaitFullIsr(admin, name, 60_000);
        }
    }

    private static void awaitFullIsr(Admin admin, String topic, long timeoutMs) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (true) {
            try {
                TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS)
                        .get(topic);
                if (d.partitions().stream().allMatch(p -> p.leader() != null && p.isr().size() == p.replicas().size())) {
                    return;
                }
            } catch (ExecutionException e) {
                // not created everywhere yet
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(topic + ": not every partition has a leader and a full ISR");
            }
            Thread.sleep(50);
        }
    }

    private static void failover(String bootstrap, String pidList) throws Exception {
        Map<Integer, Long> pids = new HashMap<>();
        for (String pair : pidList.split(",")) {
            String[] idPid = pair.split("=");
            pids.put(Integer.parseInt(idPid[0]), Long.parseLong(idPid[1]));
        }
        String topic = "failover-" + Long.toString(System.nanoTime(), 36);
        int victim;
        List<Integer> replicas = new ArrayList<>();
        try (Admin admin = clusterAdmin(bootstrap)) {
            // A killed active controller would add a quorum election to the failover: lead with another node.
            int controller = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).leaderId();
            victim = pids.keySet().stream().filter(id -> id != controller).sorted().findFirst().orElseThrow();
            replicas.add(victim);
            pids.keySet().stream().filter(id -> id != victim).sorted().forEach(replicas::add);
            admin.createTopics(List.of(new NewTopic(topic, Map.of(0, replicas)).configs(Map.of("min.insync.replicas",
                    "2")))).all().get(60, TimeUnit.SECONDS);
            awaitFullIsr(admin, topic, 60_000);
            int leader = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic)
                    .partitions().get(0).leader().id();
            if (leader != victim) {
                throw new IllegalStateException("topic " + topic + " led by " + leader + ", not " + victim);
            }
        }

        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("acks", "all");
        props.put("linger.ms", "0");
        props.put("request.timeout.ms", "2000");
        props.put("delivery.timeout.ms", "120000");
        props.put("retry.backoff.ms", "20");
        props.put("retry.backoff.max.ms", "50");
        props.put("reconnect.backoff.ms", "20");
        props.put("reconnect.backoff.max.ms", "50");
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        AtomicLong deadAt = new AtomicLong();
        AtomicLong firstAckAfter = new AtomicLong();
        AtomicLong acked = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long killedAt;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            byte[] value = new byte[100];
            long start = System.nanoTime();
            long killAt = start + TimeUnit.SECONDS.toNanos(3);
            killedAt = 0;
            long stopAt = Long.MAX_VALUE;
            for (long i = 0; System.nanoTime() < stopAt; i++) {
                long due = start + i * 1_000_000L; // one record per millisecond
                long wait = due - System.nanoTime();
                if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
                producer.send(new ProducerRecord<>(topic, 0, null, value), (metadata, error) -> {
                    long now = System.nanoTime();
                    if (error != null) {
                        failed.incrementAndGet();
                    } else {
                        acked.incrementAndGet();
                        if (deadAt.get() != 0 && now > deadAt.get()) {
                            firstAckAfter.compareAndSet(0, now);
                        }
                    }
                });
                if (killedAt == 0 && System.nanoTime() >= killAt) {
                    ProcessHandle process = ProcessHandle.of(pids.get(victim)).orElseThrow(
                            () -> new IllegalStateException("no process " + pids.get(victim)));
                    killedAt = System.nanoTime();
                    process.destroyForcibly();
                    process.onExit().get(30, TimeUnit.SECONDS);
                    deadAt.set(System.nanoTime());
                }
                if (firstAckAfter.get() != 0 && stopAt == Long.MAX_VALUE) {
                    stopAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                }
                if (killedAt != 0 && System.nanoTime() - killedAt > TimeUnit.SECONDS.toNanos(120)) {
                    throw new IllegalStateException("no acknowledgement within 120 s of killing broker " + victim);
                }
            }
            producer.flush();
        }
        int newLeader;
        try (Admin admin = clusterAdmin(bootstrap)) {
            newLeader = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic)
                    .partitions().get(0).leader().id();
        }
        System.out.printf("failover victim=%d new_leader=%d acked=%d failed=%d ms=%.0f%n", victim, newLeader,
                acked.get(), failed.get(), (firstAckAfter.get() - killedAt) / 1e6);
    }
}
