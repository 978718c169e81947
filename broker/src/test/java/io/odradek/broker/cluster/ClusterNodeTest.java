package io.odradek.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import io.odradek.log.PartitionLog;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Brokers started with process.roles, in one JVM, over a {@link FakeQuorum} standing in for Ratis: they
 * register with their bound client port, apply the same images, make logs for the replicas assigned to
 * them and remove the others, create and delete topics through the controller, and drain their
 * leaderships before they stop.
 */
class ClusterNodeTest {
    @TempDir
    Path root;

    private final FakeQuorum quorum = new FakeQuorum();
    private final List<Broker> brokers = new ArrayList<>();
    private Admin admin;

    @AfterEach
    void tearDown() {
        if (admin != null) {
            admin.close();
        }
        brokers.forEach(Broker::close);
        quorum.close();
    }

    private static Map<String, String> config(int id, Path dir, int voters) {
        Map<String, String> settings = new HashMap<>();
        StringBuilder voterList = new StringBuilder();
        for (int v = 1; v <= voters; v++) {
            voterList.append(v == 1 ? "" : ",").append(v).append("@127.0.0.1:").append(29_000 + v);
        }
        settings.put("process.roles", "broker,controller");
        settings.put("node.id", Integer.toString(id));
        settings.put("controller.quorum.voters", voterList.toString());
        settings.put("controller.listener.names", "CONTROLLER");
        settings.put("listeners", "PLAINTEXT://127.0.0.1:0,CONTROLLER://127.0.0.1:" + (29_000 + id));
        settings.put("log.dirs", dir.toString());
        settings.put("broker.heartbeat.interval.ms", "100");
        return settings;
    }

    private Broker start(int id, int voters) throws InterruptedException {
        Broker broker = Broker.start(BrokerConfig.of(config(id, root.resolve("node-" + id), voters)),
                c -> quorum.channel());
        brokers.add(broker);
        return broker;
    }

    private List<Broker> startThree() throws InterruptedException {
        for (int id = 1; id <= 3; id++) {
            start(id, 3);
        }
        for (Broker b : brokers) {
            await(b, image -> ImageWaits.allUnfenced(image, 3));
        }
        return brokers;
    }

