package io.odradek.replication.cluster;

import static io.odradek.replication.cluster.CodecIo.readAclFilter;
import static io.odradek.replication.cluster.CodecIo.readAcls;
import static io.odradek.replication.cluster.CodecIo.readBrokerConfigs;
import static io.odradek.replication.cluster.CodecIo.readConfigs;
import static io.odradek.replication.cluster.CodecIo.readEndpoints;
import static io.odradek.replication.cluster.CodecIo.readInts;
import static io.odradek.replication.cluster.CodecIo.readLength;
import static io.odradek.replication.cluster.CodecIo.readQuotas;
import static io.odradek.replication.cluster.CodecIo.readScramChanges;
import static io.odradek.replication.cluster.CodecIo.readSettings;
import static io.odradek.replication.cluster.CodecIo.readString;
import static io.odradek.replication.cluster.CodecIo.readText;
import static io.odradek.replication.cluster.CodecIo.readUuid;
import static io.odradek.replication.cluster.CodecIo.writeAclFilter;
import static io.odradek.replication.cluster.CodecIo.writeAcls;
import static io.odradek.replication.cluster.CodecIo.writeBrokerConfigs;
import static io.odradek.replication.cluster.CodecIo.writeConfigs;
import static io.odradek.replication.cluster.CodecIo.writeEndpoints;
import static io.odradek.replication.cluster.CodecIo.writeInts;
import static io.odradek.replication.cluster.CodecIo.writeQuotas;
import static io.odradek.replication.cluster.CodecIo.writeScramChanges;
import static io.odradek.replication.cluster.CodecIo.writeSettings;
import static io.odradek.replication.cluster.CodecIo.writeString;
import static io.odradek.replication.cluster.CodecIo.writeText;
import static io.odradek.replication.cluster.CodecIo.writeUuid;

import io.odradek.replication.cluster.ControllerCommand.AllocateProducerIds;
import io.odradek.replication.cluster.ControllerCommand.AlterClusterSettings;
import io.odradek.replication.cluster.ControllerCommand.AlterDynamicConfigs;
import io.odradek.replication.cluster.ControllerCommand.AlterGroupConfigs;
import io.odradek.replication.cluster.ControllerCommand.AlterPartition;
import io.odradek.replication.cluster.ControllerCommand.AlterReassignments;
import io.odradek.replication.cluster.ControllerCommand.AlterScramCredentials;
import io.odradek.replication.cluster.ControllerCommand.AlterTopicConfigs;
import io.odradek.replication.cluster.ControllerCommand.ControlledShutdown;
import io.odradek.replication.cluster.ControllerCommand.CreateAcls;
import io.odradek.replication.cluster.ControllerCommand.CreatePartitions;
import io.odradek.replication.cluster.ControllerCommand.CreateTopics;
import io.odradek.replication.cluster.ControllerCommand.DeleteAcls;
import io.odradek.replication.cluster.ControllerCommand.DeleteTopics;
import io.odradek.replication.cluster.ControllerCommand.ElectLeaders;
import io.odradek.replication.cluster.ControllerCommand.FenceBrokers;
import io.odradek.replication.cluster.ControllerCommand.NewTopic;
import io.odradek.replication.cluster.ControllerCommand.PartitionRef;
import io.odradek.replication.cluster.ControllerCommand.RegisterBroker;
import io.odradek.replication.cluster.ControllerCommand.UnfenceBroker;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import io.odradek.wire.ErrorCode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The metadata log's entry format: {@link ControllerCommand}s and their {@link CommandResult}s as compact
 * binary (DataOutputStream fields). Every encoding starts with a format byte (bumped when the layout
 * changes, so a newer controller can still read an older log); a command then has a type byte. Type bytes
 * are part of the format: append new ones, never renumber (AlterDynamicConfigs, 14, and CreateAcls, DeleteAcls,
 * AlterScramCredentials, 15-17, and AlterGroupConfigs, 18, were appended so). A result's DeleteAcls section (per filter the removed ACLs)
 * follows its older fields and is read only when present, so results of older nodes still decode.
 */
public final class CommandCodec {
    public static final byte FORMAT = 2;

