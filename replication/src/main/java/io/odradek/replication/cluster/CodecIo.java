package io.odradek.replication.cluster;

import io.odradek.replication.config.QuotaEntity;
import io.odradek.replication.security.SecurityMetadata;
import io.odradek.replication.security.SecurityMetadataStore.ScramChange;
import io.odradek.security.acl.AccessControlEntry;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.AclPermissionType;
import io.odradek.security.acl.PatternType;
import io.odradek.security.acl.ResourcePattern;
import io.odradek.security.acl.ResourceType;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramMechanism;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
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

    /** Bytes as an int length and the bytes. */
    static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static byte[] readBytes(DataInputStream in) throws IOException {
        int n = readLength(in, 0);
        byte[] bytes = in.readNBytes(n);
        if (bytes.length != n) {
            throw new EOFException("bytes field of " + n + " cut short at " + bytes.length);
        }
        return bytes;
    }

    /** An ACL: resource type, pattern type, name, principal, host, operation, permission (Kafka's codes). */
    static void writeAcl(DataOutputStream out, AclBinding acl) throws IOException {
        out.writeByte(acl.pattern().type().code);
        out.writeByte(acl.pattern().patternType().code);
        writeText(out, acl.pattern().name());
        writeText(out, acl.entry().principal());
        writeText(out, acl.entry().host());
        out.writeByte(acl.entry().operation().code);
        out.writeByte(acl.entry().permission().code);
    }

    static AclBinding readAcl(DataInputStream in) throws IOException {
        ResourceType type = ResourceType.fromCode(in.readByte());
        PatternType patternType = PatternType.fromCode(in.readByte());
        ResourcePattern pattern = new ResourcePattern(type, readText(in), patternType);
        return new AclBinding(pattern, new AccessControlEntry(readText(in), readText(in),
                AclOperation.fromCode(in.readByte()), AclPermissionType.fromCode(in.readByte())));
    }

    static void writeAcls(DataOutputStream out, List<AclBinding> acls) throws IOException {
        out.writeInt(acls.size());
        for (AclBinding acl : acls) {
            writeAcl(out, acl);
        }
    }

    static List<AclBinding> readAcls(DataInputStream in) throws IOException {
        int n = readLength(in, 0);
        List<AclBinding> acls = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            acls.add(readAcl(in));
        }
        return acls;
    }

    /** A filter: as an ACL, but the name, principal and host nullable. */
    static void writeAclFilter(DataOutputStream out, AclBindingFilter f) throws IOException {
        out.writeByte(f.resourceType().code);
        out.writeByte(f.patternType().code);
        writeString(out, f.name());
        writeString(out, f.principal());
        writeString(out, f.host());
        out.writeByte(f.operation().code);
        out.writeByte(f.permission().code);
    }

    static AclBindingFilter readAclFilter(DataInputStream in) throws IOException {
        ResourceType type = ResourceType.fromCode(in.readByte());
        PatternType patternType = PatternType.fromCode(in.readByte());
        return new AclBindingFilter(type, readString(in), patternType, readString(in), readString(in),
                AclOperation.fromCode(in.readByte()), AclPermissionType.fromCode(in.readByte()));
    }

    static void writeCredential(DataOutputStream out, ScramCredential c) throws IOException {
        out.writeInt(c.iterations());
        writeBytes(out, c.salt());
        writeBytes(out, c.storedKey());
        writeBytes(out, c.serverKey());
    }

    static ScramCredential readCredential(DataInputStream in) throws IOException {
        int iterations = in.readInt();
        return new ScramCredential(readBytes(in), readBytes(in), readBytes(in), iterations);
    }

    /** A mechanism by its type code (0 = none given, which the controller refuses). */
    private static ScramMechanism readMechanism(DataInputStream in) throws IOException {
        return ScramMechanism.fromType(in.readByte());
    }

    /** SCRAM changes: user, mechanism type, then a credential or none (a deletion). */
    static void writeScramChanges(DataOutputStream out, List<ScramChange> changes) throws IOException {
        out.writeInt(changes.size());
        for (ScramChange c : changes) {
            writeText(out, c.user());
            out.writeByte(c.mechanism() == null ? 0 : c.mechanism().type);
            out.writeBoolean(c.credential() != null);
            if (c.credential() != null) {
                writeCredential(out, c.credential());
            }
        }
    }

    static List<ScramChange> readScramChanges(DataInputStream in) throws IOException {
        int n = readLength(in, 0);
        List<ScramChange> changes = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            String user = readText(in);
            ScramMechanism mechanism = readMechanism(in);
            changes.add(new ScramChange(user, mechanism, in.readBoolean() ? readCredential(in) : null));
        }
        return changes;
    }

    /** The image's security section: the ACLs in order, then per user (in name order) its credentials. */
    static void writeSecurity(DataOutputStream out, SecurityMetadata security) throws IOException {
        writeAcls(out, security.acls());
        out.writeInt(security.scram().size());
        for (Map.Entry<String, Map<ScramMechanism, ScramCredential>> user : security.scram().entrySet()) {
            writeText(out, user.getKey());
            out.writeInt(user.getValue().size());
            for (Map.Entry<ScramMechanism, ScramCredential> c : user.getValue().entrySet()) {
                out.writeByte(c.getKey().type);
                writeCredential(out, c.getValue());
            }
        }
    }

    static SecurityMetadata readSecurity(DataInputStream in) throws IOException {
        List<AclBinding> acls = readAcls(in);
        int users = readLength(in, 0);
        Map<String, Map<ScramMechanism, ScramCredential>> scram = new LinkedHashMap<>();
        for (int i = 0; i < users; i++) {
            String user = readText(in);
            int n = readLength(in, 0);
            Map<ScramMechanism, ScramCredential> creds = new EnumMap<>(ScramMechanism.class);
            for (int j = 0; j < n; j++) {
                ScramMechanism mechanism = readMechanism(in);
                if (mechanism == null) {
                    throw new IOException("unknown SCRAM mechanism in the image");
                }
                creds.put(mechanism, readCredential(in));
            }
            scram.put(user, creds);
        }
        return new SecurityMetadata(acls, scram);
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
