package io.odradek.replication.quorum;

import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerLogic;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.wire.ErrorCode;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.LifeCycle;
import org.apache.ratis.util.MD5FileUtil;

/**
 * The metadata log's state machine on every voter. Each committed entry is an encoded {@link ControllerCommand}:
 * applied to the image with the cluster model (deterministic, so every voter holds the same image at the same
 * index), published to the listeners, answered with the encoded {@link CommandResult} (the submitter gets the
 * leader's). Snapshots are the encoded image, one file per snapshot named by term and index; Ratis takes one every
 * {@code snapshotEveryEntries} entries and purges the log up to it, and installs the leader's on a voter that
 * fell behind the purge.
 *
 * <p>Read-only queries (never logged) serve what must not cost a log entry: heartbeats (answered by the leader,
 * which records them for the active controller), DescribeQuorum from the leader's Raft state, and image fetches by
 * brokers without the controller role.
 */
final class MetadataStateMachine extends BaseStateMachine {
    private static final Logger LOG = Logger.getLogger(MetadataStateMachine.class.getName());
    /** The listener name voters' endpoints carry in DescribeQuorum (Kafka's usual controller.listener.names). */
    static final String CONTROLLER_LISTENER = "CONTROLLER";

    private final MetadataModel model;
    private final Map<Integer, InetSocketAddress> voters;
    private final ImagePublisher publisher;
    private final BrokerLiveness liveness = new BrokerLiveness();
    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    // Written only by Ratis's apply thread (applyTransaction, snapshot load); read by anyone.
    private volatile ClusterImage image = ClusterImage.EMPTY;

    MetadataStateMachine(MetadataModel model, Map<Integer, InetSocketAddress> voters, ImagePublisher publisher) {
        this.model = model;
        this.voters = voters;
        this.publisher = publisher;
    }

    ClusterImage image() {
        return image;
    }

    BrokerLiveness liveness() {
        return liveness;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        getLifeCycle().startAndTransition(() -> load(storage.loadLatestSnapshot()), IOException.class);
    }

    /** Ratis pauses us before installing the leader's snapshot here (this voter was behind the purged log)... */
    @Override
    public void pause() {
        getLifeCycle().transition(LifeCycle.State.PAUSING);
        getLifeCycle().transition(LifeCycle.State.PAUSED);
    }

    /** ...and then has us load it. */
    @Override
    public void reinitialize() throws IOException {
        getLifeCycle().startAndTransition(() -> load(storage.loadLatestSnapshot()), IOException.class);
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    private void load(SingleFileSnapshotInfo snapshot) throws IOException {
        if (snapshot == null) {
            return;
        }
        File file = snapshot.getFile().getPath().toFile();
        if (!file.exists()) {
            LOG.warning("metadata snapshot " + file + " is missing; replaying the log from its start");
            return;
        }
        MD5Hash md5 = snapshot.getFile().getFileDigest();
        if (md5 != null) {
            MD5FileUtil.verifySavedMD5(file, md5);
        }
        TermIndex last = SimpleStateMachineStorage.getTermIndexFromSnapshotFile(file);
        ClusterImage loaded = model.decodeImage(Files.readAllBytes(file.toPath()));
        image = loaded;
        setLastAppliedTermIndex(last);
        publisher.publish(loaded);
        LOG.info("metadata image loaded from snapshot " + file.getName() + " (offset " + loaded.offset() + ")");
    }

    @Override
    public long takeSnapshot() throws IOException {
        // Runs on the apply thread, so the image and the applied index belong together (entries after the image's
        // offset are Raft's own: configuration and leader no-ops).
        ClusterImage current = image;
        TermIndex last = getLastAppliedTermIndex();
        if (last == null || last.getIndex() < 0) {
            return RaftLog.INVALID_LOG_INDEX;
        }
        File file = storage.getSnapshotFile(last.getTerm(), last.getIndex());
        Path tmp = file.toPath().resolveSibling(file.getName() + ".tmp");
        // Durable before Ratis purges the log up to it: the file's bytes, then its name in the directory.
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer bytes = ByteBuffer.wrap(model.encodeImage(current));
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            out.force(true);
        }
        Files.move(tmp, file.toPath(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        fsyncDirectory(file.toPath().getParent());
        MD5Hash md5 = MD5FileUtil.computeAndSaveMd5ForFile(file);
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(file.toPath(), md5), last));
        return last.getIndex();
    }

