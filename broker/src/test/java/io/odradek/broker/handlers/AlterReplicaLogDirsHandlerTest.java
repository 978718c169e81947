package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.odradek.broker.BrokerConfig;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.fetch.PartitionLogs;
import io.odradek.broker.topics.TopicService;
import io.odradek.replication.partition.FetchIsolation;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.PartitionWriters;
import io.odradek.replication.partition.Partitions;
import io.odradek.replication.partition.WaitingOperations;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AlterReplicaLogDirsApi;
import io.odradek.wire.api.AlterReplicaLogDirsApi.Request.AlterReplicaLogDir;
import io.odradek.wire.api.AlterReplicaLogDirsApi.Request.AlterReplicaLogDir.AlterReplicaLogDirTopic;
import io.odradek.wire.api.AlterReplicaLogDirsApi.Response;
import io.odradek.wire.api.AlterReplicaLogDirsApi.Response.AlterReplicaLogDirTopicResult;
import io.odradek.wire.api.AlterReplicaLogDirsApi.Response.AlterReplicaLogDirTopicResult.AlterReplicaLogDirPartitionResult;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Struct;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AlterReplicaLogDirsHandlerTest {
    @TempDir
    Path dirA;
    @TempDir
    Path dirB;
    @TempDir
    Path elsewhere;
    TopicService topics;
    Partitions partitions;
    AlterReplicaLogDirsHandler handler;

    @BeforeEach
    void setUp() {
        BrokerConfig config = BrokerConfig.of(Map.of("node.id", "1", "listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", dirA + "," + dirB));
        topics = TopicService.open(config);
        partitions = new Partitions(PartitionLogs.of(topics), new PartitionWriters(2), new WaitingOperations<>("test"));
        handler = new AlterReplicaLogDirsHandler(topics, partitions, null);
        topics.createTopic("orders", 2, Map.of(), false); // orders-0 in dirA, orders-1 in dirB
    }

    @AfterEach
    void tearDown() {
        partitions.close();
        topics.close();
    }

    record Answer(String topic, int partition, ErrorCode error) {
    }

    @Test
    void aPartitionMovesToTheNamedDirWithItsRecordsAndTheNextLookupReadsThere() {
        Partition before = partitions.partition("orders", 0).orElseThrow();
        before.appendAsLeader(DataPathFixture.batch(1_000L, "a", "b"), (short) 1).orTimeout(10, TimeUnit.SECONDS).join();
        assertThat(before.log().dir().getParent()).isEqualTo(dirA);

        assertThat(alter(2, dirB.toString(), "orders", 0)).containsExactly(new Answer("orders", 0, ErrorCode.NONE));

        assertThat(topics.partitionLog("orders", 0).orElseThrow().dir()).isEqualTo(dirB.resolve("orders-0"));
        assertThat(dirA.resolve("orders-0")).doesNotExist();
        Partition after = partitions.partition("orders", 0).orElseThrow();
        assertThat(after).isNotSameAs(before);
        assertThat(DataPathFixture.records(after.read(0L, 1000, FetchIsolation.HIGH_WATERMARK).readIntoHeap()))
                .containsExactly("0:k-a=a", "1:k-b=b");
        assertThat(after.appendAsLeader(DataPathFixture.batch(2_000L, "c"), (short) 1).orTimeout(10, TimeUnit.SECONDS)
                .join().baseOffset()).isEqualTo(2L);
    }

    @Test
    void theDirItIsInAlreadyAnswersNoneAndMovesNothing() {
        assertThat(alter(0, dirB.toString(), "orders", 1)).containsExactly(new Answer("orders", 1, ErrorCode.NONE));
        assertThat(topics.partitionLog("orders", 1).orElseThrow().dir()).isEqualTo(dirB.resolve("orders-1"));
    }

    @Test
    void anUnknownDirIsLogDirNotFoundAndAnUnknownPartitionReplicaNotAvailable() {
        assertThat(alter(1, elsewhere.toString(), "orders", 0))
                .containsExactly(new Answer("orders", 0, ErrorCode.LOG_DIR_NOT_FOUND));
        assertThat(alter(2, dirB.toString(), "orders", 5))
                .containsExactly(new Answer("orders", 5, ErrorCode.REPLICA_NOT_AVAILABLE));
        assertThat(alter(2, dirB.toString(), "nope", 0))
                .containsExactly(new Answer("nope", 0, ErrorCode.REPLICA_NOT_AVAILABLE));
        assertThat(topics.partitionLog("orders", 0).orElseThrow().dir()).isEqualTo(dirA.resolve("orders-0"));
    }

    private List<Answer> alter(int version, String dir, String topic, int partition) {
        Struct request = AlterReplicaLogDirsApi.Request.SCHEMA.newStruct();
        request.add(AlterReplicaLogDirsApi.Request.DIRS).set(AlterReplicaLogDir.PATH, dir)
                .add(AlterReplicaLogDir.TOPICS).set(AlterReplicaLogDirTopic.NAME, topic)
                .set(AlterReplicaLogDirTopic.PARTITIONS, List.of(partition));
        Struct response = AdminFixture.roundTrip(AlterReplicaLogDirsApi.SPEC.response(),
                handler.handle(context(version), AdminFixture.roundTrip(AlterReplicaLogDirsApi.SPEC.request(), request,
                        (short) version, version >= 2)).orTimeout(10, TimeUnit.SECONDS).join(),
                (short) version, version >= 2);
        return response.get(Response.RESULTS).stream().flatMap(t -> t.get(AlterReplicaLogDirTopicResult.PARTITIONS)
                .stream().map(p -> new Answer(t.get(AlterReplicaLogDirTopicResult.TOPIC_NAME),
                        p.get(AlterReplicaLogDirPartitionResult.PARTITION_INDEX),
                        ErrorCode.forCode(p.get(AlterReplicaLogDirPartitionResult.ERROR_CODE))))).toList();
    }

    private static RequestContext context(int version) {
        return new RequestContext(new RequestHeader((short) 34, (short) version, 1, "test"),
                new InetSocketAddress("127.0.0.1", 50000), UnpooledByteBufAllocator.DEFAULT,
                ImmediateEventExecutor.INSTANCE);
    }
}
