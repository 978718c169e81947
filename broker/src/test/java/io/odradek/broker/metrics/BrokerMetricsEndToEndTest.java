package io.odradek.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's producer and consumer against a broker, then its MBeans read from the platform MBean server as JmxTool
 * and dashboards read them: the counts are the records and bytes produced and fetched, per topic and in total.
 */
class BrokerMetricsEndToEndTest {
    static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    Path logDir;
    Broker broker;
    Admin admin;

    @BeforeEach
    void start() throws Exception {
        broker = Broker.start(BrokerConfig.of(Map.of("node.id", "1", "listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", logDir.toString())));
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
    }

    @AfterEach
    void stop() {
        admin.close();
        broker.close();
    }

    @Test
    void produceAndFetchAreCountedPerTopicAndInTotalUnderKafkasMBeanNames() throws Exception {
        admin.createTopics(List.of(new NewTopic("metered", 2, (short) 1), new NewTopic("other", 1, (short) 1)))
                .all().get(30, TimeUnit.SECONDS);
        try (KafkaProducer<String, String> producer = producer()) {
            for (int i = 0; i < 10; i++) { // one produce request (one batch) at a time
                producer.send(new ProducerRecord<>("metered", i % 2, "k" + i, "value-" + i)).get(30, TimeUnit.SECONDS);
            }
            producer.send(new ProducerRecord<>("other", 0, "k", "v")).get(30, TimeUnit.SECONDS);
        }
        long meteredBytes = logSize("metered", 0) + logSize("metered", 1);
        long otherBytes = logSize("other", 0);
        assertThat(meteredBytes).isPositive();

        assertThat(count(topicMeter("MessagesInPerSec", "metered"))).isEqualTo(10L);
        assertThat(count(topicMeter("BytesInPerSec", "metered"))).isEqualTo(meteredBytes);
        assertThat(count(topicMeter("TotalProduceRequestsPerSec", "metered"))).isEqualTo(10L);
        assertThat(count(topicMeter("FailedProduceRequestsPerSec", "metered"))).isEqualTo(0L);
        assertThat(count(topicMeter("MessagesInPerSec", "other"))).isEqualTo(1L);
        assertThat(count(topicMeter("MessagesInPerSec", null))).isEqualTo(11L);
        assertThat(count(topicMeter("BytesInPerSec", null))).isEqualTo(meteredBytes + otherBytes);

        List<String> seen = consumeFromTheStart("metered", 2, 10);
        assertThat(seen).hasSize(10);
        assertThat(count(topicMeter("BytesOutPerSec", "metered"))).isEqualTo(meteredBytes);
        assertThat(count(topicMeter("BytesOutPerSec", null))).isEqualTo(meteredBytes);
        assertThat(count(topicMeter("TotalFetchRequestsPerSec", "metered"))).isGreaterThanOrEqualTo(2L);
        assertThat(count(topicMeter("BytesOutPerSec", "other"))).isEqualTo(0L);

        // RequestMetrics: 11 produce requests, whatever version the client picked; their times and sizes.
        Set<ObjectName> produceRates = JMX.queryNames(
                new ObjectName("kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce,*"), null);
        assertThat(produceRates).isNotEmpty().allSatisfy(n -> assertThat(n.getKeyProperty("version")).matches("\\d+"));
        long produceRequests = 0;
        for (ObjectName n : produceRates) {
            produceRequests += count(n);
            assertThat(JMX.getAttribute(n, "EventType")).isEqualTo("requests");
        }
        assertThat(produceRequests).isEqualTo(11L);
        ObjectName totalTime = new ObjectName("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce");
        assertThat(count(totalTime)).isEqualTo(11L);
        assertThat((double) JMX.getAttribute(totalTime, "Max")).isGreaterThanOrEqualTo(0.0);
        ObjectName requestBytes = new ObjectName("kafka.network:type=RequestMetrics,name=RequestBytes,request=Produce");
        assertThat((double) JMX.getAttribute(requestBytes, "Min")).isGreaterThan(60.0); // at least a batch header
        assertThat(count(new ObjectName("kafka.network:type=RequestMetrics,name=LocalTimeMs,request=Fetch")))
                .isPositive();
        // The registry the Prometheus endpoint reads holds the same meters.
        assertThat(broker.metrics().registry().metrics()).anySatisfy(m -> assertThat(m.name())
                .isEqualTo(TopicMeters.name("MessagesInPerSec", "metered")));
    }

