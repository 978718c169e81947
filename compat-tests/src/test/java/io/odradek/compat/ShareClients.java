package io.odradek.compat;

import static io.odradek.compat.OdradekBroker.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Kafka 4.4's share consumers (KIP-932) and the Admin calls around a share group, against a test broker. */
final class ShareClients {
    private ShareClients() {
    }

    /** A share consumer acknowledging explicitly (share.acknowledgement.mode=explicit), as the tests do. */
    static KafkaShareConsumer<String, String> explicitConsumer(OdradekBroker broker, String group, String clientId,
            Map<String, Object> settings) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        config.putAll(settings);
        return broker.track(new KafkaShareConsumer<>(config, new StringDeserializer(), new StringDeserializer()));
    }

    /** Sets dynamic group configs (IncrementalAlterConfigs on a GROUP resource), e.g. share.auto.offset.reset. */
    static void setGroupConfigs(OdradekBroker broker, String group, Map<String, String> configs) {
        List<AlterConfigOp> ops = new ArrayList<>();
        configs.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
        await(broker.admin().incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), ops))
                .all());
    }

    /** Produces key-i / value-i for i in [from, to) to partition 0 of the topic, in one batch where they fit. */
    static void produce(OdradekBroker broker, String topic, int from, int to) {
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of(
                "linger.ms", 50, "batch.size", 1 << 20));
        for (int i = from; i < to; i++) {
            producer.send(new ProducerRecord<>(topic, 0, "key-" + i, "value-" + i));
        }
        producer.flush();
    }

    /** As {@link #produce}, but each record acknowledged before the next is sent: one batch per record. */
    static void produceOneByOne(OdradekBroker broker, String topic, int from, int to) throws Exception {
        KafkaProducer<String, String> producer = Clients.producer(broker, Map.of("linger.ms", 0));
        for (int i = from; i < to; i++) {
            producer.send(new ProducerRecord<>(topic, 0, "key-" + i, "value-" + i)).get();
        }
    }

    /**
     * Polls until a poll returns records (the acquired records of one ShareFetch), or fails after the timeout.
     * With explicit acknowledgement they must all be acknowledged before the next poll.
     */
    static List<ConsumerRecord<String, String>> pollOnce(KafkaShareConsumer<String, String> consumer,
            Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            consumer.poll(Duration.ofMillis(500)).forEach(records::add);
            if (!records.isEmpty()) {
                return records;
            }
        }
        throw new AssertionError("no records delivered within " + timeout);
    }

    /** Polls for this long and returns whatever was delivered (acknowledging nothing): to show nothing comes. */
    static List<ConsumerRecord<String, String>> pollFor(KafkaShareConsumer<String, String> consumer,
            Duration duration) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        long deadline = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < deadline && records.isEmpty()) {
            consumer.poll(Duration.ofMillis(500)).forEach(records::add);
        }
        return records;
    }

    /** Offset and delivery count of a record, e.g. "3@2": what a test compares. */
    static String offsetAndCount(ConsumerRecord<?, ?> record) {
        return record.offset() + "@" + record.deliveryCount().map(String::valueOf).orElse("?");
    }

    /** The share group's start offset and lag per partition (DescribeShareGroupOffsets). */
    static Map<TopicPartition, SharePartitionOffsetInfo> offsets(OdradekBroker broker, String group) {
        return await(broker.admin().listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
                .partitionsToOffsetInfo(group));
    }

    /**
     * Waits (up to 30 s) until the group's lag on the partition (DescribeShareGroupOffsets: records after the start
     * offset not yet acknowledged or archived) is this. Acknowledgements reach the share-group state after
     * commitSync returns. The start offset reported beside it is the persisted one, which Kafka advances lazily
     * (on a later state write), so the tests judge the lag.
     */
    static SharePartitionOffsetInfo awaitLag(OdradekBroker broker, String group, TopicPartition partition,
            long expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        SharePartitionOffsetInfo info = offsets(broker, group).get(partition);
        while ((info == null || !info.lag().equals(Optional.of(expected))) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            info = offsets(broker, group).get(partition);
        }
        if (info == null || !info.lag().equals(Optional.of(expected))) {
            throw new AssertionError("lag of " + group + " on " + partition + ": expected " + expected
                    + " within 30 s, still " + info);
        }
        return info;
    }

    /**
     * Waits (up to 30 s) until {@code members} members of the share group hold the partition (ShareGroupDescribe).
     * A member joining a new group gets its partitions on a heartbeat after their share state is initialized (up to
     * a heartbeat interval later, with Kafka too): a test about sharing starts once every consumer may fetch.
     */
    static void awaitMembersAssigned(OdradekBroker broker, String group, TopicPartition partition, int members)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        long assigned = 0;
        while (System.nanoTime() < deadline) {
            try {
                assigned = await(broker.admin().describeShareGroups(List.of(group)).describedGroups().get(group))
                        .members().stream().filter(m -> m.assignment().topicPartitions().contains(partition)).count();
            } catch (GroupIdNotFoundException e) {
                assigned = 0; // no member has joined yet
            }
            if (assigned >= members) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(assigned + " of " + members + " members of " + group + " hold " + partition + " after 30 s");
    }
}
