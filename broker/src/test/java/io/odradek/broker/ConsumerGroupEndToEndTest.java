package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/**
 * Kafka's own consumers with {@code subscribe()} (classic protocol) against a broker on a loopback port:
 * groups form, split partitions, rebalance when members come and go, and resume from committed offsets,
 * also across a broker restart.
 */
class ConsumerGroupEndToEndTest extends GroupScenarios {
    @Override
    SubscribedConsumer.Protocol protocol() {
        return SubscribedConsumer.Protocol.CLASSIC;
    }

    @Override
    Map<String, String> brokerConfig() {
        return Map.of(
                "node.id", "1",
                "listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", logDir.toString(),
                "offsets.topic.num.partitions", "3",
                "group.initial.rebalance.delay.ms", "0",
                "group.min.session.timeout.ms", "1000");
    }

    @Test
    void threeConsumersSplitSixPartitionsAndReadEveryRecordExactlyOnce() throws Exception {
        createTopic("orders", 6);
        List<String> sent = produce("orders", 6, 0, 600);

        long start = System.nanoTime();
        List<SubscribedConsumer> consumers = consumers("three", "orders", "c1", "c2", "c3");
        awaitEvenSplit(consumers, 6);
        System.out.println("REBALANCE: 3 members from first join to all assigned (2 partitions each) in "
                + millisSince(start) + " ms");

        awaitPolled(consumers, 600);
        assertThat(allSeen(consumers)).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(union(consumers)).hasSize(6);
        assertNoneFailed(consumers);

        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("three")).all().get().get("three");
        assertThat(group.groupState()).isEqualTo(GroupState.STABLE);
        assertThat(group.members()).hasSize(3);
        assertThat(group.members()).allSatisfy(m -> assertThat(m.assignment().topicPartitions()).hasSize(2));
        assertThat(group.partitionAssignor()).isEqualTo("range");
    }

    @Test
    void whenAConsumerLeavesTheOthersTakeOverItsPartitionsFromTheCommittedOffsets() throws Exception {
        createTopic("jobs", 6);
        List<String> sent = new ArrayList<>(produce("jobs", 6, 0, 300));
        SubscribedConsumer a = consumer("takeover", "jobs", "a");
        SubscribedConsumer b = consumer("takeover", "jobs", "b");
        SubscribedConsumer c = consumer("takeover", "jobs", "c");
        List<SubscribedConsumer> all = List.of(a, b, c);
        await("two partitions each", () -> all.stream().allMatch(x -> x.assignment().size() == 2));
        await("the first 300 records consumed", () -> distinct(all).size() == 300);
        Set<TopicPartition> fromC = c.assignment();
        assertThat(fromC).hasSize(2);

        c.close(); // leaves the group: a rebalance hands its partitions to a and b
        sent.addAll(produce("jobs", 6, 300, 300));
        await("a and b own all six partitions", () -> a.assignment().size() == 3 && b.assignment().size() == 3);
        await("all 600 records consumed", () -> distinct(all).size() == 600);

        assertSeenOnceUnlessUncommitted(all, sent);
        assertTookOver(a, b, fromC);
    }

    @Test
    void aMemberThatStopsHeartbeatingIsEvictedAfterItsSessionTimeout() throws Exception {
        createTopic("silent", 2);
        List<TopicPartition> both = List.of(new TopicPartition("silent", 0), new TopicPartition("silent", 1));
        RawGroupMember hung = track(new RawGroupMember(broker.port()));
        JoinGroupResponseData joined = hung.join("evict", "silent", 2000, 15_000);
        assertThat(joined.errorCode()).isZero();
        assertThat(joined.leader()).isEqualTo(hung.memberId);
        assertThat(hung.sync("evict", both).errorCode()).isZero();
        long silentSince = System.nanoTime();

        // A real consumer joins; the hung member never rejoins nor heartbeats. Its 2 s session ends long
        // before the 15 s rebalance timeout, and the newcomer gets every partition.
        SubscribedConsumer live = consumer("evict", "silent", "live");
        await("the live consumer owns both partitions", () -> live.assignment().size() == 2);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - silentSince);
        assertThat(tookMs).isBetween(1500L, 12_000L);
        assertThat(hung.heartbeat("evict")).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("evict")).all().get().get("evict");
        assertThat(group.members()).extracting(MemberDescription::clientId).containsExactly("live");
    }

    @Test
    void groupStateAndOffsetsSurviveABrokerRestart() throws Exception {
        createTopic("durable", 3);
        List<String> first = produce("durable", 3, 0, 90);
        SubscribedConsumer before = consumer("keeper", "durable", "before");
        await("the first 90 records consumed", () -> before.seen.size() == 90);
        before.close();
        Map<TopicPartition, OffsetAndMetadata> committed =
                admin.listConsumerGroupOffsets("keeper").partitionsToOffsetAndMetadata().get();
        assertThat(committed.values()).extracting(OffsetAndMetadata::offset).containsOnly(30L);

        stopBroker();
        startBroker();
        assertThat(admin.listConsumerGroupOffsets("keeper").partitionsToOffsetAndMetadata().get()).isEqualTo(committed);
        assertThat(admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get()).contains("__consumer_offsets");
        assertThat(admin.describeTopics(List.of("__consumer_offsets")).allTopicNames().get()
                .get("__consumer_offsets").isInternal()).isTrue();

        List<String> second = produce("durable", 3, 90, 60);
        SubscribedConsumer after = consumer("keeper", "durable", "after");
        await("the 60 new records consumed", () -> after.seen.size() >= 60);
        Thread.sleep(300); // nothing more should come
        assertThat(after.seen).containsExactlyInAnyOrderElementsOf(second).doesNotContainAnyElementsOf(first);
    }

    @Test
    void cooperativeStickyMembersOnlyGiveUpThePartitionsThatMove() throws Exception {
        createTopic("coop", 4);
        List<String> sent = new ArrayList<>(produce("coop", 4, 0, 200));
        Map<String, String> coop = Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                CooperativeStickyAssignor.class.getName());
        SubscribedConsumer first = consumer("sticky", "coop", "first", coop);
        await("the first member owns all 4 partitions", () -> first.assignment().size() == 4);
        await("the first 200 records consumed", () -> first.seen.size() >= 200);

        SubscribedConsumer second = consumer("sticky", "coop", "second", coop);
        await("two partitions each", () -> first.assignment().size() == 2 && second.assignment().size() == 2);
        sent.addAll(produce("coop", 4, 200, 200));
        await("all 400 records consumed", () -> distinct(List.of(first, second)).size() == 400);

        // Incremental: the first member was never asked to give up everything, only what moved.
        assertThat(first.revoked).allSatisfy(r -> assertThat(r.size()).isLessThanOrEqualTo(2));
        assertThat(first.revoked.stream().mapToInt(Set::size).sum()).isEqualTo(2);
        assertThat(first.assignment()).doesNotContainAnyElementsOf(second.assignment());
        assertThat(distinct(List.of(first, second))).containsExactlyInAnyOrderElementsOf(sent);
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("sticky")).all().get().get("sticky");
        assertThat(group.partitionAssignor()).isEqualTo("cooperative-sticky");
    }

    @Test
    void aStaticMemberRestartsWithinItsSessionWithoutARebalance() throws Exception {
        createTopic("static", 4);
        SubscribedConsumer a = consumer("statics", "static", "a", Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-a"));
        SubscribedConsumer b = consumer("statics", "static", "b", Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-b"));
        await("two partitions each", () -> a.assignment().size() == 2 && b.assignment().size() == 2);
        Set<TopicPartition> aOwned = a.assignment();
        int generation = b.generation();
        int bAssignments = b.assigned.size();
        int bRevocations = b.revoked.size();

        a.close(); // a static member does not leave the group on close
        SubscribedConsumer a2 = consumer("statics", "static", "a2", Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-a"));
        await("the restarted member has its partitions back", () -> a2.assignment().equals(aOwned));
        Thread.sleep(1000); // time for any rebalance to show

        assertThat(a2.generation()).isEqualTo(generation);
        assertThat(b.generation()).isEqualTo(generation);
        assertThat(b.assigned).hasSize(bAssignments); // b saw no rebalance
        assertThat(b.revoked).hasSize(bRevocations);
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("statics")).all().get().get("statics");
        assertThat(group.members()).extracting(m -> m.groupInstanceId().orElse(null))
                .containsExactlyInAnyOrder("instance-a", "instance-b");
    }

    @Test
    @SuppressWarnings({"deprecation", "removal"}) // listConsumerGroups: deprecated, still what many tools call
    void theAdminClientListsDescribesAltersAndDeletesConsumerGroups() throws Exception {
        createTopic("admin", 2);
        produce("admin", 2, 0, 20);
        SubscribedConsumer member = consumer("managed", "admin", "member");
        await("the member consumed everything", () -> member.seen.size() == 20);

        Set<String> listed = new HashSet<>();
        admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get().forEach(g -> listed.add(g.groupId()));
        assertThat(listed).contains("managed");
        assertThat(admin.listConsumerGroups().all().get()).extracting(l -> l.groupId()).contains("managed");
        GroupListing listing = admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get().stream()
                .filter(g -> g.groupId().equals("managed")).findFirst().orElseThrow();
        assertThat(listing.groupState()).contains(GroupState.STABLE);
        assertThat(listing.protocol()).isEqualTo("consumer");

        ConsumerGroupDescription described = admin.describeConsumerGroups(List.of("managed")).all().get().get("managed");
        assertThat(described.members()).singleElement().satisfies(m -> {
            assertThat(m.clientId()).isEqualTo("member");
            assertThat(m.host()).isEqualTo("/127.0.0.1");
            assertThat(m.assignment().topicPartitions()).containsExactlyInAnyOrder(
                    new TopicPartition("admin", 0), new TopicPartition("admin", 1));
        });
        assertThat(admin.listConsumerGroupOffsets("managed").partitionsToOffsetAndMetadata().get())
                .extractingByKeys(new TopicPartition("admin", 0), new TopicPartition("admin", 1))
                .extracting(OffsetAndMetadata::offset).containsExactly(10L, 10L);

        // An active group cannot be deleted; altering its offsets waits until it is empty.
        assertThat(admin.deleteConsumerGroups(List.of("managed")).all())
                .failsWithin(WAIT).withThrowableThat().withCauseInstanceOf(GroupNotEmptyException.class);
        member.close();
        admin.alterConsumerGroupOffsets("managed", Map.of(new TopicPartition("admin", 0), new OffsetAndMetadata(3L)))
                .all().get();
        assertThat(admin.listConsumerGroupOffsets("managed").partitionsToOffsetAndMetadata().get()
                .get(new TopicPartition("admin", 0)).offset()).isEqualTo(3L);
        assertThat(admin.describeConsumerGroups(List.of("managed")).all().get().get("managed").groupState())
                .isEqualTo(GroupState.EMPTY);

        admin.deleteConsumerGroups(List.of("managed")).all().get();
        assertThat(admin.describeConsumerGroups(List.of("managed")).all())
                .failsWithin(WAIT).withThrowableThat().withCauseInstanceOf(GroupIdNotFoundException.class);
        assertThat(admin.listConsumerGroupOffsets("managed").partitionsToOffsetAndMetadata().get()).isEmpty();
    }
}
