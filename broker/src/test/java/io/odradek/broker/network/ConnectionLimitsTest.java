package io.odradek.broker.network;

import static io.odradek.broker.network.BackpressureTest.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.Broker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.ProduceRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connection limits as Kafka applies them: idle and half-sent connections closed after
 * connections.max.idle.ms, per-IP and broker-wide caps, oversize frames refused, and a failed acks=0 produce
 * closing its connection with one log line.
 */
class ConnectionLimitsTest {
    @TempDir
    Path logDir;
    Broker broker;
    final LoopbackBroker loopback = new LoopbackBroker();

    @AfterEach
    void stop() throws Exception {
        loopback.close();
    }

    private void start(Map<String, String> settings) throws InterruptedException {
        broker = loopback.start(logDir, settings);
    }

    private RawClient connect() throws IOException {
        return loopback.connect(0);
    }

    private void createTopic(String name) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.port()))) {
            admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get();
        }
    }

    @Test
    void idleConnectionIsClosedAfterConnectionsMaxIdleMs() throws Exception {
        start(Map.of("connections.max.idle.ms", "300"));
        RawClient idle = connect();
        assertThat(idle.apiVersions(1)).isZero();
        assertThat(idle.closedByBroker(5_000)).as("closed after being idle").isTrue();
        awaitTrue(() -> broker.network().connections().open() == 0, "the broker counts it closed");
    }

    @Test
    void halfSentRequestDoesNotKeepAConnectionOpen() throws Exception {
        start(Map.of("connections.max.idle.ms", "300"));
        RawClient halfSent = connect();
        byte[] request = RawClient.apiVersionsFrame(1);
        halfSent.send(java.util.Arrays.copyOf(request, request.length / 2));
        awaitTrue(() -> broker.network().requestMemory().usedBytes() > 0, "the frame's size is reserved");
        assertThat(halfSent.closedByBroker(5_000)).as("closed with its request half-sent").isTrue();
        awaitTrue(() -> broker.network().requestMemory().usedBytes() == 0, "its reservation is released");
    }

    @Test
    void connectionThatKeepsSendingRequestsStaysOpen() throws Exception {
        start(Map.of("connections.max.idle.ms", "1000"));
        byte[][] requests = new byte[11][];
        for (int i = 0; i < requests.length; i++) {
            requests[i] = RawClient.apiVersionsFrame(i); // built first: loading Kafka's classes can be slow
        }
        RawClient busy = connect();
        for (int i = 0; i < requests.length; i++) {
            busy.send(requests[i]);
            ByteBuffer answer = busy.readFrame();
            assertThat(answer.getInt()).as("correlation id").isEqualTo(i);
            assertThat(answer.getShort()).as("error code").isZero();
            Thread.sleep(250);
        }
        assertThat(broker.network().connections().open()).as("open after 2.5x the idle time in total").isEqualTo(1);
    }

    @Test
    void connectionWaitingOnALongPollFetchIsNotIdle() throws Exception {
        start(Map.of("connections.max.idle.ms", "1000"));
        createTopic("long-poll");
        RawClient consumer = connect();
        int maxWaitMs = 3_000;
        consumer.send(RawClient.frame(FetchRequest.Builder.forConsumer((short) 12, maxWaitMs, 1,
                Map.of(new TopicPartition("long-poll", 0), new FetchRequest.PartitionData(Uuid.ZERO_UUID, 0, 0,
                        1024 * 1024, Optional.empty()))).build((short) 12), "consumer", 42));
        ByteBuffer answer = consumer.readFrame();
        assertThat(answer.getInt()).as("the parked fetch is answered, not cut off").isEqualTo(42);
        assertThat(consumer.apiVersions(43)).as("and the connection is still open").isZero();
    }

    @Test
    void connectionOverThePerIpCapIsClosedAndTheOthersKeepWorking() throws Exception {
        try (CapturedLog log = new CapturedLog("io.odradek.broker.network")) {
            start(Map.of("max.connections.per.ip", "2"));
            RawClient first = connect();
            RawClient second = connect();
            RawClient third = connect();
            assertThat(third.closedByBroker(5_000)).as("the third connection from 127.0.0.1").isTrue();
            assertThat(first.apiVersions(1)).isZero();
            assertThat(second.apiVersions(2)).isZero();
            assertThat(log.lines(Level.INFO)).containsExactly("INFO rejected connection from 127.0.0.1: it already "
                    + "has the configured maximum of 2 connections (max.connections.per.ip)");

            first.close();
            awaitTrue(() -> broker.network().connections().open() == 1, "the first one is gone");
            assertThat(connect().apiVersions(3)).as("a slot freed is usable again").isZero();
        }
    }

    @Test
    void aDynamicPerIpCapAppliesToTheNextConnections() throws Exception {
        start(Map.of());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.port()))) {
            admin.incrementalAlterConfigs(Map.of(
                    new org.apache.kafka.common.config.ConfigResource(
                            org.apache.kafka.common.config.ConfigResource.Type.BROKER, ""),
                    List.of(new org.apache.kafka.clients.admin.AlterConfigOp(
                            new org.apache.kafka.clients.admin.ConfigEntry("max.connections.per.ip", "2"),
                            org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET)))).all().get();
        }
        awaitTrue(() -> broker.network().connections().open() == 0, "the admin connection closed");

        RawClient first = connect();
        RawClient second = connect();
        RawClient third = connect();

        assertThat(third.closedByBroker(5_000)).as("the third connection from 127.0.0.1").isTrue();
        assertThat(first.apiVersions(1)).isZero();
        assertThat(second.apiVersions(2)).isZero();
        assertThat(broker.network().connections().limits().maxConnectionsPerIp()).isEqualTo(2);
    }

    @Test
    void perIpOverrideRaisesTheCapForThatAddress() throws Exception {
        start(Map.of("max.connections.per.ip", "1", "max.connections.per.ip.overrides", "localhost:5, 127.0.0.1:3"));
        List<RawClient> admitted = List.of(connect(), connect(), connect());
        RawClient fourth = connect();
        assertThat(fourth.closedByBroker(5_000)).as("the fourth connection from 127.0.0.1").isTrue();
        int correlationId = 1;
        for (RawClient client : admitted) {
            assertThat(client.apiVersions(correlationId++)).isZero();
        }
        assertThat(broker.network().connections().open(java.net.InetAddress.getByName("127.0.0.1"))).isEqualTo(3);
    }

    @Test
    void atMaxConnectionsTheBrokerStopsAcceptingUntilOneCloses() throws Exception {
        start(Map.of("max.connections", "2"));
        RawClient first = connect();
        RawClient second = connect();
        assertThat(first.apiVersions(1)).isZero();
        assertThat(second.apiVersions(2)).isZero();

        // The kernel completes the handshake (the listen backlog), but the broker does not accept it yet.
        RawClient third = connect();
        third.send(RawClient.apiVersionsFrame(3));
        assertThat(third.closedByBroker(500)).as("waiting, neither answered nor closed").isFalse();
        assertThat(broker.network().connections().open()).isEqualTo(2);

        first.close();
        ByteBuffer answer = third.readFrame();
        assertThat(answer.getInt()).as("accepted and answered once a slot freed").isEqualTo(3);
        assertThat(second.apiVersions(4)).isZero();
    }

    @Test
    @SuppressWarnings("try") // onB is closed early on purpose: its close is what the test is about
    void withSeveralListenersEveryOneAcceptsAgainAsSoonAsAConnectionOnAnyListenerCloses() throws Exception {
        Map<String, String> settings = new java.util.HashMap<>();
        settings.put("node.id", "1");
        settings.put("listeners", "A://127.0.0.1:0,B://127.0.0.1:0");
        settings.put("listener.security.protocol.map", "A:PLAINTEXT,B:PLAINTEXT");
        settings.put("inter.broker.listener.name", "A");
        settings.put("log.dirs", logDir.toString());
        settings.put("max.connections", "2");
        try (Broker twoListeners = Broker.start(io.odradek.broker.BrokerConfig.of(settings));
                RawClient onB = new RawClient(twoListeners.address("B").getPort());
                RawClient onA = new RawClient(twoListeners.address("A").getPort())) {
            assertThat(onB.apiVersions(1)).isZero();
            assertThat(onA.apiVersions(2)).isZero(); // the second connection: the broker is at its cap

            onB.close();
            awaitTrue(() -> twoListeners.network().connections().open() == 1, "the connection on B is gone");
            try (RawClient laterOnA = new RawClient(twoListeners.address("A").getPort())) {
                laterOnA.send(RawClient.apiVersionsFrame(3));
                ByteBuffer answer = laterOnA.readFrame();
                assertThat(answer.getInt()).as("accepted on A although the closed one was on B").isEqualTo(3);
                assertThat(answer.getShort()).as("error code").isZero();
            }
            assertThat(onA.apiVersions(4)).isZero();
        }
    }

    @Test
    void oversizeFrameClosesTheConnectionWithOneLineAndBuffersNothing() throws Exception {
        try (CapturedLog log = new CapturedLog("io.odradek.broker.network")) {
            start(Map.of("socket.request.max.bytes", "1024"));
            RawClient bystander = connect();
            for (int i = 0; i < 3; i++) {
                RawClient bad = connect();
                bad.send(ByteBuffer.allocate(4 + 100).putInt(1025).array());
                assertThat(bad.closedByBroker(5_000)).isTrue();
            }
            assertThat(broker.network().requestMemory().usedBytes()).isZero();
            assertThat(bystander.apiVersions(1)).isZero();
            List<String> warnings = log.lines(Level.WARNING);
            assertThat(warnings).hasSize(1).allSatisfy(line -> assertThat(line)
                    .matches("WARNING closing connection from /127\\.0\\.0\\.1:\\d+: request size 1025 is larger than"
                            + " socket\\.request\\.max\\.bytes=1024"));
            assertThat(log.records).extracting(LogRecord::getThrown).containsOnlyNulls();
        }
    }

    @Test
    void failedAcksZeroProduceClosesTheConnectionWithOneEscapedLineAndNoStackTrace() throws Exception {
        try (CapturedLog log = new CapturedLog("io.odradek.broker.network")) {
            start(Map.of());
            createTopic("one-partition");
            for (int attempt = 0; attempt < 3; attempt++) {
                RawClient producer = connect();
                ProduceRequestData data = new ProduceRequestData().setAcks((short) 0).setTimeoutMs(10_000);
                data.topicData().add(new ProduceRequestData.TopicProduceData().setName("one-partition")
                        .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(7)
                                .setRecords(MemoryRecords.withRecords(Compression.NONE,
                                        new SimpleRecord("v".getBytes(StandardCharsets.UTF_8)))))));
                producer.send(RawClient.frame(ProduceRequest.builder(data).build((short) 12), "evil\nclient\u001b[31m",
                        5));
                assertThat(producer.closedByBroker(5_000)).as("an acks=0 failure closes the connection").isTrue();
            }
            List<String> warnings = log.lines(Level.WARNING);
            assertThat(warnings).as("one line for three failures in a second").hasSize(1);
            assertThat(warnings.get(0))
                    .startsWith("WARNING closing connection from /127.0.0.1:")
                    .contains("(client id evil\\nclient\\u001b[31m) after Produce v12 (correlation id 5): "
                            + "produce with acks=0 failed")
                    .contains("one-partition-7=UNKNOWN_TOPIC_OR_PARTITION")
                    .doesNotContain("\n", "\u001b");
            assertThat(log.records).extracting(LogRecord::getThrown).containsOnlyNulls();
        }
    }
}
