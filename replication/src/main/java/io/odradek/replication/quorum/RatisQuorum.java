package io.odradek.replication.quorum;

import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerCommand;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/**
 * This node's voter in the metadata quorum: an Apache Ratis server (gRPC) on its CONTROLLER address, in the one
 * Raft group of the cluster, holding the metadata log in {@code storageDir} and applying it with
 * {@link MetadataStateMachine}. While this voter is the Raft leader it is Kafka's active controller: a timer
 * ({@link ActiveController}, every 250 ms) fences silent brokers and unfences caught-up ones.
 *
 * <p>Start it with {@link #start}; brokers talk to it through a {@link RatisControllerChannel}.
 */
public final class RatisQuorum implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(RatisQuorum.class.getName());
    /** The cluster's one Raft group: the same on every node, so no node needs to be told it. */
    static final RaftGroupId GROUP_ID = RaftGroupId.valueOf(
            UUID.nameUUIDFromBytes("odradek-cluster-metadata".getBytes(StandardCharsets.UTF_8)));
    static final long ACTIVE_CONTROLLER_TICK_MS = 250;

    private final QuorumConfig config;
    private final MetadataModel model;
    private final ImagePublisher publisher;
    private final MetadataStateMachine stateMachine;
    private final RaftServer server;
    private final ScheduledExecutorService timer;
    private final ClientId ownClientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();

    private RatisQuorum(QuorumConfig config, MetadataModel model, Consumer<RaftProperties> tuning) throws IOException {
        this.config = config;
        this.model = model;
        this.publisher = new ImagePublisher("metadata-images-" + config.nodeId());
        this.stateMachine = new MetadataStateMachine(model, config.voters(), publisher);
        RaftProperties properties = properties(config);
        InetSocketAddress local = config.localAddress();
        GrpcConfigKeys.Server.setHost(properties, local.getHostString());
        GrpcConfigKeys.Server.setPort(properties, local.getPort());
        RaftServerConfigKeys.setStorageDir(properties, List.of(config.storageDir().toFile()));
        // Snapshots bound the log: one every N entries, the log purged up to it (whole closed segments, hence
        // segments small enough to close often), the leader sending its snapshot to a voter behind the purge.
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, config.snapshotEveryEntries());
        RaftServerConfigKeys.Snapshot.setCreationGap(properties, config.snapshotEveryEntries());
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(properties, 2);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
        RaftServerConfigKeys.Log.setPurgeGap(properties, (int) Math.min(Integer.MAX_VALUE, config.snapshotEveryEntries()));
        RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf("1MB"));
        RaftServerConfigKeys.Log.setPreallocatedSize(properties, SizeInBytes.valueOf("64KB"));
        tuning.accept(properties);
        this.server = RaftServer.newBuilder()
                .setServerId(peerId(config.nodeId()))
                .setGroup(group(config))
                .setStateMachine(stateMachine)
                .setProperties(properties)
                .setOption(RaftStorage.StartupOption.RECOVER)
                .build();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "active-controller-" + config.nodeId());
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts the Ratis server of a voter ({@code config.controller()} must be true); returns once it is up. */
    public static RatisQuorum start(QuorumConfig config) throws IOException {
        return start(config, MetadataModel.of(config.settings()), p -> { });
    }

    /** With another model (the quorum's tests) and Ratis properties adjusted after ours ({@code tuning}). */
    static RatisQuorum start(QuorumConfig config, MetadataModel model, Consumer<RaftProperties> tuning)
            throws IOException {
        if (!config.controller()) {
            throw new IllegalArgumentException("node " + config.nodeId() + " has no controller role");
        }
        RatisQuorum quorum = new RatisQuorum(config, model, tuning);
        try {
            quorum.server.start();
            quorum.checkMembership();
        } catch (IOException | RuntimeException e) {
            quorum.close();
            throw e;
        }
        ActiveController active = new ActiveController(quorum.stateMachine, config.sessionTimeoutMs(), quorum::submitHere);
        quorum.timer.scheduleWithFixedDelay(() -> {
            try {
                active.tick(quorum.server.getDivision(GROUP_ID).getInfo());
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.FINE, "active controller tick failed", e);
            }
        }, ACTIVE_CONTROLLER_TICK_MS, ACTIVE_CONTROLLER_TICK_MS, TimeUnit.MILLISECONDS);
        return quorum;
    }

    /**
     * Ratis keeps the group's membership in its storage and, recovering, uses that one, silently ignoring the
     * voters it is given: a changed {@code controller.quorum.voters} (other ids, other ports) would leave this voter
     * waiting for voters that do not exist. Membership changes are not supported, so we refuse to start.
     */
    private void checkMembership() throws IOException {
        Map<String, String> stored = new TreeMap<>();
        server.getDivision(GROUP_ID).getRaftConf().getCurrentPeers()
                .forEach(p -> stored.put(p.getId().toString(), p.getAddress()));
        Map<String, String> configured = new TreeMap<>();
        group(config).getPeers().forEach(p -> configured.put(p.getId().toString(), p.getAddress()));
        if (!stored.equals(configured)) {
            throw new IllegalStateException("the metadata log in " + config.storageDir() + " belongs to the voters "
                    + stored + " but controller.quorum.voters is now " + configured + ": restore the old "
                    + "controller.quorum.voters, or remove " + config.storageDir() + " to start this voter with an "
                    + "empty metadata log (in a running quorum it then copies the log from the other voters)");
        }
    }

    /**
     * Null while this voter's Ratis server runs, else why it does not (closed, or failed: an apply or disk error);
     * its image is then frozen.
     */
    String downReason() {
        try {
            DivisionInfo info = server.getDivision(GROUP_ID).getInfo();
            return info.isAlive() ? null : "its Raft division is " + info.getLifeCycleState();
        } catch (IOException | RuntimeException e) {
            return "its Raft server is " + server.getLifeCycleState() + " (" + e + ")";
        }
    }

    /** Whether this voter is the Raft leader (the active controller) now. */
    public boolean isLeader() {
        try {
            return server.getDivision(GROUP_ID).getInfo().isLeader();
        } catch (IOException e) {
            return false;
        }
    }

    /** The newest image this voter applied. */
    public ClusterImage image() {
        return stateMachine.image();
    }

    QuorumConfig config() {
        return config;
    }

    MetadataModel model() {
        return model;
    }

    ImagePublisher publisher() {
        return publisher;
    }

    RaftServer server() {
        return server;
    }

    /**
     * Submits a command to this server only, as the active controller's own: refused (NotLeader) if this voter
     * is no longer the leader, never retried elsewhere, since it was decided from this leader's heartbeats.
     */
    private CompletableFuture<CommandResult> submitHere(ControllerCommand command) {
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(ownClientId)
                .setServerId(server.getId())
                .setGroupId(GROUP_ID)
                .setCallId(callIds.incrementAndGet())
                .setMessage(Message.valueOf(ByteString.copyFrom(model.encodeCommand(command))))
                .setType(RaftClientRequest.writeRequestType())
                .build();
        try {
            return server.submitClientRequestAsync(request).thenApply(this::result);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CommandResult result(RaftClientReply reply) {
        if (!reply.isSuccess()) {
            throw new java.util.concurrent.CompletionException(reply.getException());
        }
        return model.decodeResult(reply.getMessage().getContent().toByteArray());
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            server.close();
        } catch (IOException e) {
            LOG.log(Level.WARNING, "closing the metadata quorum server", e);
        }
        publisher.close();
    }

    static RaftPeerId peerId(int nodeId) {
        return RaftPeerId.valueOf(String.valueOf(nodeId));
    }

    static RaftGroup group(QuorumConfig config) {
        List<RaftPeer> peers = new ArrayList<>();
        config.voters().forEach((id, address) -> peers.add(RaftPeer.newBuilder()
                .setId(peerId(id))
                .setAddress(address.getHostString() + ":" + address.getPort())
                .build()));
        return RaftGroup.valueOf(GROUP_ID, peers);
    }

    /**
     * Timeouts for a LAN or loopback cluster on busy machines: elections after 1-2 s of silence (failover in a
     * few seconds, no flapping when a JVM pauses briefly), requests to a voter bounded to 3 s per attempt.
     */
    static RaftProperties properties(QuorumConfig config) {
        RaftProperties properties = new RaftProperties();
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties,
                TimeDuration.valueOf(config.electionTimeoutMinMs(), TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties,
                TimeDuration.valueOf(config.electionTimeoutMaxMs(), TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setRequestTimeout(properties, TimeDuration.valueOf(3, TimeUnit.SECONDS));
        org.apache.ratis.client.RaftClientConfigKeys.Rpc.setRequestTimeout(properties,
                TimeDuration.valueOf(3, TimeUnit.SECONDS));
        return properties;
    }
}
