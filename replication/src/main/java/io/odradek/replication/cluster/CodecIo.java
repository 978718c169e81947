package io.odradek.replication.cluster;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Field encodings shared by {@link CommandCodec} and {@link ImageCodec}: nullable strings, ids, lists, maps. */
final class CodecIo {
    private CodecIo() {
    }

    static void writeString(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s);
        }
    }

    static String readString(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
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
            out.writeUTF(e.getKey());
            writeString(out, e.getValue());
        }
    }

    static Map<String, String> readConfigs(DataInputStream in) throws IOException {
        int n = readLength(in, 0);
        Map<String, String> configs = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            configs.put(in.readUTF(), readString(in));
        }
        return configs;
    }

    static void writeEndpoints(DataOutputStream out, List<Endpoint> endpoints) throws IOException {
        out.writeInt(endpoints.size());
        for (Endpoint e : endpoints) {
            out.writeUTF(e.listener());
            out.writeUTF(e.host());
            out.writeInt(e.port());
        }
    }

    static List<Endpoint> readEndpoints(DataInputStream in) throws IOException {
        int n = readLength(in, 0);
        List<Endpoint> endpoints = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            endpoints.add(new Endpoint(in.readUTF(), in.readUTF(), in.readInt()));
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
