package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
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
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka 4.4's own consumers with {@code group.protocol=consumer} (KIP-848) against a broker on a loopback
 * port: the broker assigns, members reconcile through heartbeats, partitions move only once revoked,
 * committed offsets carry over, and the group survives a broker restart. Heartbeats every 100 ms and a
 * 3 s session keep it quick (Kafka's minimums are lowered for that).
 */
class ConsumerProtocolEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path logDir;
    int port;
    Broker broker;
    Admin admin;
    KafkaProducer<String, String> producer;
    final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // fixed, so clients find the broker again after a restart
        }
        startBroker();
    }

    private void startBroker() throws Exception {
        Map<String, String> config = new HashMap<>(Map.of(
                "node.id", "1",
                "listeners", "PLAINTEXT://127.0.0.1:" + port,
                "log.dirs", logDir.toString(),
                "offsets.topic.num.partitions", "3",
                "group.consumer.heartbeat.interval.ms", "100",
                "group.consumer.min.heartbeat.interval.ms", "50",
                "group.consumer.session.timeout.ms", "3000",
                "group.consumer.min.session.timeout.ms", "1000"));
        broker = Broker.start(BrokerConfig.of(config));
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

    private void stopBroker() {
        producer.close();
        admin.close();
        broker.close();
    }

    @Test
    void threeConsumersSplitSixPartitionsAndReadEveryRecordExactlyOnce() throws Exception {
        createTopic("orders", 6);
        List<String> sent = produce("orders", 6, 0, 600);

        long start = System.nanoTime();
        List<ProtocolConsumer> consumers = List.of(consumer("three", "orders", "c1"), consumer("three", "orders", "c2"),
                consumer("three", "orders", "c3"));
        await("every consumer has 2 partitions", () -> consumers.stream().allMatch(c -> c.assignment().size() == 2)
                && union(consumers).size() == 6);
        System.out.println("KIP-848 REBALANCE: 3 members from first heartbeat to all assigned (2 partitions each) in "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");

        await("all 600 records consumed", () -> consumers.stream().mapToInt(c -> c.seen.size()).sum() >= 600);
        Thread.sleep(300); // nothing more should come
        List<String> seen = new ArrayList<>();
        consumers.forEach(c -> seen.addAll(c.seen));
        int uncommitted = consumers.stream().mapToInt(c -> c.uncommitted.get()).sum();
        assertThat(new HashSet<>(seen)).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(seen.size() - 600).as("records seen twice").isLessThanOrEqualTo(uncommitted);
        assertThat(consumers).allSatisfy(c -> assertThat(c.failure()).isNull());
    }

    @Test
    void whenAConsumerClosesTheOthersTakeOverItsPartitionsFromTheCommittedOffsets() throws Exception {
        createTopic("jobs", 6);
        List<String> sent = new ArrayList<>(produce("jobs", 6, 0, 300));
        ProtocolConsumer a = consumer("takeover", "jobs", "a");
        ProtocolConsumer b = consumer("takeover", "jobs", "b");
        ProtocolConsumer c = consumer("takeover", "jobs", "c");
        List<ProtocolConsumer> all = List.of(a, b, c);
        await("two partitions each", () -> all.stream().allMatch(x -> x.assignment().size() == 2));
        await("the first 300 records consumed", () -> distinct(all).size() == 300);
        Set<TopicPartition> fromC = c.assignment();

        c.close(); // leaves with epoch -1: the group epoch moves and a and b are given c's partitions
        sent.addAll(produce("jobs", 6, 300, 300));
        await("a and b own all six partitions", () -> a.assignment().size() == 3 && b.assignment().size() == 3);
        await("all 600 records consumed", () -> distinct(all).size() == 600);
        Thread.sleep(300);

        assertThat(distinct(all)).containsExactlyInAnyOrderElementsOf(sent);
        int total = all.stream().mapToInt(x -> x.seen.size()).sum();
        int uncommitted = all.stream().mapToInt(x -> x.uncommitted.get()).sum();
        assertThat(total - 600).as("records seen twice").isLessThanOrEqualTo(uncommitted);
        assertThat(a.assignment()).doesNotContainAnyElementsOf(b.assignment());
        assertThat(union(List.of(a, b))).containsAll(fromC);
        Map<TopicPartition, OffsetAndMetadata> committed =
                admin.listConsumerGroupOffsets("takeover").partitionsToOffsetAndMetadata().get();
        assertThat(committed.values()).extracting(OffsetAndMetadata::offset).containsOnly(100L);
    }

    @Test
    void membersCarryOnAcrossABrokerRestart() throws Exception {
        createTopic("durable", 4);
        List<String> sent = new ArrayList<>(produce("durable", 4, 0, 80));
        ProtocolConsumer a = consumer("keeper", "durable", "a");
        ProtocolConsumer b = consumer("keeper", "durable", "b");
        List<ProtocolConsumer> both = List.of(a, b);
        await("the first 80 records consumed", () -> distinct(both).size() == 80);
        await("two partitions each", () -> a.assignment().size() == 2 && b.assignment().size() == 2);
        ConsumerGroupDescription before = describe("keeper");

        stopBroker();
        startBroker();
        ConsumerGroupDescription reloaded = describe("keeper");
        assertThat(reloaded.members()).extracting(MemberDescription::consumerId)
                .containsExactlyInAnyOrderElementsOf(memberIds(before));
        assertThat(reloaded.groupEpoch()).isEqualTo(before.groupEpoch());

        sent.addAll(produce("durable", 4, 80, 80));
        await("the 80 new records consumed", () -> distinct(both).size() == 160);
        assertThat(distinct(both)).containsExactlyInAnyOrderElementsOf(sent);
        // The members heartbeat on with their epochs: same ids, no rebalance.
        ConsumerGroupDescription after = describe("keeper");
        assertThat(memberIds(after)).containsExactlyInAnyOrderElementsOf(memberIds(before));
        assertThat(after.groupEpoch()).isEqualTo(before.groupEpoch());
        assertThat(both).allSatisfy(c -> assertThat(c.failure()).isNull());
    }

    @Test
    void theAdminClientSeesAConsumerTypeGroupWithMembersAndAssignments() throws Exception {
        createTopic("seen", 4);
        ProtocolConsumer a = consumer("described", "seen", "a");
        ProtocolConsumer b = consumer("described", "seen", "b", Map.of(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, "uniform"));
        await("two partitions each", () -> a.assignment().size() == 2 && b.assignment().size() == 2);
        await("the group is stable", () -> describe("described").groupState() == GroupState.STABLE);

        ConsumerGroupDescription d = describe("described");
        assertThat(d.type()).isEqualTo(GroupType.CONSUMER);
        assertThat(d.partitionAssignor()).isEqualTo("uniform");
        assertThat(d.isSimpleConsumerGroup()).isFalse();
        assertThat(d.groupEpoch()).contains(2);
        assertThat(d.targetAssignmentEpoch()).contains(2);
        assertThat(d.members()).extracting(MemberDescription::clientId).containsExactlyInAnyOrder("a", "b");
        assertThat(d.members()).allSatisfy(m -> {
            assertThat(m.host()).isEqualTo("/127.0.0.1");
            assertThat(m.memberEpoch()).contains(2);
            assertThat(m.assignment().topicPartitions()).hasSize(2);
            assertThat(m.targetAssignment()).hasValueSatisfying(t -> assertThat(t.topicPartitions()).isEqualTo(m.assignment().topicPartitions()));
        });
        Set<TopicPartition> assigned = new HashSet<>();
        d.members().forEach(m -> assigned.addAll(m.assignment().topicPartitions()));
        assertThat(assigned).containsExactlyInAnyOrderElementsOf(
                IntStream.range(0, 4).mapToObj(p -> new TopicPartition("seen", p)).toList());

        GroupListing listed = admin.listGroups().all().get().stream()
                .filter(g -> g.groupId().equals("described")).findFirst().orElseThrow();
        assertThat(listed.type()).contains(GroupType.CONSUMER);
        assertThat(listed.protocol()).isEqualTo("consumer");
        assertThat(listed.groupState()).contains(GroupState.STABLE);
    }

    // ------------------------------------------------------------------ helpers

    private ConsumerGroupDescription describe(String group) {
        try {
            return admin.describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group);
        } catch (Exception e) {
            throw new AssertionError("describeConsumerGroups failed", e);
        }
    }

    private static List<String> memberIds(ConsumerGroupDescription d) {
        return d.members().stream().map(MemberDescription::consumerId).toList();
    }

    private String bootstrap() {
        return "127.0.0.1:" + port;
    }

    private void createTopic(String name, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }

    /** Sends "topic-i" for i in [from, from+count), spread over the partitions round-robin; returns the values. */
    private List<String> produce(String topic, int partitions, int from, int count) throws Exception {
        List<String> values = IntStream.range(from, from + count).mapToObj(i -> topic + "-" + i).toList();
        for (int i = 0; i < count; i++) {
            producer.send(new ProducerRecord<>(topic, (from + i) % partitions, "k", values.get(i)));
        }
        producer.flush();
        return values;
    }

    private ProtocolConsumer consumer(String group, String topic, String clientId) {
        return consumer(group, topic, clientId, Map.of());
    }

    private ProtocolConsumer consumer(String group, String topic, String clientId, Map<String, String> overrides) {
        Map<String, String> config = new HashMap<>(overrides);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        ProtocolConsumer c = new ProtocolConsumer(bootstrap(), group, topic, config);
        closeables.add(0, c);
        return c;
    }

    private static Set<TopicPartition> union(List<ProtocolConsumer> consumers) {
        Set<TopicPartition> all = new HashSet<>();
        consumers.forEach(c -> all.addAll(c.assignment()));
        return all;
    }

    private static Set<String> distinct(List<ProtocolConsumer> consumers) {
        Set<String> all = new HashSet<>();
        consumers.forEach(c -> all.addAll(c.seen));
        return all;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }
}
