package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the classic and KIP-848 group end-to-end tests share: a broker on a loopback port with an admin
 * client and a producer, {@link SubscribedConsumer}s of the subclass's protocol (closed after each test),
 * and the waits and checks their scenarios are made of.
 */
abstract class GroupScenarios {
    static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path logDir;
    Broker broker;
    Admin admin;
    KafkaProducer<String, String> producer;
    final List<AutoCloseable> closeables = new ArrayList<>();

    abstract SubscribedConsumer.Protocol protocol();

    /** Read at every (re)start. */
    abstract Map<String, String> brokerConfig();

    @BeforeEach
    void start() throws Exception {
        startBroker();
    }

    void startBroker() throws Exception {
        broker = Broker.start(BrokerConfig.of(brokerConfig()));
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
        producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, "5"),
                new StringSerializer(), new StringSerializer());
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        closeables.clear();
        stopBroker();
    }

    void stopBroker() {
        producer.close();
        admin.close();
        broker.close();
    }

    String bootstrap() {
        return "127.0.0.1:" + broker.port();
    }

    void createTopic(String name, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }

    /** Sends "topic-i" for i in [from, from+count), spread over the partitions round-robin; returns the values. */
    List<String> produce(String topic, int partitions, int from, int count) throws Exception {
        List<String> values = IntStream.range(from, from + count).mapToObj(i -> topic + "-" + i).toList();
        for (int i = 0; i < count; i++) {
            producer.send(new ProducerRecord<>(topic, (from + i) % partitions, "k", values.get(i)));
        }
        producer.flush();
        return values;
    }

    SubscribedConsumer consumer(String group, String topic, String clientId) {
        return consumer(group, topic, clientId, Map.of());
    }

    SubscribedConsumer consumer(String group, String topic, String clientId, Map<String, String> overrides) {
        Map<String, String> config = new HashMap<>(overrides);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        return track(new SubscribedConsumer(protocol(), bootstrap(), group, topic, config));
    }

    /** One member per client id, started in that order. */
    List<SubscribedConsumer> consumers(String group, String topic, String... clientIds) {
        List<SubscribedConsumer> members = new ArrayList<>();
        for (String clientId : clientIds) {
            members.add(consumer(group, topic, clientId));
        }
        return List.copyOf(members);
    }

    /** Closed after the test, before the broker, most recent first. */
    <T extends AutoCloseable> T track(T closeable) {
        closeables.add(0, closeable);
        return closeable;
    }

    // ------------------------------------------------------------------ scenario steps

    /** Waits until the members own all {@code partitions} between them, the same number each. */
    static void awaitEvenSplit(List<SubscribedConsumer> members, int partitions) throws InterruptedException {
        int each = partitions / members.size();
        await("every consumer has " + each + " partitions", () -> members.stream()
                .allMatch(c -> c.assignment().size() == each) && union(members).size() == partitions);
    }

    /** Waits until the members have polled {@code count} records between them, repeats included. */
    static void awaitPolled(List<SubscribedConsumer> members, int count) throws InterruptedException {
        await("all " + count + " records consumed", () -> members.stream().mapToInt(c -> c.seen.size()).sum() >= count);
    }

    /** Every record sent was seen, and any seen twice is accounted for by a commit that failed. */
    static void assertSeenOnceUnlessUncommitted(List<SubscribedConsumer> members, List<String> sent) {
        List<String> seen = allSeen(members);
        int uncommitted = members.stream().mapToInt(c -> c.uncommitted.get()).sum();
        assertThat(new HashSet<>(seen)).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(seen.size() - sent.size()).as("records seen twice").isLessThanOrEqualTo(uncommitted);
    }

    /** After a third member left: the two left split the partitions, including every one it had. */
    static void assertTookOver(SubscribedConsumer a, SubscribedConsumer b, Set<TopicPartition> fromLeaver) {
        assertThat(a.assignment()).doesNotContainAnyElementsOf(b.assignment());
        assertThat(union(List.of(a, b))).containsAll(fromLeaver);
    }

    static void assertNoneFailed(List<SubscribedConsumer> members) {
        assertThat(members).allSatisfy(c -> assertThat(c.failure()).isNull());
    }

    // ------------------------------------------------------------------ tallies

    /** Every value polled, member by member. */
    static List<String> allSeen(List<SubscribedConsumer> members) {
        List<String> all = new ArrayList<>();
        members.forEach(c -> all.addAll(c.seen));
        return all;
    }

    static Set<TopicPartition> union(List<SubscribedConsumer> members) {
        Set<TopicPartition> all = new HashSet<>();
        members.forEach(c -> all.addAll(c.assignment()));
        return all;
    }

    static Set<String> distinct(List<SubscribedConsumer> members) {
        return new HashSet<>(allSeen(members));
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    static long millisSince(long nanoStart) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanoStart);
    }
}
