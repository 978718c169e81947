package io.odradek.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.topics.LocalNode;
import io.odradek.broker.topics.TopicService;
import io.odradek.log.LogConfig;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.replication.metadata.TopicInfo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SingleNodeClusterViewTest {
    @TempDir
    Path dir;
    private TopicService topics;
    private final AtomicInteger port = new AtomicInteger(9092);
    private SingleNodeClusterView view;

    @BeforeEach
    void open() {
        topics = TopicService.open(new TopicService.Settings(List.of(dir), 7, LogConfig.defaults(), 1, (short) 1,
                true, true, 300_000));
        view = new SingleNodeClusterView(topics, new LocalNode(7, List.of(
                new LocalNode.Advertised("CLIENTS", "broker7.local", port::get),
                new LocalNode.Advertised("INTERNAL", "10.0.0.7", () -> 9093)), "rack-a"));
    }

    @AfterEach
    void close() {
        topics.close();
    }

    @Test
    void theClusterIsThisBrokerAloneUnfencedWithAnEndpointPerListenerAndRack() {
        ClusterImage image = view.image();

        assertThat(image.clusterId()).isEqualTo(topics.clusterId());
        assertThat(image.brokers()).containsOnlyKeys(7);
        BrokerRegistration self = image.brokers().get(7);
        assertThat(self.endpoints()).containsExactly(new Endpoint("CLIENTS", "broker7.local", 9092),
                new Endpoint("INTERNAL", "10.0.0.7", 9093));
        assertThat(self.rack()).isEqualTo("rack-a");
        assertThat(self.fenced()).isFalse();
        assertThat(self.inControlledShutdown()).isFalse();
        assertThat(view.localBrokerId()).isEqualTo(7);
        assertThat(view.clientListener()).isEqualTo("CLIENTS");
        assertThat(view.controller()).isEmpty();
    }

    @Test
    void everyPartitionIsLedByThisBrokerWithReplicasAndIsrOfItAloneAtEpochZero() {
        TopicInfo created = topics.createTopic("orders", 3, Map.of("retention.ms", "1000"), false);

        TopicImage orders = view.image().topic("orders").orElseThrow();
        assertThat(orders.id()).isEqualTo(created.id());
        assertThat(orders.configs()).containsExactlyEntriesOf(Map.of("retention.ms", "1000"));
        assertThat(orders.partitions()).hasSize(3).allSatisfy(p -> {
            assertThat(p.replicas()).containsExactly(7);
            assertThat(p.isr()).containsExactly(7);
            assertThat(p.leader()).isEqualTo(7);
            assertThat(p.leaderEpoch()).isZero();
            assertThat(p.partitionEpoch()).isZero();
            assertThat(p.isReassigning()).isFalse();
        });
        assertThat(view.offlineReplicas(view.image(), "orders", orders.partition(0), 0)).isEmpty();
    }

    @Test
    void theImageIsKeptUntilTheCatalogOrThePortChanges() {
        topics.createTopic("a", 1, Map.of(), false);
        ClusterImage first = view.image();
        assertThat(view.image()).isSameAs(first);

        topics.createTopic("b", 2, Map.of(), false);
        ClusterImage second = view.image();
        assertThat(second).isNotSameAs(first);
        assertThat(second.topics()).containsOnlyKeys("a", "b");

        topics.deleteTopic("a");
        assertThat(view.image().topics()).containsOnlyKeys("b");

        port.set(40123); // a port-0 listener learns its port at bind
        assertThat(view.image().brokers().get(7).clientEndpoint().port()).isEqualTo(40123);
    }

    @Test
    void awaitAppliedCompletesAtOnceWithTheCurrentImage() {
        topics.createTopic("t", 1, Map.of(), false);
        assertThat(view.awaitApplied(12345)).isCompletedWithValueMatching(i -> i.topic("t").isPresent()
                && i.partition("t", 0).map(PartitionRegistration::leader).orElse(-1) == 7);
    }
}
