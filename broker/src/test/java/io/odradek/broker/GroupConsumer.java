package io.odradek.broker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A real {@link KafkaConsumer} using {@code subscribe()} on its own thread, the way an application runs
 * one: poll, record what arrived, commit synchronously, repeat. The test thread watches what it saw and
 * what it was assigned.
 */
final class GroupConsumer implements AutoCloseable {
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Set<TopicPartition> assignment = Set.of();
    private volatile int generation = -1;
    private volatile Throwable failure;
    /** "value" of every record polled, in order. */
    final List<String> seen = new CopyOnWriteArrayList<>();
    /** Partitions handed over in each onPartitionsRevoked call (cooperative: only those that move). */
    final List<Set<TopicPartition>> revoked = new CopyOnWriteArrayList<>();
    final List<Set<TopicPartition>> assigned = new CopyOnWriteArrayList<>();
    /** Records polled whose commit failed (a rebalance came first): the only ones that may be seen again. */
    final AtomicInteger uncommitted = new AtomicInteger();

    GroupConsumer(String bootstrap, String group, String topic, Map<String, String> overrides) {
        Map<String, Object> config = new HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000",
                ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "500",
                ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "20000",
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
        config.putAll(overrides);
        thread = new Thread(() -> run(config, topic), "consumer-" + group + "-" + overrides.getOrDefault(
                ConsumerConfig.CLIENT_ID_CONFIG, Integer.toHexString(System.identityHashCode(this))));
        thread.setDaemon(true);
        thread.start();
    }

    private void run(Map<String, Object> config, String topic) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    revoked.add(Set.copyOf(partitions));
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    assigned.add(Set.copyOf(partitions));
                }
            });
            while (running) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));
                for (ConsumerRecord<String, String> r : records) {
                    seen.add(r.value());
                }
                if (!records.isEmpty()) {
                    try {
                        consumer.commitSync();
                    } catch (CommitFailedException | RebalanceInProgressException e) {
                        uncommitted.addAndGet(records.count());
                    }
                }
                assignment = Set.copyOf(consumer.assignment());
                generation = consumer.groupMetadata().generationId();
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    Set<TopicPartition> assignment() {
        return assignment;
    }

    int generation() {
        return generation;
    }

    Throwable failure() {
        return failure;
    }

    List<String> seenSorted() {
        List<String> copy = new ArrayList<>(seen);
        Collections.sort(copy);
        return copy;
    }

    /** Stops polling and closes the consumer (a dynamic member leaves the group; a static one stays). */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
