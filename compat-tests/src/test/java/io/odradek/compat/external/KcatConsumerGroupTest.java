package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.compat.OdradekBroker;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kcat's balanced consumer ({@code -G}): librdkafka 2.0 joins with JoinGroup v5 / SyncGroup v3 / Heartbeat v3,
 * reads committed offsets with OffsetFetch v7 and commits with OffsetCommit v7 when it leaves.
 */
@ExtendWith(ExternalClients.class)
class KcatConsumerGroupTest {
    private static final String FORMAT = "%k=%s\\n";

    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withConfig(Map.of("group.initial.rebalance.delay.ms", "0"));

    private final Kcat kcat = new Kcat(broker);

    @Test
    void aSecondRunOfTheGroupResumesFromTheOffsetsTheFirstCommitted() throws Exception {
        broker.createTopic("kcat-group", 2);
        kcat.produce("kcat-group", lines(0, 6), "-K:", "-X", "partitioner=murmur2_random");

        assertThat(kcat.groupConsume("kcat-g1", "kcat-group", FORMAT))
                .containsExactlyInAnyOrderElementsOf(consumed(0, 6));
        assertThat(committed("kcat-g1")).isEqualTo(endOffsets("kcat-group", 2));

        kcat.produce("kcat-group", lines(6, 9), "-K:", "-X", "partitioner=murmur2_random");

        assertThat(kcat.groupConsume("kcat-g1", "kcat-group", FORMAT))
                .containsExactlyInAnyOrderElementsOf(consumed(6, 9));
        assertThat(committed("kcat-g1")).isEqualTo(endOffsets("kcat-group", 2));
    }

    private static List<String> lines(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "key-" + i + ":value-" + i).toList();
    }

    private static List<String> consumed(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "key-" + i + "=value-" + i).toList();
    }

    private static Map<TopicPartition, Long> committed(String group) {
        Map<TopicPartition, OffsetAndMetadata> offsets = OdradekBroker.await(
                broker.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        return offsets.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    /** Each partition's end offset, as murmur2 spread the keys (partitions left empty commit nothing). */
    private static Map<TopicPartition, Long> endOffsets(String topic, int partitions) {
        return IntStream.range(0, partitions).boxed()
                .map(p -> new TopicPartition(topic, p))
                .map(tp -> Map.entry(tp, OdradekBroker.await(broker.admin()
                        .listOffsets(Map.of(tp, OffsetSpec.latest())).all())
                        .get(tp).offset()))
                .filter(e -> e.getValue() > 0)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