    private static final byte REGISTER_BROKER = 1;
    private static final byte UNFENCE_BROKER = 2;
    private static final byte FENCE_BROKERS = 3;
    private static final byte CONTROLLED_SHUTDOWN = 4;
    private static final byte CREATE_TOPICS = 5;
    private static final byte DELETE_TOPICS = 6;
    private static final byte CREATE_PARTITIONS = 7;
    private static final byte ALTER_TOPIC_CONFIGS = 8;
    private static final byte ALTER_PARTITION = 9;
    private static final byte ELECT_LEADERS = 10;
    private static final byte ALTER_REASSIGNMENTS = 11;
    private static final byte ALLOCATE_PRODUCER_IDS = 12;
    private static final byte ALTER_CLUSTER_SETTINGS = 13;
    private static final byte ALTER_DYNAMIC_CONFIGS = 14;
    private static final byte CREATE_ACLS = 15;
    private static final byte DELETE_ACLS = 16;
    private static final byte ALTER_SCRAM_CREDENTIALS = 17;
    private static final byte ALTER_GROUP_CONFIGS = 18;

    private CommandCodec() {
    }

    public static byte[] encode(ControllerCommand command) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(FORMAT);
            writeCommand(out, command);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Throws IllegalArgumentException for bytes that are not a command of a known format. */
    public static ControllerCommand decode(byte[] bytes) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
            checkFormat(in.readByte());
            ControllerCommand command = readCommand(in);
            if (in.available() > 0) {
                throw new IOException(in.available() + " trailing bytes");
            }
            return command;
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not a controller command: " + e.getMessage(), e);
        }
    }

    public static byte[] encodeResult(CommandResult result) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(FORMAT);
            out.writeLong(result.offset());
            out.writeShort(result.error().code());
            writeString(out, result.message());
            out.writeInt(result.items().size());
            for (ItemResult item : result.items()) {
                writeText(out, item.key());
                out.writeShort(item.error().code());
                writeString(out, item.message());
            }
            out.writeLong(result.value());
            if (!result.deletedAcls().isEmpty()) {
                out.writeInt(result.deletedAcls().size());
                for (List<AclBinding> removed : result.deletedAcls()) {
                    writeAcls(out, removed);
                }
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static CommandResult decodeResult(byte[] bytes) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
            checkFormat(in.readByte());
            long offset = in.readLong();
            ErrorCode error = ErrorCode.forCode(in.readShort());
            String message = readString(in);
            int n = readLength(in, 0);
            List<ItemResult> items = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                items.add(new ItemResult(readText(in), ErrorCode.forCode(in.readShort()), readString(in)));
            }
            long value = in.readLong();
            List<List<AclBinding>> deletedAcls = new ArrayList<>();
            if (in.available() > 0) {
                int filters = readLength(in, 0);
                for (int i = 0; i < filters; i++) {
                    deletedAcls.add(readAcls(in));
                }
            }
            return new CommandResult(offset, error, message, items, value, deletedAcls);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not a command result: " + e.getMessage(), e);
        }
    }

    private static void checkFormat(byte format) throws IOException {
        if (format != FORMAT) {
            throw new IOException("unknown format " + format);
        }
    }

    private static void writeCommand(DataOutputStream out, ControllerCommand command) throws IOException {
        if (command instanceof RegisterBroker c) {
            out.writeByte(REGISTER_BROKER);
            out.writeInt(c.brokerId());
            writeUuid(out, c.incarnationId());
            writeEndpoints(out, c.endpoints());
            writeString(out, c.rack());
            writeString(out, c.proposedClusterId());
            writeSettings(out, c.proposedSettings());
        } else if (command instanceof AlterClusterSettings c) {
            out.writeByte(ALTER_CLUSTER_SETTINGS);
            writeSettings(out, c.settings());
        } else if (command instanceof UnfenceBroker c) {
            out.writeByte(UNFENCE_BROKER);
            out.writeInt(c.brokerId());
            out.writeLong(c.brokerEpoch());
        } else if (command instanceof FenceBrokers c) {
            out.writeByte(FENCE_BROKERS);
            out.writeInt(c.brokerEpochs().size());
            for (var e : c.brokerEpochs().entrySet()) {
                out.writeInt(e.getKey());
                out.writeLong(e.getValue());
            }
        } else if (command instanceof ControlledShutdown c) {
            out.writeByte(CONTROLLED_SHUTDOWN);
            out.writeInt(c.brokerId());
            out.writeLong(c.brokerEpoch());
        } else if (command instanceof CreateTopics c) {
            out.writeByte(CREATE_TOPICS);
            out.writeBoolean(c.validateOnly());
            out.writeInt(c.topics().size());
            for (NewTopic t : c.topics()) {
                writeNewTopic(out, t);
            }
        } else if (command instanceof DeleteTopics c) {
            out.writeByte(DELETE_TOPICS);
            out.writeInt(c.topicIds().size());
            for (UUID id : c.topicIds()) {
                writeUuid(out, id);
            }
        } else if (command instanceof CreatePartitions c) {
            out.writeByte(CREATE_PARTITIONS);
            writeText(out, c.topic());
            out.writeInt(c.totalCount());
            writeAssignmentList(out, c.assignments());
            out.writeBoolean(c.validateOnly());
        } else if (command instanceof AlterTopicConfigs c) {
            out.writeByte(ALTER_TOPIC_CONFIGS);
            writeText(out, c.topic());
            writeConfigs(out, c.configs());
        } else if (command instanceof AlterPartition c) {
            out.writeByte(ALTER_PARTITION);
            out.writeInt(c.brokerId());
            out.writeLong(c.brokerEpoch());
            writeUuid(out, c.topicId());
            out.writeInt(c.partition());
            out.writeInt(c.leaderEpoch());
            out.writeInt(c.partitionEpoch());
            writeInts(out, c.newIsr());
        } else if (command instanceof ElectLeaders c) {
            out.writeByte(ELECT_LEADERS);
            out.writeBoolean(c.unclean());
            if (c.partitions() == null) {
                out.writeInt(-1);
            } else {
                out.writeInt(c.partitions().size());
                for (PartitionRef p : c.partitions()) {
                    writeRef(out, p);
                }
            }
        } else if (command instanceof AlterReassignments c) {
            out.writeByte(ALTER_REASSIGNMENTS);
            out.writeInt(c.targets().size());
            for (Map.Entry<PartitionRef, List<Integer>> e : c.targets().entrySet()) {
                writeRef(out, e.getKey());
                writeInts(out, e.getValue());
            }
        } else if (command instanceof AlterDynamicConfigs c) {
            out.writeByte(ALTER_DYNAMIC_CONFIGS);
            writeBrokerConfigs(out, c.brokers());
            writeQuotas(out, c.quotas());
        } else if (command instanceof CreateAcls c) {
            out.writeByte(CREATE_ACLS);
            writeAcls(out, c.acls());
        } else if (command instanceof DeleteAcls c) {
            out.writeByte(DELETE_ACLS);
            out.writeInt(c.filters().size());
            for (AclBindingFilter f : c.filters()) {
                writeAclFilter(out, f);
            }
        } else if (command instanceof AlterScramCredentials c) {
            out.writeByte(ALTER_SCRAM_CREDENTIALS);
            writeScramChanges(out, c.changes());
        } else if (command instanceof AlterGroupConfigs c) {
            out.writeByte(ALTER_GROUP_CONFIGS);
            writeText(out, c.groupId());
            writeConfigs(out, c.changes());
        } else if (command instanceof AllocateProducerIds c) {
            out.writeByte(ALLOCATE_PRODUCER_IDS);
            out.writeInt(c.brokerId());
            out.writeLong(c.brokerEpoch());
        } else {
            throw new IllegalArgumentException("unknown command " + command);
        }
    }

    private static ControllerCommand readCommand(DataInputStream in) throws IOException {
        byte type = in.readByte();
        switch (type) {
            case REGISTER_BROKER:
                return new RegisterBroker(in.readInt(), readUuid(in), readEndpoints(in), readString(in),
                        readString(in), readSettings(in));
            case ALTER_CLUSTER_SETTINGS:
                return new AlterClusterSettings(readSettings(in));
            case UNFENCE_BROKER:
                return new UnfenceBroker(in.readInt(), in.readLong());
            case FENCE_BROKERS: {
                int n = readLength(in, 0);
                Map<Integer, Long> epochs = new java.util.LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    epochs.put(in.readInt(), in.readLong());
                }
                return new FenceBrokers(epochs);
            }
            case CONTROLLED_SHUTDOWN:
                return new ControlledShutdown(in.readInt(), in.readLong());
            case CREATE_TOPICS: {
                boolean validateOnly = in.readBoolean();
                int n = readLength(in, 0);
                List<NewTopic> topics = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    topics.add(readNewTopic(in));
                }
                return new CreateTopics(topics, validateOnly);
            }
            case DELETE_TOPICS: {
                int n = readLength(in, 0);
                List<UUID> ids = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    ids.add(readUuid(in));
                }
                return new DeleteTopics(ids);
            }
            case CREATE_PARTITIONS:
                return new CreatePartitions(readText(in), in.readInt(), readAssignmentList(in), in.readBoolean());
            case ALTER_TOPIC_CONFIGS:
                return new AlterTopicConfigs(readText(in), readConfigs(in));
            case ALTER_PARTITION:
                return new AlterPartition(in.readInt(), in.readLong(), readUuid(in), in.readInt(), in.readInt(),
                        in.readInt(), readInts(in));
            case ELECT_LEADERS: {
                boolean unclean = in.readBoolean();
                int n = readLength(in, -1);
                List<PartitionRef> partitions = null;
                if (n >= 0) {
                    partitions = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        partitions.add(readRef(in));
                    }
                }
                return new ElectLeaders(unclean, partitions);
            }
            case ALTER_REASSIGNMENTS: {
                int n = readLength(in, 0);
                Map<PartitionRef, List<Integer>> targets = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    targets.put(readRef(in), readInts(in));
                }
                return new AlterReassignments(targets);
            }
            case ALLOCATE_PRODUCER_IDS:
                return new AllocateProducerIds(in.readInt(), in.readLong());
            case ALTER_DYNAMIC_CONFIGS:
                return new AlterDynamicConfigs(readBrokerConfigs(in), readQuotas(in));
            case CREATE_ACLS:
                return new CreateAcls(readAcls(in));
            case DELETE_ACLS: {
                int n = readLength(in, 0);
                List<AclBindingFilter> filters = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    filters.add(readAclFilter(in));
                }
                return new DeleteAcls(filters);
            }
            case ALTER_SCRAM_CREDENTIALS:
                return new AlterScramCredentials(readScramChanges(in));
            case ALTER_GROUP_CONFIGS:
                return new AlterGroupConfigs(readText(in), readConfigs(in));
            default:
                throw new IOException("unknown command type " + type);
        }
    }

    private static void writeNewTopic(DataOutputStream out, NewTopic t) throws IOException {
        writeText(out, t.name());
        writeUuid(out, t.id());
        out.writeInt(t.numPartitions());
        out.writeShort(t.replicationFactor());
        Map<Integer, List<Integer>> assignments = t.assignments() == null ? Map.of() : t.assignments();
        out.writeBoolean(t.assignments() != null);
        out.writeInt(assignments.size());
        for (Map.Entry<Integer, List<Integer>> e : new TreeMap<>(assignments).entrySet()) {
            out.writeInt(e.getKey());
            writeInts(out, e.getValue());
        }
        writeConfigs(out, t.configs() == null ? Map.of() : t.configs());
    }

    private static NewTopic readNewTopic(DataInputStream in) throws IOException {
        String name = readText(in);
        UUID id = readUuid(in);
        int numPartitions = in.readInt();
        short replicationFactor = in.readShort();
        boolean hasAssignments = in.readBoolean();
        int n = readLength(in, 0);
        Map<Integer, List<Integer>> assignments = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            assignments.put(in.readInt(), readInts(in));
        }
        return new NewTopic(name, id, numPartitions, replicationFactor, hasAssignments ? assignments : null,
                readConfigs(in));
    }

    private static void writeAssignmentList(DataOutputStream out, List<List<Integer>> assignments)
            throws IOException {
        if (assignments == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(assignments.size());
        for (List<Integer> replicas : assignments) {
            writeInts(out, replicas);
        }
    }

    private static List<List<Integer>> readAssignmentList(DataInputStream in) throws IOException {
        int n = readLength(in, -1);
        if (n < 0) {
            return null;
        }
        List<List<Integer>> assignments = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            assignments.add(readInts(in));
        }
        return assignments;
    }

    private static void writeRef(DataOutputStream out, PartitionRef ref) throws IOException {
        writeText(out, ref.topic());
        out.writeInt(ref.partition());
    }

    private static PartitionRef readRef(DataInputStream in) throws IOException {
        return new PartitionRef(readText(in), in.readInt());
    }
}
