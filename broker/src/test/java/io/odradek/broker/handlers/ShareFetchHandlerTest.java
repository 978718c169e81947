package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.FileRegion;
import io.netty.util.concurrent.Promise;
import io.odradek.broker.BrokerConfig;
import io.odradek.broker.group.GroupConfigs;
import io.odradek.broker.share.SharePartitionManager;
import io.odradek.coordinator.share.PersistedShareState;
import io.odradek.coordinator.share.SharePartitionKey;
import io.odradek.coordinator.share.SharePersister;
import io.odradek.coordinator.share.ShareStateSummary;
import io.odradek.coordinator.share.StateBatch;
import io.odradek.coordinator.share.partition.ScheduledShareTimers;
import io.odradek.replication.config.InMemoryDynamicConfigStore;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ShareAcknowledgeApi;
import io.odradek.wire.api.ShareFetchApi;
import io.odradek.wire.api.ShareFetchApi.Request;
import io.odradek.wire.api.ShareFetchApi.Request.FetchTopic;
import io.odradek.wire.api.ShareFetchApi.Request.FetchTopic.FetchPartition;
import io.odradek.wire.api.ShareFetchApi.Response;
import io.odradek.wire.api.ShareFetchApi.Response.ShareFetchableTopicResponse;
import io.odradek.wire.api.ShareFetchApi.Response.ShareFetchableTopicResponse.PartitionData;
import io.odradek.wire.codec.ResponseEncoder;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.ShareAcknowledgeResponseData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ShareFetch and ShareAcknowledge over real logs, the real partition layer and real share partitions, with an
 * in-memory persister: what share consumers of one group see.
 */
class ShareFetchHandlerTest {
    private static final String GROUP = "queue";
    private static final String A = "member-a";
    private static final String B = "member-b";

