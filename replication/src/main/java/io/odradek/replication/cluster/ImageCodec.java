package io.odradek.replication.cluster;

import static io.odradek.replication.cluster.CodecIo.readBrokerConfigs;
import static io.odradek.replication.cluster.CodecIo.readConfigs;
import static io.odradek.replication.cluster.CodecIo.readEndpoints;
import static io.odradek.replication.cluster.CodecIo.readInts;
import static io.odradek.replication.cluster.CodecIo.readQuotas;
import static io.odradek.replication.cluster.CodecIo.readLength;
import static io.odradek.replication.cluster.CodecIo.readSecurity;
import static io.odradek.replication.cluster.CodecIo.readSettings;
import static io.odradek.replication.cluster.CodecIo.readString;
import static io.odradek.replication.cluster.CodecIo.readText;
import static io.odradek.replication.cluster.CodecIo.readUuid;
import static io.odradek.replication.cluster.CodecIo.writeBrokerConfigs;
import static io.odradek.replication.cluster.CodecIo.writeConfigs;
import static io.odradek.replication.cluster.CodecIo.writeEndpoints;
import static io.odradek.replication.cluster.CodecIo.writeInts;
import static io.odradek.replication.cluster.CodecIo.writeQuotas;
import static io.odradek.replication.cluster.CodecIo.writeSecurity;
import static io.odradek.replication.cluster.CodecIo.writeSettings;
import static io.odradek.replication.cluster.CodecIo.writeString;
import static io.odradek.replication.cluster.CodecIo.writeText;
import static io.odradek.replication.cluster.CodecIo.writeUuid;

import io.odradek.replication.config.DynamicConfigs;
import io.odradek.replication.security.SecurityMetadata;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A whole {@link ClusterImage} as bytes, for Ratis snapshots: a format byte, then the offset, cluster id,
 * producer-id counter, cluster settings, brokers and topics (both in key order, so equal images give equal bytes),
 * from format 3 on the dynamic configs (broker entities, then quota entities), and from format 4 on the security
 * section (ACLs in order, then SCRAM credentials per user), from format 5 on the group configs (issue 12: per
 * group id in order, its keys). Older snapshots are still read: format 2 (before dynamic configs) with none,
 * format 3 with no ACLs and no credentials, format 4 with no group configs.
 */
public final class ImageCodec {
    public static final byte FORMAT = 5;
    /** The format before the group-config section was appended. */
    static final byte FORMAT_WITHOUT_GROUP_CONFIGS = 4;
    /** The format before the security section was appended. */
    static final byte FORMAT_WITHOUT_SECURITY = 3;
    /** The format before the dynamic-config section was appended. */
    static final byte FORMAT_WITHOUT_DYNAMIC_CONFIGS = 2;

    private ImageCodec() {
    }

    public static byte[] encode(ClusterImage image) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
            write(image, bytes);
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Throws IllegalArgumentException for bytes that are not an image of a known format. */
    public static ClusterImage decode(byte[] bytes) {
        try {
            ByteArrayInputStream in = new ByteArrayInputStream(bytes);
            ClusterImage image = read(in);
            if (in.available() > 0) {
                throw new IOException(in.available() + " trailing bytes");
            }
            return image;
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not a cluster image: " + e.getMessage(), e);
        }
    }

    /** Writes the image to {@code out} (flushed, not closed). */
    public static void write(ClusterImage image, OutputStream stream) throws IOException {
        DataOutputStream out = new DataOutputStream(stream);
        out.writeByte(FORMAT);
        out.writeLong(image.offset());
        writeString(out, image.clusterId());
        out.writeLong(image.nextProducerId());
        writeSettings(out, image.settings());
        out.writeInt(image.brokers().size());
        for (BrokerRegistration b : image.brokers().values()) {
            out.writeInt(b.id());
            out.writeLong(b.epoch());
            writeUuid(out, b.incarnationId());
            writeEndpoints(out, b.endpoints());
            writeString(out, b.rack());
            out.writeBoolean(b.fenced());
            out.writeBoolean(b.inControlledShutdown());
        }
        out.writeInt(image.topics().size());
        for (TopicImage t : image.topics().values()) {
            writeText(out, t.name());
            writeUuid(out, t.id());
            writeConfigs(out, t.configs());
            out.writeInt(t.partitions().size());
            for (PartitionRegistration p : t.partitions()) {
                writeInts(out, p.replicas());
                writeInts(out, p.isr());
                writeInts(out, p.adding());
                writeInts(out, p.removing());
                out.writeInt(p.leader());
                out.writeInt(p.leaderEpoch());
                out.writeInt(p.partitionEpoch());
            }
        }
        writeBrokerConfigs(out, image.dynamicConfigs().brokers());
        writeQuotas(out, image.dynamicConfigs().quotas());
        writeSecurity(out, image.security());
        writeBrokerConfigs(out, image.dynamicConfigs().groups());
        out.flush();
    }

    /** Reads one image written by {@link #write}; throws IOException when the bytes are not one. */
    public static ClusterImage read(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        byte format = in.readByte();
        if (format != FORMAT && format != FORMAT_WITHOUT_GROUP_CONFIGS && format != FORMAT_WITHOUT_SECURITY
                && format != FORMAT_WITHOUT_DYNAMIC_CONFIGS) {
            throw new IOException("unknown image format " + format);
        }
        long offset = in.readLong();
        String clusterId = readString(in);
        long nextProducerId = in.readLong();
        ControllerSettings settings = readSettings(in);
        SortedMap<Integer, BrokerRegistration> brokers = new TreeMap<>();
        int nb = readLength(in, 0);
        for (int i = 0; i < nb; i++) {
            BrokerRegistration b = new BrokerRegistration(in.readInt(), in.readLong(), readUuid(in),
                    readEndpoints(in), readString(in), in.readBoolean(), in.readBoolean());
            brokers.put(b.id(), b);
        }
        SortedMap<String, TopicImage> topics = new TreeMap<>();
        int nt = readLength(in, 0);
        for (int i = 0; i < nt; i++) {
            String name = readText(in);
            var id = readUuid(in);
            var configs = readConfigs(in);
            int np = readLength(in, 0);
            List<PartitionRegistration> partitions = new ArrayList<>();
            for (int p = 0; p < np; p++) {
                partitions.add(new PartitionRegistration(readInts(in), readInts(in), readInts(in), readInts(in),
                        in.readInt(), in.readInt(), in.readInt()));
            }
            topics.put(name, new TopicImage(name, id, configs, partitions));
        }
        DynamicConfigs dynamic = format == FORMAT_WITHOUT_DYNAMIC_CONFIGS ? DynamicConfigs.EMPTY
                : new DynamicConfigs(readBrokerConfigs(in), readQuotas(in));
        SecurityMetadata security = format >= FORMAT_WITHOUT_GROUP_CONFIGS ? readSecurity(in) : SecurityMetadata.EMPTY;
        if (format == FORMAT) {
            dynamic = new DynamicConfigs(dynamic.brokers(), dynamic.quotas(), readBrokerConfigs(in));
        }
        return new ClusterImage(offset, clusterId, brokers, topics, nextProducerId, settings, dynamic, security);
    }
}
