package io.odradek.broker;

import java.time.Duration;
import java.util.Collection;
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
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A real {@link KafkaConsumer} with {@code group.protocol=consumer} (KIP-848) on its own thread: poll,
 * record what arrived, commit synchronously, repeat. Heartbeats, session timeout and assignment are the
 * broker's business in this protocol, so none of the classic consumer's timeouts are set.
 */
final class ProtocolConsumer implements AutoCloseable {
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Set<TopicPartition> assignment = Set.of();
    private volatile Throwable failure;
    private volatile String memberId = "";
    /** "value" of every record polled, in order. */
    final List<String> seen = new CopyOnWriteArrayList<>();
    final List<Set<TopicPartition>> revoked = new CopyOnWriteArrayList<>();
    /** Records polled whose commit failed: the only ones another member may see again. */
    final AtomicInteger uncommitted = new AtomicInteger();

    ProtocolConsumer(String bootstrap, String group, String topic, Map<String, String> overrides) {
        Map<String, Object> config = new HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
        config.putAll(overrides);
        thread = new Thread(() -> run(config, topic), "consumer-" + group + "-"
                + overrides.getOrDefault(ConsumerConfig.CLIENT_ID_CONFIG, "?"));
        thread.setDaemon(true);
        thread.start();
    }

    private void run(Map<String, Object> config, String topic) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    if (!partitions.isEmpty()) {
                        revoked.add(Set.copyOf(partitions));
                    }
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
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
                    } catch (CommitFailedException e) {
                        uncommitted.addAndGet(records.count());
                    }
                }
                assignment = Set.copyOf(consumer.assignment());
                memberId = consumer.groupMetadata().memberId();
            }
        } catch (KafkaException | IllegalStateException e) {
            failure = e;
        } catch (Throwable t) {
            failure = t;
        }
    }

    Set<TopicPartition> assignment() {
        return assignment;
    }

    String memberId() {
        return memberId;
    }

    Throwable failure() {
        return failure;
    }

    /** Stops polling and closes the consumer: it leaves the group (member epoch -1). */
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
