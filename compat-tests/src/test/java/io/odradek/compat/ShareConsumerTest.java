package io.odradek.compat;

import static io.odradek.compat.ShareClients.offsetAndCount;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Share groups (KIP-932) with Kafka 4.4's KafkaShareConsumer, acknowledging explicitly: records of one partition
 * handed to whichever member asks, each accepted record delivered once, released and timed-out records
 * redelivered with a higher delivery count, rejected ones and those past share.delivery.count.limit archived,
 * the state kept across a broker restart. Checked against Apache Kafka 4.4 too (see {@link KafkaProcess}).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ShareConsumerTest {
    private static final String TOPIC = "jobs";
    private static final String GROUP = "workers";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    private static final Duration WAIT = Duration.ofSeconds(20);

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of(
            "offsets.topic.num.partitions", "3",
            "share.coordinator.state.topic.num.partitions", "3"));

    private void earliestGroup(Map<String, String> more) {
        Map<String, String> configs = new HashMap<>(more);
        configs.put("share.auto.offset.reset", "earliest");
        ShareClients.setGroupConfigs(broker, GROUP, configs);
    }

    private KafkaShareConsumer<String, String> consumer(String clientId) {
        KafkaShareConsumer<String, String> consumer = ShareClients.explicitConsumer(broker, GROUP, clientId, Map.of());
        consumer.subscribe(List.of(TOPIC));
        return consumer;
    }

    @Test
    void threeConsumersOnOnePartitionShareItsRecordsEachDeliveredToExactlyOne() throws Exception {
        broker.createTopic(TOPIC, 1);
        earliestGroup(Map.of());
        int total = 300;
        Map<String, List<ConsumerRecord<String, String>>> byConsumer = new ConcurrentHashMap<>();
        AtomicBoolean done = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<?>> workers = new ArrayList<>();
        for (String name : List.of("worker-a", "worker-b", "worker-c")) {
            // Small polls, and a little work per record, as a queue's workers: the others get their turn.
            KafkaShareConsumer<String, String> consumer = ShareClients.explicitConsumer(broker, GROUP, name,
                    Map.of("max.poll.records", 10));
            consumer.subscribe(List.of(TOPIC));
            byConsumer.put(name, new CopyOnWriteArrayList<>());
            workers.add(pool.submit(() -> {
                while (!done.get()) {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                        sleep(5);
                        consumer.acknowledge(record, AcknowledgeType.ACCEPT);
                        byConsumer.get(name).add(record);
                    }
                    consumer.commitSync();
                }
                return null;
            }));
        }
        // Every consumer holds the partition before the records come (else the first member assigned may take them all).
        ShareClients.awaitMembersAssigned(broker, GROUP, PARTITION, 3);
        // Single-record batches, so no batch is bigger than a poll.
        ShareClients.produceOneByOne(broker, TOPIC, 0, total);
        long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
        while (byConsumer.values().stream().mapToInt(List::size).sum() < total && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        Thread.sleep(1000); // a duplicate delivery would show up here
        done.set(true);
        for (Future<?> worker : workers) {
            worker.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();

        List<Long> offsets = byConsumer.values().stream().flatMap(List::stream).map(ConsumerRecord::offset)
                .sorted().toList();
        assertThat(offsets).as("every offset delivered to exactly one consumer")
                .containsExactlyElementsOf(IntStream.range(0, total).mapToObj(i -> (long) i).toList());
        for (List<ConsumerRecord<String, String>> records : byConsumer.values()) {
            for (ConsumerRecord<String, String> r : records) {
                assertThat(r.key() + "=" + r.value() + "@" + r.deliveryCount().orElse((short) -1))
                        .isEqualTo("key-" + r.offset() + "=value-" + r.offset() + "@1");
            }
        }
        Map<String, Integer> counts = byConsumer.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().size()));
        assertThat(counts.values().stream().filter(n -> n > 0).count())
                .as("consumers that got records: " + counts).isGreaterThanOrEqualTo(2);
        ShareClients.awaitLag(broker, GROUP, PARTITION, 0);
    }

    @Test
    void aReleasedRecordIsRedeliveredWithDeliveryCountTwo() throws Exception {
        broker.createTopic(TOPIC, 1);
        earliestGroup(Map.of());
        ShareClients.produce(broker, TOPIC, 0, 3);
        KafkaShareConsumer<String, String> consumer = consumer("releaser");

        List<ConsumerRecord<String, String>> first = ShareClients.pollOnce(consumer, WAIT);
        assertThat(first).extracting(ShareClients::offsetAndCount).containsExactly("0@1", "1@1", "2@1");
        consumer.acknowledge(first.get(0), AcknowledgeType.ACCEPT);
        consumer.acknowledge(first.get(1), AcknowledgeType.RELEASE);
        consumer.acknowledge(first.get(2), AcknowledgeType.ACCEPT);
        consumer.commitSync();

        List<ConsumerRecord<String, String>> second = ShareClients.pollOnce(consumer, WAIT);
        assertThat(second).extracting(ShareClients::offsetAndCount).containsExactly("1@2");
        assertThat(second.get(0).value()).isEqualTo("value-1");
        consumer.acknowledge(second.get(0), AcknowledgeType.ACCEPT);
        consumer.commitSync();

        assertThat(ShareClients.pollFor(consumer, Duration.ofSeconds(2))).isEmpty();
        ShareClients.awaitLag(broker, GROUP, PARTITION, 0);
    }

    @Test
    void aRecordNotAcknowledgedWithinTheLockDurationGoesToAnotherConsumerWithAHigherDeliveryCount() throws Exception {
        broker.createTopic(TOPIC, 1);
        // 15 s: the lowest share.record.lock.duration.ms a group may set (group.share.min.record.lock.duration.ms).
        earliestGroup(Map.of("share.record.lock.duration.ms", "15000"));
        ShareClients.produce(broker, TOPIC, 0, 2);
        KafkaShareConsumer<String, String> stalled = consumer("stalled");
        List<ConsumerRecord<String, String>> taken = ShareClients.pollOnce(stalled, WAIT);
        long takenAt = System.nanoTime();
        assertThat(taken).extracting(ShareClients::offsetAndCount).containsExactly("0@1", "1@1");
        assertThat(stalled.acquisitionLockTimeoutMs()).contains(15000);

        // The stalled consumer stays in the group (heartbeating) but never acknowledges nor polls again.
        KafkaShareConsumer<String, String> other = consumer("other");
        List<ConsumerRecord<String, String>> redelivered = ShareClients.pollOnce(other, Duration.ofSeconds(40));
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - takenAt);

        assertThat(redelivered).extracting(ShareClients::offsetAndCount).containsExactly("0@2", "1@2");
        assertThat(redelivered).extracting(ConsumerRecord::value).containsExactly("value-0", "value-1");
        assertThat(waitedMs).as("redelivered only once the lock ran out").isGreaterThanOrEqualTo(14_000);
        redelivered.forEach(r -> other.acknowledge(r, AcknowledgeType.ACCEPT));
        other.commitSync();
        ShareClients.awaitLag(broker, GROUP, PARTITION, 0);
    }

    @Test
    void aRejectedRecordIsArchivedAndNeverRedelivered() throws Exception {
        broker.createTopic(TOPIC, 1);
        earliestGroup(Map.of());
        ShareClients.produce(broker, TOPIC, 0, 3);
        KafkaShareConsumer<String, String> consumer = consumer("rejecter");

        List<ConsumerRecord<String, String>> first = ShareClients.pollOnce(consumer, WAIT);
        assertThat(first).extracting(ShareClients::offsetAndCount).containsExactly("0@1", "1@1", "2@1");
        consumer.acknowledge(first.get(0), AcknowledgeType.RELEASE);
        consumer.acknowledge(first.get(1), AcknowledgeType.REJECT);
        consumer.acknowledge(first.get(2), AcknowledgeType.RELEASE);
        consumer.commitSync();

        List<ConsumerRecord<String, String>> second = ShareClients.pollOnce(consumer, WAIT);
        assertThat(second).extracting(ShareClients::offsetAndCount).containsExactly("0@2", "2@2");
        second.forEach(r -> consumer.acknowledge(r, AcknowledgeType.ACCEPT));
        consumer.commitSync();

        assertThat(ShareClients.pollFor(consumer, Duration.ofSeconds(2))).as("the rejected record").isEmpty();
        ShareClients.awaitLag(broker, GROUP, PARTITION, 0);
    }

    @Test
    void aRecordReleasedUpToTheDeliveryCountLimitIsArchived() throws Exception {
        broker.createTopic(TOPIC, 1);
        // 2: the lowest share.delivery.count.limit a group may set (group.share.min.delivery.count.limit).
        earliestGroup(Map.of("share.delivery.count.limit", "2"));
        ShareClients.produce(broker, TOPIC, 0, 1);
        KafkaShareConsumer<String, String> consumer = consumer("releaser");

        List<String> deliveries = new ArrayList<>();
        for (int attempt = 0; attempt < 2; attempt++) {
            List<ConsumerRecord<String, String>> records = ShareClients.pollOnce(consumer, WAIT);
            records.forEach(r -> deliveries.add(offsetAndCount(r)));
            records.forEach(r -> consumer.acknowledge(r, AcknowledgeType.RELEASE));
            consumer.commitSync();
        }
        assertThat(deliveries).containsExactly("0@1", "0@2");
        assertThat(ShareClients.pollFor(consumer, Duration.ofSeconds(2))).as("archived at the limit").isEmpty();
        ShareClients.awaitLag(broker, GROUP, PARTITION, 0);

        ShareClients.produce(broker, TOPIC, 1, 2);
        List<ConsumerRecord<String, String>> next = ShareClients.pollOnce(consumer, WAIT);
        assertThat(next).extracting(ShareClients::offsetAndCount).containsExactly("1@1");
        next.forEach(r -> consumer.acknowledge(r, AcknowledgeType.ACCEPT));
        consumer.commitSync();
        ShareClients.awaitLag(broker, GROUP, PARTITION, 0);
    }

    @Test
    void acknowledgedRecordsStayAcknowledgedAndReleasedOnesKeepTheirDeliveryCountAcrossABrokerRestart()
            throws Exception {
        broker.createTopic(TOPIC, 1);
        earliestGroup(Map.of());
        ShareClients.produce(broker, TOPIC, 0, 10);
        KafkaShareConsumer<String, String> consumer = consumer("before-restart");
        List<ConsumerRecord<String, String>> first = ShareClients.pollOnce(consumer, WAIT);
        assertThat(first).hasSize(10);
        // Accept 0-3 and 6; release 4, 5 and 7-9.
        for (ConsumerRecord<String, String> r : first) {
            boolean accept = r.offset() < 4 || r.offset() == 6;
            consumer.acknowledge(r, accept ? AcknowledgeType.ACCEPT : AcknowledgeType.RELEASE);
        }
        consumer.commitSync();
        List<ConsumerRecord<String, String>> second = ShareClients.pollOnce(consumer, WAIT);
        assertThat(second).extracting(ShareClients::offsetAndCount)
                .containsExactly("4@2", "5@2", "7@2", "8@2", "9@2");
        // Accept 5, release the rest again.
        for (ConsumerRecord<String, String> r : second) {
            consumer.acknowledge(r, r.offset() == 5 ? AcknowledgeType.ACCEPT : AcknowledgeType.RELEASE);
        }
        consumer.commitSync();
        ShareClients.awaitLag(broker, GROUP, PARTITION, 4); // 4, 7, 8 and 9 released
        broker.closeClients();

        broker.restart();

        KafkaShareConsumer<String, String> after = consumer("after-restart");
        List<ConsumerRecord<String, String>> redelivered = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (redelivered.size() < 4 && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> r : after.poll(Duration.ofMillis(500))) {
                redelivered.add(r);
                after.acknowledge(r, AcknowledgeType.ACCEPT);
            }
            after.commitSync();
        }
        assertThat(redelivered).extracting(ShareClients::offsetAndCount)
                .containsExactly("4@3", "7@3", "8@3", "9@3");
        assertThat(ShareClients.pollFor(after, Duration.ofSeconds(2))).isEmpty();
        ShareClients.awaitLag(broker, GROUP, PARTITION, 0);
    }

    @Test
    void aShareConsumerUsingTheIdOfAConsumerGroupGetsGroupIdNotFound() throws Exception {
        broker.createTopic(TOPIC, 1);
        ShareClients.produce(broker, TOPIC, 0, 1);
        KafkaConsumer<String, String> member = Clients.consumer(broker, Map.of(
                ConsumerConfig.GROUP_ID_CONFIG, GROUP,
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));
        member.subscribe(List.of(TOPIC));
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (member.assignment().isEmpty() && System.nanoTime() < deadline) {
            member.poll(Duration.ofMillis(200));
        }
        assertThat(member.assignment()).containsExactly(PARTITION);

        KafkaShareConsumer<String, String> intruder = consumer("intruder");
        Throwable thrown = null;
        deadline = System.nanoTime() + WAIT.toNanos();
        while (thrown == null && System.nanoTime() < deadline) {
            try {
                intruder.poll(Duration.ofMillis(500)).forEach(r -> {
                    throw new AssertionError("a record delivered to a share consumer of a consumer group: " + r);
                });
            } catch (KafkaException e) {
                thrown = e;
            }
        }
        assertThat(thrown).isInstanceOf(GroupIdNotFoundException.class)
                .hasMessage("Group " + GROUP + " is not a share group.");
        assertThat(OdradekBroker.await(broker.admin().describeConsumerGroups(List.of(GROUP)).all()).get(GROUP)
                .members()).hasSize(1);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
