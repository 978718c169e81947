package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Kafka 4.4's own consumers with {@code group.protocol=consumer} (KIP-848) against a broker on a loopback
 * port: the broker assigns, members reconcile through heartbeats, partitions move only once revoked,
 * committed offsets carry over, and the group survives a broker restart. Heartbeats every 100 ms and a
 * 3 s session keep it quick (Kafka's minimums are lowered for that).
 */
class ConsumerProtocolEndToEndTest extends GroupScenarios {
    private final int port = freePort(); // fixed, so clients find the broker again after a restart

    @Override
    SubscribedConsumer.Protocol protocol() {
        return SubscribedConsumer.Protocol.CONSUMER;
    }

    @Override
    Map<String, String> brokerConfig() {
        return Map.of(
                "node.id", "1",
                "listeners", "PLAINTEXT://127.0.0.1:" + port,
                "log.dirs", logDir.toString(),
                "offsets.topic.num.partitions", "3",
                "group.consumer.heartbeat.interval.ms", "100",
                "group.consumer.min.heartbeat.interval.ms", "50",
                "group.consumer.session.timeout.ms", "3000",
                "group.consumer.min.session.timeout.ms", "1000");
    }

    @Test
    void threeConsumersSplitSixPartitionsAndReadEveryRecordExactlyOnce() throws Exception {
        createTopic("orders", 6);
        List<String> sent = produce("orders", 6, 0, 600);

        long start = System.nanoTime();
        List<SubscribedConsumer> consumers = consumers("three", "orders", "c1", "c2", "c3");
        awaitEvenSplit(consumers, 6);
        System.out.println("KIP-848 REBALANCE: 3 members from first heartbeat to all assigned (2 partitions each) in "
                + millisSince(start) + " ms");

        awaitPolled(consumers, 600);
        Thread.sleep(300); // nothing more should come
        assertSeenOnceUnlessUncommitted(consumers, sent);
        assertNoneFailed(consumers);
    }

    @Test
    void whenAConsumerClosesTheOthersTakeOverItsPartitionsFromTheCommittedOffsets() throws Exception {
        createTopic("jobs", 6);
        List<String> sent = new ArrayList<>(produce("jobs", 6, 0, 300));
        SubscribedConsumer a = consumer("takeover", "jobs", "a");
        SubscribedConsumer b = consumer("takeover", "jobs", "b");
        SubscribedConsumer c = consumer("takeover", "jobs", "c");
        List<SubscribedConsumer> all = List.of(a, b, c);
        await("two partitions each", () -> all.stream().allMatch(x -> x.assignment().size() == 2));
        await("the first 300 records consumed", () -> distinct(all).size() == 300);
        Set<TopicPartition> fromC = c.assignment();

        c.close(); // leaves with epoch -1: the group epoch moves and a and b are given c's partitions
        sent.addAll(produce("jobs", 6, 300, 300));
        await("a and b own all six partitions", () -> a.assignment().size() == 3 && b.assignment().size() == 3);
        await("all 600 records consumed", () -> distinct(all).size() == 600);
        Thread.sleep(300);

        assertSeenOnceUnlessUncommitted(all, sent);
        assertTookOver(a, b, fromC);
        Map<TopicPartition, OffsetAndMetadata> committed =
                admin.listConsumerGroupOffsets("takeover").partitionsToOffsetAndMetadata().get();
        assertThat(committed.values()).extracting(OffsetAndMetadata::offset).containsOnly(100L);
    }

    @Test
    void membersCarryOnAcrossABrokerRestart() throws Exception {
        createTopic("durable", 4);
        List<String> sent = new ArrayList<>(produce("durable", 4, 0, 80));
        SubscribedConsumer a = consumer("keeper", "durable", "a");
        SubscribedConsumer b = consumer("keeper", "durable", "b");
        List<SubscribedConsumer> both = List.of(a, b);
        await("the first 80 records consumed", () -> distinct(both).size() == 80);
        await("two partitions each", () -> a.assignment().size() == 2 && b.assignment().size() == 2);
        ConsumerGroupDescription before = describe("keeper");

        stopBroker();
        startBroker();
        ConsumerGroupDescription reloaded = describe("keeper");
        assertThat(reloaded.members()).extracting(MemberDescription::consumerId)
                .containsExactlyInAnyOrderElementsOf(memberIds(before));
        assertThat(reloaded.groupEpoch()).isEqualTo(before.groupEpoch());

        sent.addAll(produce("durable", 4, 80, 80));
        await("the 80 new records consumed", () -> distinct(both).size() == 160);
        assertThat(distinct(both)).containsExactlyInAnyOrderElementsOf(sent);
        // The members heartbeat on with their epochs: same ids, no rebalance.
        ConsumerGroupDescription after = describe("keeper");
        assertThat(memberIds(after)).containsExactlyInAnyOrderElementsOf(memberIds(before));
        assertThat(after.groupEpoch()).isEqualTo(before.groupEpoch());
        assertNoneFailed(both);
    }

    @Test
    void theAdminClientSeesAConsumerTypeGroupWithMembersAndAssignments() throws Exception {
        createTopic("seen", 4);
        SubscribedConsumer a = consumer("described", "seen", "a");
        SubscribedConsumer b = consumer("described", "seen", "b", Map.of(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, "uniform"));
        await("two partitions each", () -> a.assignment().size() == 2 && b.assignment().size() == 2);
        await("the group is stable", () -> describe("described").groupState() == GroupState.STABLE);

        ConsumerGroupDescription d = describe("described");
        assertThat(d.type()).isEqualTo(GroupType.CONSUMER);
        assertThat(d.partitionAssignor()).isEqualTo("uniform");
        assertThat(d.isSimpleConsumerGroup()).isFalse();
        assertThat(d.groupEpoch()).contains(2);
        assertThat(d.targetAssignmentEpoch()).contains(2);
        assertThat(d.members()).extracting(MemberDescription::clientId).containsExactlyInAnyOrder("a", "b");
        assertThat(d.members()).allSatisfy(m -> {
            assertThat(m.host()).isEqualTo("/127.0.0.1");
            assertThat(m.memberEpoch()).contains(2);
            assertThat(m.assignment().topicPartitions()).hasSize(2);
            assertThat(m.targetAssignment()).hasValueSatisfying(t -> assertThat(t.topicPartitions()).isEqualTo(m.assignment().topicPartitions()));
        });
        Set<TopicPartition> assigned = new HashSet<>();
        d.members().forEach(m -> assigned.addAll(m.assignment().topicPartitions()));
        assertThat(assigned).containsExactlyInAnyOrderElementsOf(
                IntStream.range(0, 4).mapToObj(p -> new TopicPartition("seen", p)).toList());

        GroupListing listed = admin.listGroups().all().get().stream()
                .filter(g -> g.groupId().equals("described")).findFirst().orElseThrow();
        assertThat(listed.type()).contains(GroupType.CONSUMER);
        assertThat(listed.protocol()).isEqualTo("consumer");
        assertThat(listed.groupState()).contains(GroupState.STABLE);
    }

    // ------------------------------------------------------------------ helpers

    private ConsumerGroupDescription describe(String group) {
        try {
            return admin.describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group);
        } catch (Exception e) {
            throw new AssertionError("describeConsumerGroups failed", e);
        }
    }

    private static List<String> memberIds(ConsumerGroupDescription d) {
        return d.members().stream().map(MemberDescription::consumerId).toList();
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
