package io.odradek.broker.coordinators;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.cluster.ClusterView;
import io.odradek.broker.sharestate.ShareStateTopic;
import io.odradek.broker.txn.TransactionStateTopic;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.share.state.ShareCoordinatorConfig;
import io.odradek.log.LogConfig;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ItemResult;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.wire.ErrorCode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code __consumer_offsets} and {@code __transaction_state} in a cluster: created through the controller
 * (CreateTopics) when first needed, as Kafka creates them on the first FindCoordinator, with
 * {@code offsets.topic.replication.factor} / {@code transaction.state.log.replication.factor} replicas
 * (Kafka's default 3 when the key is not set; a single node keeps 1). The replication factor is capped at
 * the number of registered brokers, so a cluster of one or two brokers still gets its coordinators (Kafka
 * refuses there; the cap is Odradek's). Fenced brokers count, as in Kafka: while one is restarting the
 * creation is refused (COORDINATOR_NOT_AVAILABLE, clients retry) rather than made with fewer replicas, which
 * with {@code min.insync.replicas} 2 would leave the coordinator unable to commit once one replica is lost. {@code __transaction_state} gets {@code min.insync.replicas} =
 * {@code transaction.state.log.min.isr} (Kafka's 2 when unset), capped at its replication factor;
 * {@code __consumer_offsets} keeps the broker default, as in Kafka.
 */
public final class InternalTopics {
    private static final System.Logger LOG = System.getLogger(InternalTopics.class.getName());
    /** Kafka's defaults for the internal topics' replication (offsets/transaction RF, transaction min ISR). */
    static final short KAFKA_REPLICATION_FACTOR = 3;
    static final int KAFKA_TRANSACTION_MIN_ISR = 2;

    /** One internal topic as it is to be created; {@code minInsync} 0: the broker default. */
    public record Spec(String name, int partitions, short replicationFactor, int minInsync, Map<String, String> configs) {
        public Spec {
            configs = Map.copyOf(configs);
        }
    }

    private final ClusterView cluster;
    /** Creations under way, by topic; one at a time, dropped when done so a failed one is tried again. */
    private final ConcurrentHashMap<String, CompletableFuture<Integer>> creating = new ConcurrentHashMap<>();

    public InternalTopics(ClusterView cluster) {
        this.cluster = cluster;
    }

    /** {@code __consumer_offsets} as this broker's config asks for it in a cluster. */
    public static Spec offsets(BrokerConfig config, GroupCoordinatorConfig groups) {
        return new Spec(OffsetsTopic.NAME, groups.offsetsTopicPartitions(),
                clusterDefault(config, "offsets.topic.replication.factor", config.offsetsTopicReplicationFactor()),
                0, groups.offsetsTopicConfigs());
    }

    /** {@code __transaction_state} with {@code partitions} partitions as this broker's config asks for it in a cluster. */
    public static Spec transactionState(BrokerConfig config, int partitions) {
        int minIsr = config.isDefault("transaction.state.log.min.isr") ? KAFKA_TRANSACTION_MIN_ISR
                : Integer.parseInt(config.get("transaction.state.log.min.isr"));
        return new Spec(TransactionStateTopic.NAME, partitions,
                clusterDefault(config, "transaction.state.log.replication.factor", config.transactionStateLogReplicationFactor()),
                minIsr, TransactionStateTopic.configs(config.transactionStateLogSegmentBytes()));
    }

    /**
     * issue 12 (sharestate): {@code __share_group_state} with {@code partitions} partitions, as Kafka's share
     * coordinator asks for it: {@code share.coordinator.state.topic.replication.factor} replicas (Kafka's 3, capped
     * at the brokers registered), {@code min.insync.replicas} = {@code share.coordinator.state.topic.min.isr}
     * (capped at the replication factor), Kafka's topic configs.
     */
    public static Spec shareState(ShareCoordinatorConfig shares, int partitions) {
        return new Spec(ShareStateTopic.NAME, partitions, shares.stateTopicReplicationFactor(), shares.stateTopicMinIsr(),
                shares.topicConfigs());
    }

    /** The key's value when set, else Kafka's 3 (the single-node default of 1 is for one broker). */
    private static short clusterDefault(BrokerConfig config, String key, short configured) {
        return config.isDefault(key) ? KAFKA_REPLICATION_FACTOR : configured;
    }

    /** The replication factor the topic is created with: the wanted one, at most the registered brokers, at least 1. */
    static short replicationFactor(Spec spec, ClusterImage image) {
        return (short) Math.max(1, Math.min(spec.replicationFactor(), image.brokers().size()));
    }

    /** The topic configs sent to the controller: the spec's, with min.insync.replicas capped at the replication factor. */
    static Map<String, String> configs(Spec spec, short replicationFactor) {
        Map<String, String> configs = new HashMap<>(spec.configs());
        if (spec.minInsync() > 0) {
            configs.put(LogConfig.MIN_INSYNC_REPLICAS, Integer.toString(Math.min(spec.minInsync(), replicationFactor)));
        }
        return configs;
    }

    /** Whether the topic is in this broker's image (its partition count then fixed). */
    public boolean exists(String name) {
        return cluster.image().topic(name).isPresent();
    }

    /**
     * Completes with the topic's partition count once this broker's image holds it: at once if it does,
     * else after creating it (or finding that another broker did). Fails when the controller refuses or
     * cannot be reached; the next call tries again.
     */
    public CompletableFuture<Integer> ensure(Spec spec) {
        TopicImage existing = cluster.image().topic(spec.name()).orElse(null);
        if (existing != null) {
            return CompletableFuture.completedFuture(existing.partitions().size());
        }
        CompletableFuture<Integer> mine = new CompletableFuture<>();
        CompletableFuture<Integer> running = creating.putIfAbsent(spec.name(), mine);
        if (running != null) {
            return running;
        }
        CompletableFuture<Integer> created;
        try {
            created = create(spec);
        } catch (RuntimeException e) {
            created = CompletableFuture.failedFuture(e);
        }
        created.whenComplete((count, failure) -> {
            creating.remove(spec.name(), mine);
            if (failure != null) {
                LOG.log(System.Logger.Level.WARNING, "cannot create " + spec.name() + " yet (tried again on the next "
                        + "coordinator lookup): " + failure);
                mine.completeExceptionally(failure);
            } else {
                mine.complete(count);
            }
        });
        return mine;
    }

    private CompletableFuture<Integer> create(Spec spec) {
        ControllerChannel controller = cluster.controller()
                .orElseThrow(() -> new IllegalStateException("no controller: internal topics are created only in a cluster"));
        ClusterImage image = cluster.image();
        short rf = replicationFactor(spec, image);
        if (rf < spec.replicationFactor()) {
            LOG.log(System.Logger.Level.WARNING, "creating " + spec.name() + " with replication factor " + rf + " instead of "
                    + spec.replicationFactor() + ": only " + rf + " broker(s) are up (Kafka would wait for more)");
        }
        ControllerCommand.NewTopic topic = new ControllerCommand.NewTopic(spec.name(), UUID.randomUUID(), spec.partitions(),
                rf, Map.of(), configs(spec, rf));
        return controller.submit(new ControllerCommand.CreateTopics(List.of(topic), false))
                .thenCompose(result -> {
                    ErrorCode error = outcome(result);
                    if (error != ErrorCode.NONE && error != ErrorCode.TOPIC_ALREADY_EXISTS) {
                        throw new IllegalStateException(spec.name() + ": " + error + " " + message(result));
                    }
                    return cluster.awaitApplied(result.offset());
                })
                .thenApply(applied -> applied.topic(spec.name())
                        .orElseThrow(() -> new IllegalStateException(spec.name() + " is not in the metadata after its creation"))
                        .partitions().size());
    }

    private static ErrorCode outcome(CommandResult result) {
        if (result.error() != ErrorCode.NONE) {
            return result.error();
        }
        return result.items().isEmpty() ? ErrorCode.NONE : result.items().get(0).error();
    }

    private static String message(CommandResult result) {
        if (result.message() != null) {
            return result.message();
        }
        ItemResult item = result.items().isEmpty() ? null : result.items().get(0);
        return item == null || item.message() == null ? "" : item.message();
    }
}
