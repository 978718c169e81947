package io.odradek.replication.quorum;

import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerLogic;
import io.odradek.replication.cluster.ItemResult;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.wire.ErrorCode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stand-in for the cluster model while the quorum is tested on its own: registration, fencing, unfencing,
 * controlled shutdown and topic creation with round-robin placement, and "codecs" that keep objects in a JVM-wide
 * table and write their table key (every voter of these tests lives in one JVM, restarts included).
 */
final class TestModel implements MetadataModel {
    private static final Map<Long, Object> OBJECTS = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT_KEY = new AtomicLong();

    @Override
    public ControllerLogic.Applied apply(ClusterImage image, ControllerCommand command, long offset) {
        SortedMap<Integer, BrokerRegistration> brokers = new TreeMap<>(image.brokers());
        SortedMap<String, TopicImage> topics = new TreeMap<>(image.topics());
        CommandResult result = CommandResult.ok(offset, List.of(), -1);
        if (command instanceof ControllerCommand.RegisterBroker r) {
            brokers.put(r.brokerId(), new BrokerRegistration(r.brokerId(), offset, r.incarnationId(),
                    r.endpoints(), r.rack(), true, false));
            result = CommandResult.ok(offset, List.of(), offset);
        } else if (command instanceof ControllerCommand.UnfenceBroker u) {
            BrokerRegistration b = brokers.get(u.brokerId());
            if (b == null || b.epoch() != u.brokerEpoch()) {
                result = CommandResult.failed(offset, ErrorCode.STALE_BROKER_EPOCH, null);
            } else {
                brokers.put(b.id(), b.withFenced(false));
            }
        } else if (command instanceof ControllerCommand.FenceBrokers f) {
            f.brokerIds().forEach(id -> brokers.computeIfPresent(id, (k, b) -> b.withFenced(true)));
        } else if (command instanceof ControllerCommand.ControlledShutdown c) {
            brokers.computeIfPresent(c.brokerId(), (k, b) -> b.withControlledShutdown(true));
        } else if (command instanceof ControllerCommand.CreateTopics c) {
            List<ItemResult> items = new ArrayList<>();
            List<Integer> ids = new ArrayList<>(brokers.keySet());
            for (ControllerCommand.NewTopic t : c.topics()) {
                if (topics.containsKey(t.name())) {
                    items.add(new ItemResult(t.name(), ErrorCode.TOPIC_ALREADY_EXISTS, null));
                    continue;
                }
                List<PartitionRegistration> partitions = new ArrayList<>();
                for (int p = 0; p < t.numPartitions(); p++) {
                    List<Integer> replicas = new ArrayList<>();
                    for (int r = 0; r < t.replicationFactor(); r++) {
                        replicas.add(ids.get((p + r) % ids.size()));
                    }
                    partitions.add(PartitionRegistration.initial(replicas));
                }
                topics.put(t.name(), new TopicImage(t.name(), t.id(), t.configs(), partitions));
                items.add(ItemResult.ok(t.name()));
            }
            result = CommandResult.ok(offset, items, -1);
        } else {
            throw new UnsupportedOperationException("not in the quorum's test model: " + command);
        }
        ClusterImage next = new ClusterImage(offset, "test-cluster", brokers, topics, image.nextProducerId());
        return new ControllerLogic.Applied(next, result);
    }

    private static byte[] keep(Object o) {
        long key = NEXT_KEY.incrementAndGet();
        OBJECTS.put(key, o);
        return ByteBuffer.allocate(8).putLong(key).array();
    }

    @SuppressWarnings("unchecked")
    private static <T> T kept(byte[] bytes) {
        return (T) OBJECTS.get(ByteBuffer.wrap(bytes).getLong());
    }

    @Override
    public byte[] encodeCommand(ControllerCommand command) {
        return keep(command);
    }

    @Override
    public ControllerCommand decodeCommand(byte[] bytes) {
        return kept(bytes);
    }

    @Override
    public byte[] encodeResult(CommandResult result) {
        return keep(result);
    }

    @Override
    public CommandResult decodeResult(byte[] bytes) {
        return kept(bytes);
    }

    @Override
    public byte[] encodeImage(ClusterImage image) {
        return keep(image);
    }

    @Override
    public ClusterImage decodeImage(byte[] bytes) {
        return kept(bytes);
    }
}
