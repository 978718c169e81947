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
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A real {@link KafkaConsumer} using {@code subscribe()} on its own thread, the way an application runs
 * one: poll, record what arrived, commit synchronously, repeat. The test thread watches what it saw and
 * what it was assigned. {@link Protocol} picks the group protocol and what goes with it.
 */
final class SubscribedConsumer implements AutoCloseable {
    enum Protocol {
        /**
         * {@code group.protocol=classic}: the client heartbeats and runs the assignor, so its session,
         * heartbeat and poll timeouts are shortened to keep rebalances quick. A commit racing a rebalance
         * fails with either exception.
         */
        CLASSIC("classic", Map.of(
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000",
                ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "500",
                ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "20000"),
                List.of(CommitFailedException.class, RebalanceInProgressException.class)),
        /**
         * {@code group.protocol=consumer} (KIP-848): heartbeats, session timeout and assignment are the
         * broker's business, so none of the classic timeouts are set. There is no rebalance in progress to
         * run into: only {@link CommitFailedException} counts as a lost commit.
         */
        CONSUMER("consumer", Map.of(), List.of(CommitFailedException.class));

        private final String groupProtocol;
        private final Map<String, String> config;
        private final List<Class<? extends KafkaException>> lostCommits;

        Protocol(String groupProtocol, Map<String, String> config, List<Class<? extends KafkaException>> lostCommits) {
            this.groupProtocol = groupProtocol;
            this.config = config;
            this.lostCommits = lostCommits;
        }

        private boolean lostCommit(KafkaException e) {
            return lostCommits.stream().anyMatch(c -> c.isInstance(e));
        }
    }

    private final Protocol protocol;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Set<TopicPartition> assignment = Set.of();
    private volatile int generation = -1;
    private volatile String memberId = "";
    private volatile Throwable failure;
    /** "value" of every record polled, in order. */
    final List<String> seen = new CopyOnWriteArrayList<>();
    /** Partitions handed over in each onPartitionsRevoked call (cooperative: only those that move). */
    final List<Set<TopicPartition>> revoked = new CopyOnWriteArrayList<>();
    final List<Set<TopicPartition>> assigned = new CopyOnWriteArrayList<>();
    /** Records polled whose commit failed (a rebalance came first): the only ones that may be seen again. */
    final AtomicInteger uncommitted = new AtomicInteger();

    SubscribedConsumer(Protocol protocol, String bootstrap, String group, String topic, Map<String, String> overrides) {
        this.protocol = protocol;
        Map<String, Object> config = new HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol.groupProtocol,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
        config.putAll(protocol.config);
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
                    } catch (KafkaException e) {
                        if (!protocol.lostCommit(e)) {
                            throw e;
                        }
                        uncommitted.addAndGet(records.count());
                    }
                }
                assignment = Set.copyOf(consumer.assignment());
                ConsumerGroupMetadata metadata = consumer.groupMetadata();
                generation = metadata.generationId();
                memberId = metadata.memberId();
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    Set<TopicPartition> assignment() {
        return assignment;
    }

    /** The classic generation id, or the member epoch under KIP-848. */
    int generation() {
        return generation;
    }

    String memberId() {
        return memberId;
    }

    Throwable failure() {
        return failure;
    }

    /**
     * Stops polling and closes the consumer: a dynamic member leaves the group (KIP-848: member epoch -1);
     * a classic static one stays.
     */
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
