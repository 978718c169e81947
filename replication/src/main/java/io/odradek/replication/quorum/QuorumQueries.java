package io.odradek.replication.quorum;

import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.Endpoint;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.wire.ErrorCode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The read-only queries a node sends the leader's state machine (Ratis read-only requests, never in the log) and
 * their answers, in a small binary form: a leading type byte, then the fields in order.
 */
final class QuorumQueries {
    static final byte HEARTBEAT = 1;
    static final byte DESCRIBE_QUORUM = 2;
    /** An image fetch by a node without the controller role: answered with the image when newer than it has. */
    static final byte IMAGE = 3;

    private QuorumQueries() {
    }

    static byte[] heartbeat(BrokerHeartbeat h) {
        return write(out -> {
            out.writeByte(HEARTBEAT);
            out.writeInt(h.brokerId());
            out.writeLong(h.brokerEpoch());
            out.writeLong(h.appliedOffset());
            out.writeBoolean(h.wantShutDown());
        });
    }

    static BrokerHeartbeat readHeartbeat(DataInputStream in) throws IOException {
        return new BrokerHeartbeat(in.readInt(), in.readLong(), in.readLong(), in.readBoolean());
    }

    static byte[] heartbeatReply(HeartbeatReply r) {
        return write(out -> {
            out.writeShort(r.error().code());
            out.writeBoolean(r.fenced());
            out.writeBoolean(r.shutDownAllowed());
            out.writeLong(r.committedOffset());
        });
    }

    static HeartbeatReply readHeartbeatReply(byte[] bytes) {
        return read(bytes, in -> new HeartbeatReply(ErrorCode.forCode(in.readShort()), in.readBoolean(),
                in.readBoolean(), in.readLong()));
    }

    static byte[] describeQuorum() {
        return new byte[] {DESCRIBE_QUORUM};
    }

    static byte[] quorumInfo(QuorumInfo q) {
        return write(out -> {
            out.writeInt(q.leaderId());
            out.writeInt(q.leaderEpoch());
            out.writeLong(q.highWatermark());
            writeStates(out, q.voters());
            writeStates(out, q.observers());
            out.writeInt(q.voterEndpoints().size());
            for (Endpoint e : q.voterEndpoints()) {
                out.writeUTF(e.listener());
                out.writeUTF(e.host());
                out.writeInt(e.port());
            }
        });
    }

    static QuorumInfo readQuorumInfo(byte[] bytes) {
        return read(bytes, in -> {
            int leaderId = in.readInt();
            int leaderEpoch = in.readInt();
            long hwm = in.readLong();
            List<QuorumInfo.ReplicaState> voters = readStates(in);
            List<QuorumInfo.ReplicaState> observers = readStates(in);
            int n = in.readInt();
            List<Endpoint> endpoints = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                endpoints.add(new Endpoint(in.readUTF(), in.readUTF(), in.readInt()));
            }
            return new QuorumInfo(leaderId, leaderEpoch, hwm, voters, observers, endpoints);
        });
    }

    static byte[] imageRequest(long knownOffset) {
        return write(out -> {
            out.writeByte(IMAGE);
            out.writeLong(knownOffset);
        });
    }

    private static void writeStates(DataOutputStream out, List<QuorumInfo.ReplicaState> states) throws IOException {
        out.writeInt(states.size());
        for (QuorumInfo.ReplicaState s : states) {
            out.writeInt(s.replicaId());
            out.writeLong(s.logEndOffset());
            out.writeLong(s.lastFetchTimestamp());
            out.writeLong(s.lastCaughtUpTimestamp());
        }
    }

    private static List<QuorumInfo.ReplicaState> readStates(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<QuorumInfo.ReplicaState> states = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            states.add(new QuorumInfo.ReplicaState(in.readInt(), in.readLong(), in.readLong(), in.readLong()));
        }
        return states;
    }

    interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    static byte[] write(Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static <T> T read(byte[] bytes, Reader<T> reader) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            return reader.read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("malformed quorum query", e);
        }
    }
}
