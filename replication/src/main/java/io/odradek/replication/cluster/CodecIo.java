package io.odradek.replication.cluster;

import io.odradek.replication.config.QuotaEntity;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Field encodings shared by {@link CommandCodec} and {@link ImageCodec}: strings (int length, UTF-8), nullable
 * strings, ids, lists, maps.
 */
final class CodecIo {
    private CodecIo() {
    }

    /**
     * A non-null string as an int length and its UTF-8 bytes (not writeUTF: its 64 KB limit would make a
     * long config value unencodable, refusing the command on the submitting node only).
     */
    static void writeText(DataOutputStream out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static String readText(DataInputStream in) throws IOException {
        int n = readLength(in, 0);
        byte[] bytes = in.readNBytes(n); // grows as it reads: a corrupt length cannot allocate wildly
        if (bytes.length != n) {
            throw new EOFException("string of " + n + " bytes cut short at " + bytes.length);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static void writeString(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            writeText(out, s);
        }
    }

    static String readString(DataInputStream in) throws IOException {
        return in.readBoolean() ? readText(in) : null;
    }

    /** Nullable controller settings. */
    static void writeSettings(DataOutputStream out, ControllerSettings s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeBoolean(s.uncleanLeaderElectionEnable());
            out.writeInt(s.producerIdBlockSize());
        }
    }

    static ControllerSettings readSettings(DataInputStream in) throws IOException {
        return in.readBoolean() ? new ControllerSettings(in.readBoolean(), in.readInt()) : null;
    }

    static void writeUuid(DataOutputStream out, UUID id) throws IOException {
        out.writeBoolean(id != null);
        if (id != null) {
            out.writeLong(id.getMostSignificantBits());
            out.writeLong(id.getLeastSignificantBits());
        }
    }

    static UUID readUuid(DataInputStream in) throws IOException {
        return in.readBoolean() ? new UUID(in.readLong(), in.readLong()) : null;
    }

    /** A list of ints; null is written as length -1. */
    static void writeInts(DataOutputStream out, List<Integer> ints) throws IOException {
        if (ints == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(ints.size());
        for (int i : ints) {
            out.writeInt(i);
        }
    }

    static List<Integer> readInts(DataInputStream in) throws IOException {
        int n = readLength(in, -1);
        if (n < 0) {
            return null;
        }
        List<Integer> ints = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            ints.add(in.readInt());
        }
        return List.copyOf(ints);
    }

    static void writeConfigs(DataOutputStream out, Map<String, String> configs) throws IOException {
        out.writeInt(configs.size());
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(configs).entrySet()) {
            writeText(out, e.getKey());
            writeString(out, e.getValue());
        }
    }

    static Map<String, String> readConfigs(DataInputStream in) throws IOException {
        int n = readLength(in, 0);
        Map<String, String> configs = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            configs.put(readText(in), readString(in));
        }
        return configs;
    }

    /** Broker config entities: name -> configs (values may be null in a command: removals). */
    static void writeBrokerConfigs(DataOutputStream out, Map<String, Map<String, String>> brokers) throws IOException {
        out.writeInt(brokers.size());
        for (Map.Entry<String, Map<String, String>> e : brokers.entrySet()) {
            writeText(out, e.getKey());
            writeConfigs(out, e.getValue());
        }
    }

    static Map<String, Map<String, String>> readBrokerConfigs(DataInputStream in) throws IOException {
        int n = readLength(in, 0);
        Map<String, Map<String, String>> brokers = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            brokers.put(readText(in), readConfigs(in));
        }
        return brokers;
    }

    /** Quota entities (parts with nullable names) -> quota key -> nullable value (null: a removal). */
    static void writeQuotas(DataOutputStream out, Map<QuotaEntity, Map<String, Double>> quotas) throws IOException {
        out.writeInt(quotas.size());
        for (Map.Entry<QuotaEntity, Map<String, Double>> e : quotas.entrySet()) {
            writeConfigs(out, e.getKey().parts());
            out.writeInt(e.getValue().size());
            for (Map.Entry<String, Double> q : new java.util.TreeMap<>(e.getValue()).entrySet()) {
                writeText(out, q.getKey());
                out.writeBoolean(q.getValue() != null);
                if (q.getValue() != null) {
                    out.writeDouble(q.getValue());
                }
            }
        }
    }

    static Map<QuotaEntity, Map<String, Double>> readQuotas(DataInputStream in) throws IOException {
        int n = readLength(in, 0);
        Map<QuotaEntity, Map<String, Double>> quotas = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            QuotaEntity entity = QuotaEntity.of(readConfigs(in));
            int m = readLength(in, 0);
            Map<String, Double> values = new LinkedHashMap<>();
            for (int j = 0; j < m; j++) {
                values.put(readText(in), in.readBoolean() ? in.readDouble() : null);
            }
            quotas.put(entity, values);
        }
        return quotas;
    }

    static void writeEndpoints(DataOutputStream out, List<Endpoint> endpoints) throws IOException {
        out.writeInt(endpoints.size());
        for (Endpoint e : endpoints) {
            writeText(out, e.listener());
            writeText(out, e.host());
            out.writeInt(e.port());
        }
    }

    static List<Endpoint> readEndpoints(DataInputStream in) throws IOException {
        int n = readLength(in, 0);
        List<Endpoint> endpoints = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            endpoints.add(new Endpoint(readText(in), readText(in), in.readInt()));
        }
        return endpoints;
    }

    /** A length prefix, refused when below {@code min} (corrupt input must not allocate wildly). */
    static int readLength(DataInputStream in, int min) throws IOException {
        int n = in.readInt();
        if (n < min) {
            throw new IOException("invalid length " + n);
        }
        return n;
    }
}
