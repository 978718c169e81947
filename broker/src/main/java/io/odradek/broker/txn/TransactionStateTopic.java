package io.odradek.broker.txn;

import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.transaction.TransactionCoordinator;
import io.odradek.replication.metadata.TopicInfo;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code __transaction_state} and the transaction coordinator's shards over it. If the topic exists at
 * startup every partition is loaded at once (one node leads them all). Otherwise, as in Kafka, the
 * first FindCoordinator for a transactional id creates it (off the caller's thread, on the metadata
 * thread) and answers COORDINATOR_NOT_AVAILABLE until it exists; each partition is then loaded through
 * {@link TransactionCoordinator#onElection}. Until a partition is loaded the coordinator answers its
 * transactional ids NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS, which clients retry.
 */
public final class TransactionStateTopic {
    private static final System.Logger LOG = System.getLogger(TransactionStateTopic.class.getName());
    public static final String NAME = TransactionCoordinator.TOPIC;

    private final TopicService topics;
    private final TransactionCoordinator coordinator;
    private final int partitions;
    private final Map<String, String> configs;
    private final AtomicBoolean creating = new AtomicBoolean();
    private volatile boolean exists;

    private TransactionStateTopic(TopicService topics, TransactionCoordinator coordinator, int partitions,
            Map<String, String> configs, boolean exists) {
        this.topics = topics;
        this.coordinator = coordinator;
        this.partitions = partitions;
        this.configs = configs;
        this.exists = exists;
    }

    /**
     * Kafka's topic configs for it (TransactionStateManager): compacted, uncompressed, segments of
     * {@code transaction.state.log.segment.bytes}. Kafka also sets {@code unclean.leader.election.enable=false}
     * (our topics have no such key; a single node never elects an unclean leader) and
     * {@code min.insync.replicas} from {@code transaction.state.log.min.isr} (2 by default, which one node
     * could never meet once replication enforces it: left at the broker default).
     */
    public static Map<String, String> configs(int segmentBytes) {
        return Map.of(
                "cleanup.policy", "compact",
                "compression.type", "uncompressed",
                "segment.bytes", Integer.toString(segmentBytes));
    }

    /**
     * Loads the coordinator over the topic if it exists (its partition count must be the one the
     * coordinator was configured with: see {@link #existingPartitions}), or prepares to create it with
     * {@code partitions} partitions on first need.
     */
    public static TransactionStateTopic start(TopicService topics, TransactionCoordinator coordinator, int partitions,
            int segmentBytes) {
        boolean exists = topics.topic(NAME).isPresent();
        TransactionStateTopic topic = new TransactionStateTopic(topics, coordinator, partitions, configs(segmentBytes), exists);
        if (exists) {
            // Each partition serves once loaded; until then its ids answer COORDINATOR_LOAD_IN_PROGRESS.
            coordinator.startup().whenComplete((v, error) -> {
                if (error != null) {
                    LOG.log(System.Logger.Level.ERROR, "cannot load every partition of " + NAME, error);
                }
            });
        }
        return topic;
    }

    /** The partition count of an existing topic, which wins over the configured one (as in Kafka); 0 if none. */
    public static int existingPartitions(TopicService topics) {
        return topics.topic(NAME).map(TopicInfo::partitions).orElse(0);
    }

    /**
     * Whether the topic exists (its partitions may still be loading); if not, starts creating it (once;
     * again after a failure). FindCoordinator answers COORDINATOR_NOT_AVAILABLE while this is false.
     */
    public boolean ensureCreated() {
        if (exists) {
            return true;
        }
        if (creating.compareAndSet(false, true)) {
            CompletableFuture<TopicInfo> created;
            try {
                created = topics.async(() -> topics.topic(NAME)
                        .orElseGet(() -> topics.createTopic(NAME, partitions, configs, false)));
            } catch (RuntimeException e) {
                created = CompletableFuture.failedFuture(e);
            }
            created.whenComplete((info, error) -> {
                if (error != null) {
                    LOG.log(System.Logger.Level.ERROR, "cannot create " + NAME + "; retrying on the next request", error);
                    creating.set(false);
                    return;
                }
                for (int p = 0; p < info.partitions(); p++) {
                    try {
                        coordinator.onElection(p);
                    } catch (RuntimeException e) {
                        // that partition's ids answer NOT_COORDINATOR; the others still load
                        LOG.log(System.Logger.Level.ERROR, "cannot load " + NAME + " partition " + p, e);
                    }
                }
                exists = true;
            });
        }
        return exists;
    }
}