    private Admin admin(Broker broker) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.port());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        admin = Admin.create(props);
        return admin;
    }

    private static ClusterImage await(Broker broker, Predicate<ClusterImage> condition) throws InterruptedException {
        return ImageWaits.await(broker, 15, condition);
    }

    @Test
    void brokersRegisterTheirBoundClientEndpointAndSeeEachOther() throws Exception {
        startThree();
        for (Broker b : brokers) {
            ClusterImage image = b.cluster().image();
            assertThat(image.brokers()).containsOnlyKeys(1, 2, 3);
            assertThat(b.cluster().controller()).isPresent();
            assertThat(b.cluster().localBrokerId()).isEqualTo(b.config().nodeId());
            for (Broker other : brokers) {
                BrokerRegistration reg = image.brokers().get(other.config().nodeId());
                assertThat(reg.endpoints()).containsExactly(new Endpoint("PLAINTEXT", "127.0.0.1", other.port()));
            }
        }
        // Every node proposed its own meta.properties cluster id; the first registration's won everywhere.
        String clusterId = quorum.image().clusterId();
        assertThat(brokers).allSatisfy(b -> assertThat(b.topics().clusterId()).isEqualTo(clusterId));
    }

    @Test
    void aTopicCreatedWithReplicationFactorThreeOnOneBrokerHasLeaderAndIsrOfAllThreeEverywhere() throws Exception {
        startThree();
        CreateTopicsResult created = admin(brokers.get(0)).createTopics(List.of(new NewTopic("orders", 3, (short) 3)));
        created.all().get();
        assertThat(created.numPartitions("orders").get()).isEqualTo(3);
        assertThat(created.replicationFactor("orders").get()).isEqualTo(3);
        org.apache.kafka.common.Uuid answered = created.topicId("orders").get();
        UUID id = quorum.topics().get("orders").id();
        assertThat(new UUID(answered.getMostSignificantBits(), answered.getLeastSignificantBits())).isEqualTo(id);

        for (Broker b : brokers) {
            TopicImage orders = await(b, image -> image.topic("orders").isPresent()).topic("orders").orElseThrow();
            assertThat(orders.id()).isEqualTo(id);
            assertThat(orders.partitions()).hasSize(3);
            for (int p = 0; p < 3; p++) {
                PartitionRegistration reg = orders.partition(p);
                assertThat(reg.replicas()).containsExactlyInAnyOrder(1, 2, 3);
                assertThat(reg.isr()).containsExactlyInAnyOrder(1, 2, 3);
                assertThat(reg.leader()).isEqualTo(reg.replicas().get(0));
                PartitionLog log = b.topics().partitionLog("orders", p).orElseThrow();
                assertThat(log.topicId()).isEqualTo(id);
            }
            assertThat(b.topics().topic("orders").orElseThrow().partitions()).isEqualTo(3);
        }
    }

    @Test
    void aReplicationFactorAboveTheRegisteredBrokersIsRefusedWithTheControllersMessage() throws Exception {
        startThree();
        CreateTopicsResult created = admin(brokers.get(1)).createTopics(List.of(new NewTopic("wide", 1, (short) 4)));
        assertThatThrownBy(() -> created.all().get())
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(InvalidReplicationFactorException.class)
                .hasMessageContaining("only 3 broker(s) are registered");
        assertThat(quorum.topics()).doesNotContainKey("wide");
    }

    @Test
    void aTopicDeletedThroughOneBrokerLosesItsLogsOnEveryBroker() throws Exception {
        startThree();
        Admin a = admin(brokers.get(2));
        a.createTopics(List.of(new NewTopic("doomed", 2, (short) 2))).all().get();
        for (Broker b : brokers) {
            await(b, image -> image.topic("doomed").isPresent());
        }
        int withLogs = 0;
        for (Broker b : brokers) {
            withLogs += b.topics().partitionLog("doomed", 0).isPresent() ? 1 : 0;
        }
        assertThat(withLogs).isEqualTo(2); // RF 2: exactly the two replicas have a log

        a.deleteTopics(List.of("doomed")).all().get();
        for (Broker b : brokers) {
            await(b, image -> image.topic("doomed").isEmpty());
            assertThat(b.topics().topic("doomed")).isEmpty();
            try (var dirs = Files.list(root.resolve("node-" + b.config().nodeId()))) {
                assertThat(dirs.map(d -> d.getFileName().toString())).noneMatch(n -> n.startsWith("doomed-"));
            }
        }
    }

    @Test
    void aRestartedBrokerRemovesLogsOfTopicsDeletedWhileItWasDownAndKeepsItsReplicas() throws Exception {
        Broker first = start(1, 1);
        await(first, image -> image.isActive(1));
        first.topics().createTopic("keep", 1, Map.of(), false);
        first.topics().createTopic("gone", 1, Map.of(), false);
        Path dir = root.resolve("node-1");
        assertThat(dir.resolve("gone-0")).isDirectory();
        brokers.remove(first);
        first.close();

        UUID goneId = quorum.topics().get("gone").id();
        quorum.channel().submit(new ControllerCommand.DeleteTopics(List.of(goneId))).get();

        Broker again = start(1, 1);
        ClusterImage image = await(again, i -> i.brokers().get(1) != null && i.brokers().get(1).epoch() > 3
                && !Files.exists(dir.resolve("gone-0")));
        assertThat(image.topic("gone")).isEmpty();
        assertThat(again.topics().partitionLog("keep", 0)).isPresent();
        assertThat(dir.resolve("keep-0")).isDirectory();
    }

    @Test
    void aBrokerWhoseRegistrationWentStaleRegistersAgain() throws Exception {
        Broker broker = start(1, 1);
        long firstEpoch = await(broker, image -> image.brokers().containsKey(1)).brokers().get(1).epoch();
        BrokerRegistration reg = quorum.image().brokers().get(1);
        // Someone else registered id 1 (as after a controller lost our session): our epoch is stale now.
        quorum.channel().submit(new ControllerCommand.RegisterBroker(1, UUID.randomUUID(), reg.endpoints(), null,
                "other")).get();

        ClusterImage image = await(broker, i -> i.brokers().get(1).incarnationId().equals(reg.incarnationId())
                && i.brokers().get(1).epoch() > firstEpoch + 1);
        assertThat(image.brokers().get(1).endpoints()).containsExactly(new Endpoint("PLAINTEXT", "127.0.0.1", broker.port()));
        long registrations = quorum.log().stream().filter(c -> c instanceof ControllerCommand.RegisterBroker r
                && r.incarnationId().equals(reg.incarnationId())).count();
        assertThat(registrations).isEqualTo(2);
    }

    @Test
    void aStoppingBrokerHandsItsLeadershipsToInSyncFollowersFirst() throws Exception {
        startThree();
        brokers.get(0).topics().createTopic("led", 3, (short) 3, Map.of(), Map.of(), false);
        Broker leaving = brokers.get(0);
        assertThat(quorum.topics().get("led").partitions()).anyMatch(p -> p.leader() == 1);

        brokers.remove(leaving);
        leaving.close();

        assertThat(quorum.log()).anyMatch(c -> c instanceof ControllerCommand.ControlledShutdown s && s.brokerId() == 1);
        TopicImage led = await(brokers.get(0), image -> image.topic("led").map(t -> t.partitions().stream()
                .noneMatch(p -> p.leader() == 1)).orElse(false)).topic("led").orElseThrow();
        assertThat(led.partitions()).extracting(PartitionRegistration::leader).allMatch(l -> l == 2 || l == 3);
        assertThat(quorum.image().brokers().get(1).inControlledShutdown()).isTrue();
    }
}