    @TempDir
    Path dir;
    DataPathFixture fx;
    SharePartitionManager shares;
    ShareFetchHandler fetch;
    ShareAcknowledgeHandler acknowledge;
    UUID orders;
    InMemoryPersister persister;
    /** The groups' dynamic configs: GROUP reads from the beginning of the log, unless a test changes it. */
    final InMemoryDynamicConfigStore configStore = new InMemoryDynamicConfigStore();
    /** Lock durations down to 1 s are allowed here (Kafka's group.share.min.record.lock.duration.ms is 15 s). */
    static final BrokerConfig BROKER = BrokerConfig.of(Map.of("group.share.min.record.lock.duration.ms", "1000"));

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        orders = fx.createTopic("orders", 1);
        setGroupConfig("share.auto.offset.reset", "earliest");
        persister = new InMemoryPersister();
        shares = new SharePartitionManager(fx.partitions, persister, new GroupConfigs(configStore, () -> BROKER),
                new ScheduledShareTimers("test-share-timers"));
        fetch = new ShareFetchHandler(shares, fx, fx.partitions, fx.cluster, 52428800);
        acknowledge = new ShareAcknowledgeHandler(shares, fx, fx.partitions, fx.cluster);
    }

    /** IncrementalAlterConfigs on GROUP's resource (null removes the key). */
    private void setGroupConfig(String key, String value) {
        Map<String, String> change = new java.util.HashMap<>();
        change.put(key, value);
        configStore.alterGroupConfigs(GROUP, change).join();
    }

    @AfterEach
    void tearDown() {
        shares.close();
        fx.close();
    }

    @Test
    void recordsAcquiredByOneMemberAreNotGivenToAnother() {
        fx.append("orders", 0, 1L, "a", "b", "c");

        Struct first = partition(fx.callAndWait(fetch, 2, shareFetch(A, 0, 0)));
        Struct second = partition(fx.callAndWait(fetch, 2, shareFetch(B, 0, 0)));

        assertThat(first.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(acquired(first)).containsExactly("0-2 x1");
        assertThat(DataPathFixture.records(first.get(PartitionData.RECORDS)))
                .containsExactly("0:k-a=a", "1:k-b=b", "2:k-c=c");
        assertThat(acquired(second)).isEmpty();
        assertThat(second.get(PartitionData.RECORDS).sizeInBytes()).isZero();
    }

    @Test
    void recordsReleasedByOneMemberAreRedeliveredToAnotherWithAHigherDeliveryCount() {
        fx.append("orders", 0, 1L, "a", "b");
        assertThat(acquired(partition(fx.callAndWait(fetch, 2, shareFetch(A, 0, 0))))).containsExactly("0-1 x1");

        Struct acked = fx.callAndWait(acknowledge, 2, shareAcknowledge(A, 1, 0, 1, (byte) 2)); // RELEASE
        Struct again = partition(fx.callAndWait(fetch, 2, shareFetch(B, 0, 0)));

        assertThat(acked.get(ShareAcknowledgeApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(ackPartitionError(acked)).isEqualTo(ErrorCode.NONE.code());
        assertThat(acquired(again)).containsExactly("0-1 x2");
        assertThat(DataPathFixture.records(again.get(PartitionData.RECORDS))).containsExactly("0:k-a=a", "1:k-b=b");
    }

    @Test
    void acceptedRecordsAreNotDeliveredAgainAndTheNextOnesAre() {
        fx.append("orders", 0, 1L, "a", "b");
        fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));
        // The next fetch of the session accepts them (piggybacked) and finds the record appended since.
        fx.append("orders", 0, 2L, "c");
        Struct request = shareFetch(A, 1, 0);
        addAcknowledgement(request.get(Request.TOPICS).get(0).get(FetchTopic.PARTITIONS).get(0), 0, 1, (byte) 1);

        Struct next = partition(fx.callAndWait(fetch, 2, request));

        assertThat(next.get(PartitionData.ACKNOWLEDGE_ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(acquired(next)).containsExactly("2-2 x1");
        assertThat(DataPathFixture.records(next.get(PartitionData.RECORDS))).containsExactly("2:k-c=c");
        assertThat(acquired(partition(fx.callAndWait(fetch, 2, shareFetch(B, 0, 0))))).isEmpty();
    }

    @Test
    void recordsWhoseLockTimesOutGoToTheMemberWaitingForThem() {
        setGroupConfig("share.record.lock.duration.ms", "1000");
        fx.append("orders", 0, 1L, "a");
        assertThat(acquired(partition(fx.callAndWait(fetch, 2, shareFetch(A, 0, 0))))).containsExactly("0-0 x1");

        // B parks (nothing acquirable) until A's lock runs out and the share partition says so.
        Struct redelivered = partition(fx.call(fetch, 2, shareFetch(B, 0, 10_000)).orTimeout(10, TimeUnit.SECONDS).join());

        assertThat(acquired(redelivered)).containsExactly("0-0 x2");
    }

    @Test
    void aParkedShareFetchIsAnsweredByTheNextAppend() {
        CompletableFuture<Struct> parked = fx.call(fetch, 2, shareFetch(A, 0, 10_000));
        DataPathFixture.await(() -> fx.waiting.watching(fx.partition("orders", 0)) == 1);
        assertThat(parked).isNotDone();

        fx.append("orders", 0, 5L, "late");

        Struct answered = partition(parked.orTimeout(10, TimeUnit.SECONDS).join());
        assertThat(acquired(answered)).containsExactly("0-0 x1");
        assertThat(DataPathFixture.records(answered.get(PartitionData.RECORDS))).containsExactly("0:k-late=late");
    }

    @Test
    void onlyTheBatchesHoldingAcquiredRecordsAreSent() {
        fx.append("orders", 0, 1L, "a", "b");
        fx.append("orders", 0, 2L, "c", "d");
        Struct request = shareFetch(A, 0, 0).set(Request.MAX_RECORDS, 2);

        Struct first = partition(fx.callAndWait(fetch, 2, request));
        Struct rest = partition(fx.callAndWait(fetch, 2, shareFetch(B, 0, 0)));

        assertThat(acquired(first)).containsExactly("0-1 x1");
        assertThat(DataPathFixture.records(first.get(PartitionData.RECORDS))).containsExactly("0:k-a=a", "1:k-b=b");
        assertThat(acquired(rest)).containsExactly("2-3 x1");
        assertThat(DataPathFixture.records(rest.get(PartitionData.RECORDS))).containsExactly("2:k-c=c", "3:k-d=d");
    }

    @Test
    void aContinuedSessionAnswersOnlyPartitionsWithSomethingToSay() {
        fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));

        Struct quiet = fx.callAndWait(fetch, 2, shareFetch(A, 1, 0));

        assertThat(quiet.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(quiet.get(Response.RESPONSES)).isEmpty();
    }

    @Test
    void deletingTheTopicClosesItsSharePartitions() {
        fx.append("orders", 0, 1L, "a");
        fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));
        assertThat(shares.openSharePartitions()).isEqualTo(1);

        shares.onTopicDeleted("orders");

        assertThat(shares.openSharePartitions()).isZero();
    }

    @Test
    void aPartitionLedElsewhereNamesItsLeaderAndEndpoint() {
        UUID moved = UUID.randomUUID();
        fx.cluster.addBroker(DataPathClusterView.broker(2, "broker-2.example", 9192, "rack-b", false));
        fx.cluster.addTopic("moved", moved, 1);
        fx.cluster.moveLeader("moved", 0, 2, 3);
        Struct request = shareFetch(A, 0, 10_000);
        request.get(Request.TOPICS).get(0).set(FetchTopic.TOPIC_ID, moved);

        Struct response = fx.call(fetch, 2, request).orTimeout(10, TimeUnit.SECONDS).join();

        Struct p = partition(response);
        assertThat(p.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(p.get(PartitionData.CURRENT_LEADER).get(PartitionData.LeaderIdAndEpoch.LEADER_ID)).isEqualTo(2);
        assertThat(p.get(PartitionData.CURRENT_LEADER).get(PartitionData.LeaderIdAndEpoch.LEADER_EPOCH)).isEqualTo(3);
        Struct endpoint = response.get(Response.NODE_ENDPOINTS).get(0);
        assertThat(endpoint.get(Response.NodeEndpoint.NODE_ID)).isEqualTo(2);
        assertThat(endpoint.get(Response.NodeEndpoint.HOST)).isEqualTo("broker-2.example");
        assertThat(endpoint.get(Response.NodeEndpoint.PORT)).isEqualTo(9192);
    }

    @Test
    void readOnTheGroupAndOnTheTopicAreRequired() {
        fx.append("orders", 0, 1L, "a");
        ScriptedAuthorizer acls = new ScriptedAuthorizer();
        fx.session = acls.session();

        assertThat(fx.callAndWait(fetch, 2, shareFetch(A, 0, 0)).get(Response.ERROR_CODE))
                .isEqualTo(ErrorCode.GROUP_AUTHORIZATION_FAILED.code());
        acls.allow(AclOperation.READ, ResourceType.GROUP, GROUP);
        Struct refused = partition(fx.callAndWait(fetch, 2, shareFetch(A, 0, 0)));
        assertThat(refused.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(acquired(refused)).isEmpty();
        acls.allowTopic(AclOperation.READ, "orders");
        assertThat(acquired(partition(fx.callAndWait(fetch, 2, shareFetch(A, 0, 0))))).containsExactly("0-0 x1");
    }

    @Test
    void aGroupWithoutAutoOffsetResetStartsAtTheEndOfTheLog() {
        setGroupConfig("share.auto.offset.reset", null); // Kafka's default: latest
        fx.append("orders", 0, 1L, "old");
        assertThat(acquired(partition(fx.callAndWait(fetch, 2, shareFetch(A, 0, 0))))).isEmpty();

        fx.append("orders", 0, 2L, "new");

        Struct next = partition(fx.callAndWait(fetch, 2, shareFetch(A, 1, 0)));
        assertThat(acquired(next)).containsExactly("1-1 x1");
        assertThat(DataPathFixture.records(next.get(PartitionData.RECORDS))).containsExactly("1:k-new=new");
    }

    @Test
    void aRenewOnlyShareFetchMustAskForNoRecords() {
        fx.append("orders", 0, 1L, "a");
        fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));
        Struct renewWithLimits = shareFetch(A, 1, 0).set(Request.IS_RENEW_ACK, true);
        addAcknowledgement(renewWithLimits.get(Request.TOPICS).get(0).get(FetchTopic.PARTITIONS).get(0), 0, 0, (byte) 4);

        Struct refused = fx.callAndWait(fetch, 2, renewWithLimits);

        assertThat(refused.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
        assertThat(refused.get(Response.ERROR_MESSAGE)).isEqualTo(
                "maxBytes must be set to 0, minBytes must be set to 0, maxRecords must be set to 0, if isRenewAck is true.");
        renewWithLimits.set(Request.MAX_BYTES, 0).set(Request.MIN_BYTES, 0).set(Request.MAX_RECORDS, 0);
        Struct renewed = partition(fx.callAndWait(fetch, 2, renewWithLimits));
        assertThat(renewed.get(PartitionData.ACKNOWLEDGE_ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(acquired(renewed)).isEmpty();
        assertThat(acquired(partition(fx.callAndWait(fetch, 2, shareFetch(B, 0, 0))))).as("still A's").isEmpty();
    }

    @Test
    void losingLeadershipOrChangingEpochClosesTheSharePartitions() {
        fx.append("orders", 0, 1L, "a");
        fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));

        shares.onLeadershipChange("orders", 0, 0, true);
        assertThat(shares.openSharePartitions()).isEqualTo(1);
        shares.onLeadershipChange("orders", 0, 1, true);
        assertThat(shares.openSharePartitions()).isZero();
        fx.callAndWait(fetch, 2, shareFetch(B, 0, 0));
        shares.onLeadershipChange("orders", 0, 1, false);
        assertThat(shares.openSharePartitions()).isZero();
    }

    @Test
    void recordsDeletedBelowTheSharePartitionsStartAreSkipped() {
        fx.append("orders", 0, 1L, "a");
        fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));
        fx.callAndWait(acknowledge, 2, shareAcknowledge(A, 1, 0, 0, (byte) 1));
        fx.append("orders", 0, 2L, "b", "c");
        fx.append("orders", 0, 3L, "d");
        fx.partition("orders", 0).deleteRecordsOnLeader(3).orTimeout(10, TimeUnit.SECONDS).join();

        Struct next = partition(fx.callAndWait(fetch, 2, shareFetch(B, 0, 0)));

        assertThat(next.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(acquired(next)).containsExactly("3-3 x1");
        assertThat(DataPathFixture.records(next.get(PartitionData.RECORDS))).containsExactly("3:k-d=d");
    }

    @Test
    void aReadCommittedGroupNeverGetsRecordsOfAbortedTransactions() {
        setGroupConfig("share.isolation.level", "read_committed");
        short epoch = 0;
        fx.partition("orders", 0).appendAsLeader(DataPathFixture.transactionalBatch(7L, epoch, 0, 1L, "aborted"), (short) 1)
                .orTimeout(10, TimeUnit.SECONDS).join();
        fx.partition("orders", 0).appendMarker(7L, epoch, 0, false).orTimeout(10, TimeUnit.SECONDS).join();
        fx.partition("orders", 0).appendAsLeader(DataPathFixture.transactionalBatch(8L, epoch, 0, 1L, "open"), (short) 1)
                .orTimeout(10, TimeUnit.SECONDS).join();

        Struct beforeCommit = partition(fx.callAndWait(fetch, 2, shareFetch(A, 0, 0)));
        fx.partition("orders", 0).appendMarker(8L, epoch, 0, true).orTimeout(10, TimeUnit.SECONDS).join();
        Struct afterCommit = partition(fx.callAndWait(fetch, 2, shareFetch(A, 1, 0)));

        // Offset 0 aborted (archived), 1 its marker, 2 still open: the marker is acquired alone, as in Kafka (the
        // consumer acknowledges control records as gaps); then the committed record with its marker (3).
        assertThat(acquired(beforeCommit)).containsExactly("1-1 x1");
        assertThat(acquired(afterCommit)).containsExactly("2-3 x1");
        assertThat(DataPathFixture.records(afterCommit.get(PartitionData.RECORDS))).contains("2:k-open=open")
                .noneMatch(r -> r.startsWith("0:"));
    }

    @Test
    void aReadCommittedGroupGetsTheCommittedRecordAfterAnAbortedTransactionOnItsNextFetch() {
        setGroupConfig("share.isolation.level", "read_committed");
        short epoch = 0;
        Struct first = partition(fx.callAndWait(fetch, 2, shareFetch(A, 0, 0)));
        fx.partition("orders", 0).appendAsLeader(DataPathFixture.transactionalBatch(7L, epoch, 0, 1L, "a", "b", "c"), (short) 1)
                .orTimeout(10, TimeUnit.SECONDS).join();
        fx.partition("orders", 0).appendMarker(7L, epoch, 0, false).orTimeout(10, TimeUnit.SECONDS).join();
        fx.partition("orders", 0).appendAsLeader(DataPathFixture.transactionalBatch(7L, epoch, 3, 1L, "kept"), (short) 1)
                .orTimeout(10, TimeUnit.SECONDS).join();
        fx.partition("orders", 0).appendMarker(7L, epoch, 0, true).orTimeout(10, TimeUnit.SECONDS).join();

        Struct second = partition(fx.callAndWait(fetch, 2, shareFetch(A, 1, 0)));

        assertThat(acquired(first)).isEmpty();
        // 0-2 aborted (archived, never delivered), 3 the abort marker, 4 the committed record, 5 its marker.
        assertThat(second.get(PartitionData.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(acquired(second)).containsExactly("3-5 x1");
        // The records helper lists the markers' control records too (3 and 5); none of 0-2 is sent.
        assertThat(DataPathFixture.records(second.get(PartitionData.RECORDS))).contains("4:k-kept=kept")
                .noneMatch(r -> r.startsWith("0:") || r.startsWith("1:") || r.startsWith("2:"));
    }

    @Test
    void aLockDurationRaisedOnTheGroupAppliesToItsOpenSharePartition() {
        setGroupConfig("share.record.lock.duration.ms", "1000");
        assertThat(acquiredIn(fx.callAndWait(fetch, 2, shareFetch(B, 0, 0)))).isEmpty();
        assertThat(shares.openSharePartitions()).isEqualTo(1);
        setGroupConfig("share.record.lock.duration.ms", "60000");
        fx.append("orders", 0, 1L, "a");

        Struct first = fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));
        // B waits past the old 1 s lock: A's 60 s lock still holds the record.
        Struct other = fx.call(fetch, 2, shareFetch(B, 1, 2_500)).orTimeout(10, TimeUnit.SECONDS).join();

        assertThat(first.get(Response.ACQUISITION_LOCK_TIMEOUT_MS)).isEqualTo(60000);
        assertThat(acquired(partition(first))).containsExactly("0-0 x1");
        assertThat(acquiredIn(other)).isEmpty();
    }

    @Test
    void aShareFetchWithNothingToAcquireAnswersEmptyAfterMaxWait() {
        Struct response = fx.call(fetch, 2, shareFetch(A, 0, 50)).orTimeout(10, TimeUnit.SECONDS).join();

        assertThat(response.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(response.get(Response.ACQUISITION_LOCK_TIMEOUT_MS)).isEqualTo(30000);
        assertThat(acquired(partition(response))).isEmpty();
    }

    @Test
    void closingTheSessionReleasesWhatTheMemberHeld() {
        fx.append("orders", 0, 1L, "a", "b");
        fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));
        // B's session keeps the group here, so its share partition (with the delivery counts) stays open.
        assertThat(acquired(partition(fx.callAndWait(fetch, 2, shareFetch(B, 0, 0))))).isEmpty();

        Struct closed = fx.callAndWait(fetch, 2, shareFetch(A, -1, 0));

        assertThat(closed.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(closed.get(Response.RESPONSES)).isEmpty(); // a closing fetch reads nothing
        DataPathFixture.await(() -> shares.sessions().get(GROUP, A) == null);
        assertThat(acquired(partition(fx.call(fetch, 2, shareFetch(B, 1, 5_000)).orTimeout(10, TimeUnit.SECONDS).join())))
                .containsExactly("0-1 x2");
    }

    @Test
    void theSessionEndsWithTheConnectionThatOpenedItAndItsRecordsGoToOthers() {
        fx.append("orders", 0, 1L, "a");
        Promise<Void> connection = fx.loop.newPromise();
        fx.call(fetch, 2, shareFetch(A, 0, 0), "client-a", connection).orTimeout(10, TimeUnit.SECONDS).join();
        assertThat(acquired(partition(fx.callAndWait(fetch, 2, shareFetch(B, 0, 0))))).isEmpty();

        connection.setSuccess(null);

        DataPathFixture.await(() -> shares.sessions().get(GROUP, A) == null);
        assertThat(acquired(partition(fx.call(fetch, 2, shareFetch(B, 1, 5_000)).orTimeout(10, TimeUnit.SECONDS).join())))
                .containsExactly("0-0 x2");
    }

    @Test
    void aGroupWhoseLastSessionClosedSeesItsStateResetAndIsDeliveredTheRecordsAgain() {
        fx.append("orders", 0, 1L, "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9");
        assertThat(acquired(partition(fx.callAndWait(fetch, 2, shareFetch(A, 0, 0))))).containsExactly("0-9 x1");
        Struct accept = shareFetch(A, 1, 0);
        addAcknowledgement(accept.get(Request.TOPICS).get(0).get(FetchTopic.PARTITIONS).get(0), 0, 9, (byte) 1);
        assertThat(partition(fx.callAndWait(fetch, 2, accept)).get(PartitionData.ACKNOWLEDGE_ERROR_CODE))
                .isEqualTo(ErrorCode.NONE.code());
        fx.callAndWait(fetch, 2, shareFetch(A, -1, 0));
        DataPathFixture.await(() -> shares.openSharePartitions() == 0);

        // AlterShareGroupOffsets to 0, through the share coordinator only (a new state epoch).
        persister.initialize(new SharePartitionKey(GROUP, orders, 0), 2, 0L).join();
        Struct again = partition(fx.callAndWait(fetch, 2, shareFetch(A, 0, 0)));

        assertThat(acquired(again)).containsExactly("0-9 x1");
        assertThat(DataPathFixture.records(again.get(PartitionData.RECORDS))).hasSize(10).first().isEqualTo("0:k-r0=r0");
    }

    @Test
    void sharePartitionsOfGroupsWhoseSessionsAllClosedAreNotKept() {
        fx.append("orders", 0, 1L, "a");
        for (int g = 1; g <= 5; g++) {
            assertThat(fx.callAndWait(fetch, 2, shareFetch("g" + g, A, 0, 0)).get(Response.ERROR_CODE))
                    .isEqualTo(ErrorCode.NONE.code());
        }
        assertThat(shares.openSharePartitions()).isEqualTo(5);

        for (int g = 1; g <= 5; g++) {
            fx.callAndWait(fetch, 2, shareFetch("g" + g, A, -1, 0));
        }

        DataPathFixture.await(() -> shares.openSharePartitions() == 0);
        assertThat(shares.sessions().size()).isZero();
    }

    @Test
    void aClosingAcknowledgeEndsOnlyTheSessionItClosedNotOneOpenedWhileItPersisted() {
        fx.append("orders", 0, 1L, "a");
        fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));
        persister.writes = new CompletableFuture<>();
        CompletableFuture<Struct> closingAck = fx.call(acknowledge, 2, shareAcknowledge(A, -1, 0, 0, (byte) 1));
        CompletableFuture<Struct> closingFetch = fx.call(fetch, 2, shareFetch(A, -1, 0));

        fx.callAndWait(fetch, 2, shareFetch(A, 0, 0)); // the member opens a new session meanwhile
        var reopened = shares.sessions().get(GROUP, A);
        persister.writes.complete(null);

        assertThat(closingAck.orTimeout(10, TimeUnit.SECONDS).join().get(ShareAcknowledgeApi.Response.ERROR_CODE))
                .isEqualTo(ErrorCode.NONE.code());
        closingFetch.orTimeout(10, TimeUnit.SECONDS).join();
        assertThat(reopened).isNotNull();
        assertThat(shares.sessions().get(GROUP, A)).isSameAs(reopened);
    }

    @Test
    void sessionEpochsAreCheckedAsKafkaDoes() {
        assertThat(fx.callAndWait(fetch, 2, shareFetch(A, 3, 0)).get(Response.ERROR_CODE))
                .isEqualTo(ErrorCode.SHARE_SESSION_NOT_FOUND.code());
        fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));
        assertThat(fx.callAndWait(fetch, 2, shareFetch(A, 2, 0)).get(Response.ERROR_CODE))
                .isEqualTo(ErrorCode.INVALID_SHARE_SESSION_EPOCH.code());
        assertThat(fx.callAndWait(fetch, 2, shareFetch(A, 1, 0)).get(Response.ERROR_CODE))
                .isEqualTo(ErrorCode.NONE.code());
        // ShareAcknowledge moves the same session on: 2 now, then 3 for the fetch.
        assertThat(fx.callAndWait(acknowledge, 2, shareAcknowledge(A, 0, 0, 0, (byte) 1))
                .get(ShareAcknowledgeApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_SHARE_SESSION_EPOCH.code());
        assertThat(fx.callAndWait(acknowledge, 2, shareAcknowledge(A, 2, 0, 0, (byte) 1))
                .get(ShareAcknowledgeApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(fx.callAndWait(fetch, 2, shareFetch(A, 3, 0)).get(Response.ERROR_CODE))
                .isEqualTo(ErrorCode.NONE.code());
        // Acknowledgements in an opening request are refused.
        Struct opening = shareFetch(B, 0, 0);
        addAcknowledgement(opening.get(Request.TOPICS).get(0).get(FetchTopic.PARTITIONS).get(0), 0, 0, (byte) 1);
        assertThat(fx.callAndWait(fetch, 2, opening).get(Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
    }

    @Test
    void missingGroupOrMemberIdsAreInvalidRequests() {
        Struct noGroup = shareFetch(A, 0, 0).set(Request.GROUP_ID, "");
        Struct noMember = shareFetch("", 0, 0);
        Struct longMember = shareFetch("m".repeat(37), 0, 0);

        Struct a = fx.callAndWait(fetch, 1, noGroup);
        assertThat(a.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
        assertThat(a.get(Response.ERROR_MESSAGE)).isEqualTo("Invalid group id in the request.");
        assertThat(fx.callAndWait(fetch, 1, noMember).get(Response.ERROR_MESSAGE)).isEqualTo("Invalid member id in the request.");
        assertThat(fx.callAndWait(fetch, 1, longMember).get(Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
    }

    @Test
    void malformedAcknowledgementsAreInvalidRequestsForTheirPartition() {
        fx.append("orders", 0, 1L, "a", "b", "c");
        fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));
        Struct request = ShareAcknowledgeApi.Request.SCHEMA.newStruct()
                .set(ShareAcknowledgeApi.Request.GROUP_ID, GROUP)
                .set(ShareAcknowledgeApi.Request.MEMBER_ID, A)
                .set(ShareAcknowledgeApi.Request.SHARE_SESSION_EPOCH, 1);
        Struct part = request.add(ShareAcknowledgeApi.Request.TOPICS)
                .set(ShareAcknowledgeApi.Request.AcknowledgeTopic.TOPIC_ID, orders)
                .add(ShareAcknowledgeApi.Request.AcknowledgeTopic.PARTITIONS)
                .set(ShareAcknowledgeApi.Request.AcknowledgeTopic.AcknowledgePartition.PARTITION_INDEX, 0);
        // Two types for three offsets: neither one for the range nor one per offset.
        part.add(ShareAcknowledgeApi.Request.AcknowledgeTopic.AcknowledgePartition.ACKNOWLEDGEMENT_BATCHES)
                .set(ShareAcknowledgeApi.Request.AcknowledgeTopic.AcknowledgePartition.AcknowledgementBatch.FIRST_OFFSET, 0L)
                .set(ShareAcknowledgeApi.Request.AcknowledgeTopic.AcknowledgePartition.AcknowledgementBatch.LAST_OFFSET, 2L)
                .set(ShareAcknowledgeApi.Request.AcknowledgeTopic.AcknowledgePartition.AcknowledgementBatch.ACKNOWLEDGE_TYPES,
                        List.of((byte) 1, (byte) 1));
        Struct unknownTopic = shareAcknowledge(A, 2, 0, 0, (byte) 1);
        unknownTopic.get(ShareAcknowledgeApi.Request.TOPICS).get(0)
                .set(ShareAcknowledgeApi.Request.AcknowledgeTopic.TOPIC_ID, UUID.randomUUID());

        assertThat(ackPartitionError(fx.callAndWait(acknowledge, 2, request))).isEqualTo(ErrorCode.INVALID_REQUEST.code());
        assertThat(ackPartitionError(fx.callAndWait(acknowledge, 2, unknownTopic))).isEqualTo(ErrorCode.UNKNOWN_TOPIC_ID.code());
    }

    @Test
    void aFullShareSessionCacheAnswersShareSessionLimitReached() {
        shares.close();
        shares = new SharePartitionManager(fx.partitions, new InMemoryPersister(),
                GroupConfigs.defaults(BrokerConfig.of(Map.of("group.share.max.share.sessions", "1"))),
                new ScheduledShareTimers("test-share-timers"));
        fetch = new ShareFetchHandler(shares, fx, fx.partitions, fx.cluster, 52428800);
        fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));

        Struct refused = fx.call(fetch, 2, shareFetch(B, 0, 20)).orTimeout(10, TimeUnit.SECONDS).join();

        assertThat(refused.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.SHARE_SESSION_LIMIT_REACHED.code());
        assertThat(refused.get(Response.RESPONSES)).isEmpty();
    }

    @Test
    void unknownTopicIdsAreAnsweredUnknownTopicId() {
        Struct request = shareFetch(A, 0, 0);
        request.get(Request.TOPICS).get(0).set(FetchTopic.TOPIC_ID, UUID.randomUUID());

        assertThat(partition(fx.callAndWait(fetch, 2, request)).get(PartitionData.ERROR_CODE))
                .isEqualTo(ErrorCode.UNKNOWN_TOPIC_ID.code());
    }

    @Test
    void acquiredRecordsGoOutAsAFileRegionThatKafkaCanRead() throws Exception {
        fx.append("orders", 0, 1L, "a", "b");
        fx.append("orders", 0, 2L, "c");
        Struct response = fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));

        for (short version = 1; version <= 2; version++) {
            List<Object> parts = ResponseEncoder.encode(ByteBufAllocator.DEFAULT, ShareFetchApi.SPEC, version, 9, response);
            assertThat(parts).anySatisfy(part -> assertThat(part).isInstanceOf(FileRegion.class));
            ByteBuffer frame = FetchHandlerTest.gather(parts);

            assertThat(frame.getInt()).isEqualTo(frame.remaining());
            assertThat(frame.getInt()).isEqualTo(9);
            assertThat(frame.get()).isZero(); // no tagged fields in the response header
            ShareFetchResponseData kafka = new ShareFetchResponseData(new ByteBufferAccessor(frame), version);
            assertThat(kafka.errorCode()).isZero();
            assertThat(kafka.acquisitionLockTimeoutMs()).isEqualTo(30000);
            ShareFetchResponseData.PartitionData p = kafka.responses().iterator().next().partitions().get(0);
            assertThat(p.acquiredRecords()).extracting(a -> a.firstOffset() + "-" + a.lastOffset() + " x" + a.deliveryCount())
                    .as("version %d", version).containsExactly("0-2 x1");
            assertThat(DataPathFixture.records(((MemoryRecords) p.records()).buffer()))
                    .containsExactly("0:k-a=a", "1:k-b=b", "2:k-c=c");
        }
    }

    @Test
    void shareAcknowledgeAnswersAreWhatKafkasClientsRead() throws Exception {
        fx.append("orders", 0, 1L, "a");
        fx.callAndWait(fetch, 2, shareFetch(A, 0, 0));
        for (short version = 1; version <= 2; version++) {
            Struct response = fx.callAndWait(acknowledge, version, shareAcknowledge(A, version, 0, 0, (byte) 2));

            ByteBuffer frame = FetchHandlerTest.gather(ResponseEncoder.encode(ByteBufAllocator.DEFAULT,
                    ShareAcknowledgeApi.SPEC, version, 5, response));
            frame.getInt();
            frame.getInt();
            frame.get();
            ShareAcknowledgeResponseData kafka = new ShareAcknowledgeResponseData(new ByteBufferAccessor(frame), version);
            assertThat(kafka.errorCode()).isZero();
            assertThat(kafka.acquisitionLockTimeoutMs()).as("version %d", version).isEqualTo(version >= 2 ? 30000 : 0);
            ShareAcknowledgeResponseData.PartitionData p = kafka.responses().iterator().next().partitions().get(0);
            assertThat(p.partitionIndex()).isZero();
            assertThat(p.errorCode()).as("version %d", version)
                    .isEqualTo(version == 1 ? ErrorCode.NONE.code() : ErrorCode.INVALID_RECORD_STATE.code());
        }
    }

    // ------------------------------------------------------------------ requests and answers

    private Struct shareFetch(String member, int epoch, int maxWaitMs) {
        return shareFetch(GROUP, member, epoch, maxWaitMs);
    }

    private Struct shareFetch(String group, String member, int epoch, int maxWaitMs) {
        Struct request = ShareFetchApi.Request.SCHEMA.newStruct()
                .set(Request.GROUP_ID, group)
                .set(Request.MEMBER_ID, member)
                .set(Request.SHARE_SESSION_EPOCH, epoch)
                .set(Request.MAX_WAIT_MS, maxWaitMs)
                .set(Request.MIN_BYTES, 1)
                .set(Request.MAX_BYTES, 1 << 20)
                .set(Request.MAX_RECORDS, 500)
                .set(Request.BATCH_SIZE, 500);
        if (epoch >= 0) {
            request.add(Request.TOPICS).set(FetchTopic.TOPIC_ID, orders)
                    .add(FetchTopic.PARTITIONS).set(FetchPartition.PARTITION_INDEX, 0);
        }
        return request;
    }

    private static void addAcknowledgement(Struct partition, long first, long last, byte type) {
        partition.add(FetchPartition.ACKNOWLEDGEMENT_BATCHES)
                .set(FetchPartition.AcknowledgementBatch.FIRST_OFFSET, first)
                .set(FetchPartition.AcknowledgementBatch.LAST_OFFSET, last)
                .set(FetchPartition.AcknowledgementBatch.ACKNOWLEDGE_TYPES, List.of(type));
    }

    private Struct shareAcknowledge(String member, int epoch, long first, long last, byte type) {
        Struct request = ShareAcknowledgeApi.Request.SCHEMA.newStruct()
                .set(ShareAcknowledgeApi.Request.GROUP_ID, GROUP)
                .set(ShareAcknowledgeApi.Request.MEMBER_ID, member)
                .set(ShareAcknowledgeApi.Request.SHARE_SESSION_EPOCH, epoch);
        request.add(ShareAcknowledgeApi.Request.TOPICS)
                .set(ShareAcknowledgeApi.Request.AcknowledgeTopic.TOPIC_ID, orders)
                .add(ShareAcknowledgeApi.Request.AcknowledgeTopic.PARTITIONS)
                .set(ShareAcknowledgeApi.Request.AcknowledgeTopic.AcknowledgePartition.PARTITION_INDEX, 0)
                .add(ShareAcknowledgeApi.Request.AcknowledgeTopic.AcknowledgePartition.ACKNOWLEDGEMENT_BATCHES)
                .set(ShareAcknowledgeApi.Request.AcknowledgeTopic.AcknowledgePartition.AcknowledgementBatch.FIRST_OFFSET, first)
                .set(ShareAcknowledgeApi.Request.AcknowledgeTopic.AcknowledgePartition.AcknowledgementBatch.LAST_OFFSET, last)
                .set(ShareAcknowledgeApi.Request.AcknowledgeTopic.AcknowledgePartition.AcknowledgementBatch.ACKNOWLEDGE_TYPES,
                        List.of(type));
        return request;
    }

    /** The only partition of a ShareFetch answer (fails on a top-level error). */
    private static Struct partition(Struct response) {
        assertThat(response.get(Response.ERROR_CODE)).as("top-level error").isEqualTo(ErrorCode.NONE.code());
        return response.get(Response.RESPONSES).get(0).get(ShareFetchableTopicResponse.PARTITIONS).get(0);
    }

    private static short ackPartitionError(Struct response) {
        return response.get(ShareAcknowledgeApi.Response.RESPONSES).get(0)
                .get(ShareAcknowledgeApi.Response.ShareAcknowledgeTopicResponse.PARTITIONS).get(0)
                .get(ShareAcknowledgeApi.Response.ShareAcknowledgeTopicResponse.PartitionData.ERROR_CODE);
    }

    /** What a response acquired on the partition; none when the answer left the partition out. */
    private static List<String> acquiredIn(Struct response) {
        assertThat(response.get(Response.ERROR_CODE)).as("top-level error").isEqualTo(ErrorCode.NONE.code());
        return response.get(Response.RESPONSES).isEmpty() ? List.of() : acquired(partition(response));
    }

    /** "first-last xDeliveryCount" for each AcquiredRecords entry. */
    private static List<String> acquired(Struct partition) {
        List<String> out = new ArrayList<>();
        for (Struct a : partition.get(PartitionData.ACQUIRED_RECORDS)) {
            out.add(a.get(PartitionData.AcquiredRecords.FIRST_OFFSET) + "-" + a.get(PartitionData.AcquiredRecords.LAST_OFFSET)
                    + " x" + a.get(PartitionData.AcquiredRecords.DELIVERY_COUNT));
        }
        return out;
    }

    /** Share state kept in memory: a partition never initialized reads UNKNOWN_TOPIC_OR_PARTITION, as Kafka's. */
    static final class InMemoryPersister implements SharePersister {
        private final Map<SharePartitionKey, long[]> starts = new ConcurrentHashMap<>();
        /** Writes complete once this does (a test holds them back). */
        volatile CompletableFuture<Void> writes = CompletableFuture.completedFuture(null);

        @Override
        public CompletableFuture<ErrorCode> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
            starts.put(key, new long[] {stateEpoch, startOffset});
            return CompletableFuture.completedFuture(ErrorCode.NONE);
        }

        @Override
        public CompletableFuture<PersistedShareState> read(SharePartitionKey key, int leaderEpoch) {
            long[] state = starts.get(key);
            return CompletableFuture.completedFuture(state == null
                    ? PersistedShareState.error(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null)
                    : new PersistedShareState(ErrorCode.NONE, null, (int) state[0], state[1], leaderEpoch, List.of()));
        }

        @Override
        public CompletableFuture<ErrorCode> write(SharePartitionKey key, int stateEpoch, int leaderEpoch, long startOffset,
                int deliveryCompleteCount, List<StateBatch> batches) {
            return writes.thenApply(v -> {
                starts.put(key, new long[] {stateEpoch, startOffset});
                return ErrorCode.NONE;
            });
        }

        @Override
        public CompletableFuture<ShareStateSummary> readSummary(SharePartitionKey key, int leaderEpoch) {
            return CompletableFuture.completedFuture(ShareStateSummary.error(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null));
        }

        @Override
        public CompletableFuture<ErrorCode> delete(SharePartitionKey key) {
            starts.remove(key);
            return CompletableFuture.completedFuture(ErrorCode.NONE);
        }
    }
}
