package io.odradek.broker.sharestate;

import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.share.state.ShareCoordinator;
import io.odradek.replication.metadata.TopicInfo;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code __share_group_state} on a single node, and the share coordinator's shards over it (as
 * {@code __transaction_state} is kept). If the topic exists at startup every partition is loaded at once (one node
 * leads them all). Otherwise, as Kafka does, the first FindCoordinator for a share key (or the first share-state
 * call of this broker's own share partitions and group coordinator) creates it, off the caller's thread, with
 * Kafka's topic configs and one replica, and answers COORDINATOR_NOT_AVAILABLE until it exists; each partition is
 * then loaded, answering COORDINATOR_LOAD_IN_PROGRESS meanwhile.
 */
public final class ShareStateTopic {
    private static final System.Logger LOG = System.getLogger(ShareStateTopic.class.getName());
    public static final String NAME = ShareCoordinator.TOPIC;

    private final TopicService topics;
    private final ShareCoordinator coordinator;
    private final Map<String, String> configs;
    private final AtomicBoolean creating = new AtomicBoolean();
    private volatile boolean exists;
    /** Completes once every partition is loaded; null until the topic exists or its creation starts. */
    private volatile CompletableFuture<Void> loaded;

    private ShareStateTopic(TopicService topics, ShareCoordinator coordinator, boolean exists) {
        this.topics = topics;
        this.coordinator = coordinator;
        this.configs = coordinator.config().topicConfigs();
        this.exists = exists;
    }

    /**
     * Loads the coordinator over the topic if it exists (its partition count then wins over
     * {@code share.coordinator.state.topic.num.partitions}), or prepares to create it on first need.
     */
    public static ShareStateTopic start(TopicService topics, ShareCoordinator coordinator) {
        int existing = topics.topic(NAME).map(TopicInfo::partitions).orElse(0);
        ShareStateTopic topic = new ShareStateTopic(topics, coordinator, existing > 0);
        if (existing > 0) {
            coordinator.useStateTopicPartitions(existing);
            topic.loaded = coordinator.startup();
            topic.loaded.whenComplete((v, error) -> {
                if (error != null) {
                    LOG.log(System.Logger.Level.ERROR, "cannot load every partition of " + NAME, error);
                }
            });
        }
        return topic;
    }

    /**
     * Whether the topic exists (its partitions may still be loading); if not, starts creating it (once; again
     * after a failure). FindCoordinator answers COORDINATOR_NOT_AVAILABLE while this is false.
     */
    public boolean ensureCreated() {
        if (exists) {
            return true;
        }
        if (creating.compareAndSet(false, true)) {
            CompletableFuture<Void> loading = new CompletableFuture<>();
            loaded = loading;
            CompletableFuture<TopicInfo> created;
            try {
                created = topics.async(() -> topics.topic(NAME)
                        .orElseGet(() -> topics.createTopic(NAME, coordinator.partitions(), configs, false)));
            } catch (RuntimeException e) {
                created = CompletableFuture.failedFuture(e);
            }
            created.whenComplete((info, error) -> {
                if (error != null) {
                    LOG.log(System.Logger.Level.ERROR, "cannot create " + NAME + "; retrying on the next request", error);
                    loaded = null;
                    creating.set(false);
                    loading.completeExceptionally(error);
                    return;
                }
                coordinator.useStateTopicPartitions(info.partitions());
                CompletableFuture<?>[] loads = new CompletableFuture<?>[info.partitions()];
                for (int p = 0; p < info.partitions(); p++) {
                    try {
                        loads[p] = coordinator.onElection(p);
                    } catch (RuntimeException e) {
                        // that partition's keys answer NOT_COORDINATOR; the others still load
                        LOG.log(System.Logger.Level.ERROR, "cannot load " + NAME + " partition " + p, e);
                        loads[p] = CompletableFuture.failedFuture(e);
                    }
                }
                exists = true;
                CompletableFuture.allOf(loads).whenComplete((v, e) -> {
                    if (e != null) {
                        loading.completeExceptionally(e);
                    } else {
                        loading.complete(null);
                    }
                });
            });
        }
        return exists;
    }

    /**
     * Completes once the topic exists and every partition is loaded, starting its creation if need be; fails when
     * the creation or a load failed (a later call tries the creation again).
     */
    public CompletableFuture<Void> ready() {
        ensureCreated();
        CompletableFuture<Void> l = loaded;
        return l != null ? l : CompletableFuture.failedFuture(new IllegalStateException(NAME + " could not be created"));
    }
}