    /** Makes a rename in {@code dir} durable (a no-op where directories cannot be opened, as on Windows). */
    private static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            if (!System.getProperty("os.name", "").startsWith("Windows")) {
                throw e;
            }
        }
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        long index = entry.getIndex();
        CommandResult result;
        try {
            ControllerCommand command = model.decodeCommand(entry.getStateMachineLogEntry().getLogData().toByteArray());
            ControllerLogic.Applied applied = model.apply(image, command, index);
            image = applied.image();
            result = applied.result();
            if (command instanceof ControllerCommand.RegisterBroker r && result.error() == ErrorCode.NONE) {
                liveness.registered(r.brokerId(), BrokerLiveness.nowMs());
            }
        } catch (RuntimeException e) {
            // The same entry fails the same way on every voter, so the images stay equal; the submitter is told.
            LOG.log(Level.WARNING, "metadata log entry " + index + " could not be applied", e);
            // The image still moves to this offset: whoever waits for it (the submitter, a broker) must see it.
            image = ControllerLogic.withOffset(image, index);
            result = CommandResult.failed(index, ErrorCode.UNKNOWN_SERVER_ERROR, String.valueOf(e));
        }
        updateLastAppliedTermIndex(entry.getTerm(), index);
        publisher.publish(image);
        return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(model.encodeResult(result))));
    }

    @Override
    public CompletableFuture<Message> query(Message request) {
        try {
            byte[] bytes = request.getContent().toByteArray();
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 1, bytes.length - 1));
            byte[] answer = switch (bytes[0]) {
                case QuorumQueries.HEARTBEAT -> QuorumQueries.heartbeatReply(heartbeat(QuorumQueries.readHeartbeat(in)));
                case QuorumQueries.DESCRIBE_QUORUM -> QuorumQueries.quorumInfo(describeQuorum());
                case QuorumQueries.IMAGE -> imageIfNewer(in.readLong());
                default -> throw new IllegalArgumentException("unknown quorum query type " + bytes[0]);
            };
            return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(answer)));
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private HeartbeatReply heartbeat(BrokerHeartbeat h) throws IOException {
        ClusterImage current = image;
        if (!division().getInfo().isLeader()) {
            return new HeartbeatReply(ErrorCode.NOT_CONTROLLER, true, false, current.offset());
        }
        BrokerRegistration broker = current.brokers().get(h.brokerId());
        if (broker == null || broker.epoch() != h.brokerEpoch()) {
            return new HeartbeatReply(ErrorCode.STALE_BROKER_EPOCH, true, false, current.offset());
        }
        liveness.heartbeat(h, BrokerLiveness.nowMs());
        // Kafka's BrokerHeartbeatManager: a broker asking to stop may once it is fenced (it leads nothing) or its
        // controlled shutdown has moved every leadership away.
        boolean shutDownAllowed = h.wantShutDown()
                && (broker.fenced() || broker.inControlledShutdown() && !leadsAnything(current, h.brokerId()));
        return new HeartbeatReply(ErrorCode.NONE, broker.fenced(), shutDownAllowed, current.offset());
    }

    static boolean leadsAnything(ClusterImage image, int brokerId) {
        for (TopicImage t : image.topics().values()) {
            for (PartitionRegistration p : t.partitions()) {
                if (p.leader() == brokerId) {
                    return true;
                }
            }
        }
        return false;
    }

    private byte[] imageIfNewer(long knownOffset) {
        ClusterImage current = image;
        if (current.offset() <= knownOffset) {
            return new byte[] {0};
        }
        byte[] encoded = model.encodeImage(current);
        byte[] answer = new byte[encoded.length + 1];
        answer[0] = 1;
        System.arraycopy(encoded, 0, answer, 1, encoded.length);
        return answer;
    }

    /**
     * The quorum as the leader sees it: term as leader epoch, commit index as high watermark, each voter's log end
     * (the leader's own next index; a follower's match index + 1) and when it last answered the leader; a voter
     * counts as caught up when it has everything committed.
     */
    private QuorumInfo describeQuorum() throws IOException {
        RaftServer.Division division = division();
        DivisionInfo info = division.getInfo();
        long nowWall = System.currentTimeMillis();
        int leaderId = Integer.parseInt(division.getId().toString());
        RaftLog log = division.getRaftLog();
        long commitIndex = log.getLastCommittedIndex();
        Map<Integer, QuorumInfo.ReplicaState> states = new HashMap<>();
        states.put(leaderId, new QuorumInfo.ReplicaState(leaderId, log.getNextIndex(), nowWall, nowWall));
        RoleInfoProto role = info.getRoleInfoProto();
        if (role.hasLeaderInfo()) {
            List<ServerRpcProto> followers = role.getLeaderInfo().getFollowerInfoList();
            long[] matchIndices = info.getFollowerMatchIndices();
            for (int i = 0; i < followers.size() && i < matchIndices.length; i++) {
                ServerRpcProto f = followers.get(i);
                int id = Integer.parseInt(f.getId().getId().toStringUtf8());
                long lastContact = nowWall - f.getLastRpcElapsedTimeMs();
                long match = matchIndices[i];
                states.put(id, new QuorumInfo.ReplicaState(id, match + 1, lastContact,
                        match >= commitIndex ? lastContact : -1));
            }
        }
        List<QuorumInfo.ReplicaState> voterStates = new ArrayList<>();
        List<Endpoint> endpoints = new ArrayList<>();
        voters.forEach((id, address) -> {
            voterStates.add(states.getOrDefault(id, new QuorumInfo.ReplicaState(id, -1, -1, -1)));
            endpoints.add(new Endpoint(CONTROLLER_LISTENER, address.getHostString(), address.getPort()));
        });
        // Observers: the brokers that are not voters, as far as their heartbeats tell (Kafka lists the replicas
        // fetching the metadata log; ours read the leader's image, and report what they applied).
        List<QuorumInfo.ReplicaState> observers = new ArrayList<>();
        long nowMono = BrokerLiveness.nowMs();
        liveness.heartbeats().forEach((id, seen) -> {
            if (!voters.containsKey(id)) {
                long at = nowWall - (nowMono - seen.atMs());
                observers.add(new QuorumInfo.ReplicaState(id, seen.appliedOffset() + 1, at,
                        seen.appliedOffset() >= commitIndex ? at : -1));
            }
        });
        return new QuorumInfo(leaderId, (int) info.getCurrentTerm(), commitIndex, voterStates, observers, endpoints);
    }

    /** This voter's division; looked up when first needed (it does not exist yet while Ratis initializes us). */
    RaftServer.Division division() throws IOException {
        return getServer().join().getDivision(getGroupId());
    }
}
