package io.odradek.broker.cluster;

import io.odradek.broker.topics.LocalNode;
import io.odradek.broker.topics.TopicService;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.replication.metadata.TopicInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The cluster of a broker started without {@code process.roles}: this broker alone, registered, unfenced
 * and leading every partition of the local catalog at epoch 0, with replicas and ISR [us]. A partition
 * whose log dir is offline has no leader and us as its offline replica, as Kafka 4 reports a lost only
 * replica. It is registered with every endpoint the broker advertises, one per listener. There is no controller
 * quorum. The image is rebuilt only when the catalog, the set of offline log dirs or the advertised endpoints
 * (ports known after a port-0 bind) changed since the last one.
 */
public final class SingleNodeClusterView implements ClusterView {
    /** The metadata offset of every synthesized image: there is no metadata log. */
    public static final long OFFSET = 0;

    private final TopicService topics;
    private final LocalNode node;
    private volatile Cached cached;

    private record Cached(Collection<TopicInfo> catalog, Set<Path> offlineDirs, List<Endpoint> endpoints,
            ClusterImage image) {
    }

    public SingleNodeClusterView(TopicService topics, LocalNode node) {
        this.topics = topics;
        this.node = node;
    }

    @Override
    public ClusterImage image() {
        // The catalog's topic collection is replaced (never changed in place) by each change, so identity tells.
        Collection<TopicInfo> catalog = topics.topics();
        Set<Path> offline = topics.offlineDirs();
        List<Endpoint> endpoints = node.endpoints();
        Cached c = cached;
        if (c == null || c.catalog != catalog || !c.offlineDirs.equals(offline) || !c.endpoints.equals(endpoints)) {
            c = new Cached(catalog, offline, endpoints, build(catalog, endpoints));
            cached = c;
        }
        return c.image;
    }

    private ClusterImage build(Collection<TopicInfo> catalog, List<Endpoint> endpoints) {
        int us = node.nodeId();
        BrokerRegistration self = new BrokerRegistration(us, OFFSET, new UUID(0, us), endpoints, node.rack(),
                false, false);
        SortedMap<Integer, BrokerRegistration> brokers = new TreeMap<>();
        brokers.put(us, self);
        SortedMap<String, TopicImage> images = new TreeMap<>();
        List<Integer> replicas = List.of(us);
        for (TopicInfo t : catalog) {
            List<PartitionRegistration> partitions = new ArrayList<>(t.partitions());
            for (int p = 0; p < t.partitions(); p++) {
                boolean offline = topics.isOffline(t.name(), p);
                partitions.add(new PartitionRegistration(replicas, replicas, List.of(), List.of(),
                        offline ? PartitionRegistration.NO_LEADER : us, t.leaderEpoch(p), 0));
            }
            images.put(t.name(), new TopicImage(t.name(), t.id(), t.configs(), partitions));
        }
        return new ClusterImage(OFFSET, topics.clusterId(), brokers, images, 0);
    }

    /** A partition in an offline log dir has no leader in the image and us as its offline replica. */
    @Override
    public boolean isLocalLogOffline(String topic, int partition) {
        return topics.isOffline(topic, partition);
    }

    @Override
    public int localBrokerId() {
        return node.nodeId();
    }

    /** The first listener this broker advertises. */
    @Override
    public String clientListener() {
        return node.endpoints().get(0).listener();
    }

    @Override
    public Optional<ControllerChannel> controller() {
        return Optional.empty();
    }

    /** Every change is applied by the time it returns, so any offset is reached at once. */
    @Override
    public CompletableFuture<ClusterImage> awaitApplied(long offset) {
        return CompletableFuture.completedFuture(image());
    }
}