    @Test
    void aDeletedTopicsMBeansGoAndTheTotalsStay() throws Exception {
        admin.createTopics(List.of(new NewTopic("short-lived", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>("short-lived", "k", "v")).get(30, TimeUnit.SECONDS);
        }
        ObjectName messagesIn = topicMeter("MessagesInPerSec", "short-lived");
        assertThat(count(messagesIn)).isEqualTo(1L);

        admin.deleteTopics(List.of("short-lived")).all().get(30, TimeUnit.SECONDS);

        assertThat(JMX.isRegistered(messagesIn)).isFalse();
        assertThat(JMX.queryNames(new ObjectName("kafka.server:type=BrokerTopicMetrics,topic=short-lived,*"), null))
                .isEmpty();
        assertThat(count(topicMeter("MessagesInPerSec", null))).isEqualTo(1L);
    }

    @Test
    void aLongPollThatAnswersAfterItsTopicWasDeletedDoesNotBringItsMBeansBack() throws Exception {
        admin.createTopics(List.of(new NewTopic("parked", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        TopicPartition tp = new TopicPartition("parked", 0);
        AtomicBoolean polling = new AtomicBoolean(true);
        Thread poller;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "3000", // the fetch waits on the broker for new records
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false", // its metadata requests must not re-create it
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            poller = new Thread(() -> {
                while (polling.get()) {
                    consumer.poll(Duration.ofMillis(500));
                }
            });
            poller.start();
            Thread.sleep(1500); // the consumer's fetch is parked on the empty partition
            admin.deleteTopics(List.of("parked")).all().get(30, TimeUnit.SECONDS);
            Thread.sleep(3000); // the parked fetch answers when its wait ends
            polling.set(false);
            poller.join(10_000);
        }

        assertThat(JMX.queryNames(new ObjectName("kafka.server:type=BrokerTopicMetrics,topic=parked,*"), null))
                .isEmpty();
        assertThat(count(topicMeter("TotalFetchRequestsPerSec", null))).isPositive(); // counted broker-wide
    }

    @Test
    void aBatchOverTheTopicsMaxMessageBytesIsCountedAsBytesRejectedNotIn() throws Exception {
        admin.createTopics(List.of(new NewTopic("small-messages", 1, (short) 1)
                .configs(Map.of("max.message.bytes", "200")))).all().get(30, TimeUnit.SECONDS);
        try (KafkaProducer<String, String> producer = producer()) {
            Throwable refused = org.assertj.core.api.Assertions.catchThrowable(() -> producer.send(
                    new ProducerRecord<>("small-messages", "k", "x".repeat(500))).get(30, TimeUnit.SECONDS));
            assertThat(refused).hasCauseInstanceOf(org.apache.kafka.common.errors.RecordTooLargeException.class);
        }
        assertThat(count(topicMeter("BytesRejectedPerSec", "small-messages"))).isGreaterThan(500L);
        assertThat(count(topicMeter("BytesRejectedPerSec", null))).isGreaterThan(500L);
        assertThat(count(topicMeter("MessagesInPerSec", "small-messages"))).isZero();
        assertThat(count(topicMeter("BytesInPerSec", "small-messages"))).isZero();
        assertThat(count(topicMeter("FailedProduceRequestsPerSec", "small-messages"))).isZero(); // routine, as Kafka
        assertThat(count(new ObjectName(RequestMeters.errorsName("Produce",
                io.odradek.wire.ErrorCode.MESSAGE_TOO_LARGE).mbeanName()))).isPositive();
    }

    @Test
    void closingTheBrokerUnregistersItsMBeans() throws Exception {
        ObjectName total = topicMeter("MessagesInPerSec", null);
        assertThat(JMX.isRegistered(total)).isTrue();
        admin.close();
        broker.close();
        assertThat(JMX.isRegistered(total)).isFalse();
        assertThat(JMX.queryNames(new ObjectName("kafka.server:type=BrokerTopicMetrics,*"), null)).isEmpty();
        broker = Broker.start(BrokerConfig.of(Map.of("node.id", "1", "listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", logDir.toString(), BrokerMetrics.JMX_ENABLE, "false")));
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
        assertThat(JMX.isRegistered(total)).as("odradek.metrics.jmx.enable=false exports nothing").isFalse();
    }

    static ObjectName topicMeter(String name, String topic) throws Exception {
        return new ObjectName(TopicMeters.name(name, topic).mbeanName());
    }

    static long count(ObjectName name) throws Exception {
        return (Long) JMX.getAttribute(name, "Count");
    }

    private long logSize(String topic, int partition) throws Exception {
        Map<String, LogDirDescription> dirs = admin.describeLogDirs(List.of(1)).allDescriptions().get(30, TimeUnit.SECONDS)
                .get(1);
        return dirs.values().stream().map(d -> d.replicaInfos().get(new TopicPartition(topic, partition)))
                .filter(r -> r != null).mapToLong(r -> r.size()).sum();
    }

    private List<String> consumeFromTheStart(String topic, int partitions, int expected) {
        List<String> seen = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                tps.add(new TopicPartition(topic, p));
            }
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (seen.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    seen.add(r.value());
                }
            }
        }
        return seen;
    }

    private KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()));
    }

    private String bootstrap() {
        return "127.0.0.1:" + broker.port();
    }
}
