package io.odradek.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.replication.security.SecurityMetadataStore.ScramChange;
import io.odradek.security.scram.ScramFormatter;
import io.odradek.security.scram.ScramMechanism;
import io.odradek.wire.ErrorCode;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster broker binds its listeners at start (their ports go into its registration) but serves no client until
 * it caught up with the metadata, ACLs and SCRAM credentials included, as Kafka enables request processing only
 * then: a connection made before waits, unanswered, and is served once the image arrives; a SCRAM login then works
 * at once (before, the broker had no credentials and would have refused it).
 */
class ServingAfterCatchUpTest {
    @TempDir
    Path root;

    private final FakeQuorum quorum = new FakeQuorum();
    private Broker broker;

    @AfterEach
    void tearDown() {
        if (broker != null) {
            broker.close();
        }
        quorum.close();
    }

    /** A node's channel whose images (pushed and asked for) are held back until {@link #release}. */
    private static final class HeldImages implements ControllerChannel {
        private final ControllerChannel inner;
        private final List<Consumer<ClusterImage>> listeners = new CopyOnWriteArrayList<>();
        private volatile boolean released;

        HeldImages(ControllerChannel inner) {
            this.inner = inner;
            inner.addListener(image -> {
                if (released) {
                    listeners.forEach(l -> l.accept(image));
                }
            });
        }

        void release() {
            released = true;
            ClusterImage now = inner.image();
            listeners.forEach(l -> l.accept(now));
        }

        @Override
        public CompletableFuture<CommandResult> submit(ControllerCommand command) {
            return inner.submit(command);
        }

        @Override
        public CompletableFuture<HeartbeatReply> heartbeat(BrokerHeartbeat heartbeat) {
            return inner.heartbeat(heartbeat);
        }

        @Override
        public CompletableFuture<QuorumInfo> describeQuorum() {
            return inner.describeQuorum();
        }

        @Override
        public ClusterImage image() {
            return released ? inner.image() : ClusterImage.EMPTY;
        }

        @Override
        public void addListener(Consumer<ClusterImage> listener) {
            listeners.add(listener);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    private static byte[] apiVersionsV0(int correlationId) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(10);
            out.writeShort(18); // ApiVersions
            out.writeShort(0);
            out.writeInt(correlationId);
            out.writeShort(-1); // no client id
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return bytes.toByteArray();
    }

    @Test
    void aClusterBrokerServesNoConnectionBeforeItsFirstImageAndThenAcceptsAScramLoginAtOnce() throws Exception {
        // alice's credential is in the metadata before the broker starts.
        ControllerChannel admin = quorum.channel();
        ScramFormatter scram = new ScramFormatter(ScramMechanism.SCRAM_SHA_256);
        CommandResult stored = admin.submit(new ControllerCommand.AlterScramCredentials(List.of(
                new ScramChange("alice", ScramMechanism.SCRAM_SHA_256, scram.credential("alice-secret", 4096)))))
                .get(10, TimeUnit.SECONDS);
        assertThat(stored.error()).isEqualTo(ErrorCode.NONE);

        Map<String, String> settings = new HashMap<>();
        settings.put("process.roles", "broker,controller");
        settings.put("node.id", "1");
        settings.put("controller.quorum.voters", "1@127.0.0.1:29101");
        settings.put("controller.listener.names", "CONTROLLER");
        settings.put("listeners", "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0,CONTROLLER://127.0.0.1:29101");
        settings.put("listener.security.protocol.map",
                "PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT");
        settings.put("inter.broker.listener.name", "PLAINTEXT");
        settings.put("sasl.enabled.mechanisms", "SCRAM-SHA-256");
        settings.put("listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        settings.put("log.dirs", root.resolve("node-1").toString());
        settings.put("broker.heartbeat.interval.ms", "100");
        List<HeldImages> channels = new ArrayList<>();
        broker = Broker.start(BrokerConfig.of(settings), c -> {
            HeldImages held = new HeldImages(quorum.channel());
            channels.add(held);
            return held;
        });

        // Bound, but the connection waits unanswered while the broker has no image.
        assertThat(broker.address("SASL_PLAINTEXT").getPort()).isPositive();
        assertThat(broker.network().accepting()).isFalse();
        try (Socket early = new Socket("127.0.0.1", broker.address("PLAINTEXT").getPort())) {
            early.getOutputStream().write(apiVersionsV0(41));
            early.setSoTimeout(1000);
            DataInputStream in = new DataInputStream(early.getInputStream());
            assertThatThrownBy(in::readInt).isInstanceOf(SocketTimeoutException.class);

            channels.get(0).release();

            // The same connection is served once the image is applied.
            early.setSoTimeout(15_000);
            int size = in.readInt();
            assertThat(size).isGreaterThan(6);
            assertThat(in.readInt()).isEqualTo(41);
            assertThat(in.readShort()).isEqualTo(ErrorCode.NONE.code());
        }
        assertThat(broker.network().accepting()).isTrue();
        assertThat(broker.security().scramCredentials()).containsOnlyKeys("alice");

        // The first SCRAM login succeeds: the credential was applied before the first connection was accepted.
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.address("SASL_PLAINTEXT").getPort());
        props.put(AdminClientConfig.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        props.put("sasl.mechanism", "SCRAM-SHA-256");
        props.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"alice\" password=\"alice-secret\";");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        try (Admin client = Admin.create(props)) {
            List<Integer> ids = client.describeCluster().nodes().get(15, TimeUnit.SECONDS).stream().map(Node::id).toList();
            assertThat(ids).containsExactly(1);
        }
    }
}
