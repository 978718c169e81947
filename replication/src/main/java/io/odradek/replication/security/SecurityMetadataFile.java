package io.odradek.replication.security;

import io.odradek.log.checkpoint.AtomicFile;
import io.odradek.security.acl.AccessControlEntry;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.AclPermissionType;
import io.odradek.security.acl.PatternType;
import io.odradek.security.acl.ResourcePattern;
import io.odradek.security.acl.ResourceType;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramMechanism;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * {@link SecurityMetadata} on disk, beside the topic catalog and the dynamic configs, one entry a line, rewritten
 * whole and atomically (temp file, fsync, rename, directory fsync) on every change:
 * <pre>
 * # odradek security metadata v1
 * acl&lt;TAB&gt;TOPIC&lt;TAB&gt;LITERAL&lt;TAB&gt;orders&lt;TAB&gt;User%3Aalice&lt;TAB&gt;*&lt;TAB&gt;READ&lt;TAB&gt;ALLOW
 * scram&lt;TAB&gt;alice&lt;TAB&gt;SCRAM-SHA-256&lt;TAB&gt;4096&lt;TAB&gt;salt&lt;TAB&gt;storedKey&lt;TAB&gt;serverKey   (keys base64)
 * end&lt;TAB&gt;2&lt;TAB&gt;1a2b3c4d                   (entries, CRC32C of every byte before this line)
 * </pre>
 * Names, principals and hosts URL-encoded. The end line makes a truncated or altered file detectable: a file
 * without it, with another count or checksum, or with a line that does not parse is refused (IllegalStateException
 * naming the file), never read as "fewer ACLs", which would open the cluster up. The file holds no password, only
 * what SCRAM's server side keeps (as Kafka's metadata log does); it is made readable by its owner only where the
 * file system has POSIX permissions.
 */
public final class SecurityMetadataFile {
    static final String HEADER = "# odradek security metadata v1";
    public static final String FILE_NAME = "security";

    private final Path file;

    public SecurityMetadataFile(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    public SecurityMetadata load() {
        if (!Files.exists(file)) {
            return SecurityMetadata.EMPTY;
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the ACLs and SCRAM credentials in " + file, e);
        }
        if (!text.startsWith(HEADER + "\n")) {
            throw new IllegalStateException(file + " is not an Odradek security metadata file (expected '" + HEADER
                    + "' first)");
        }
        int end = text.lastIndexOf("\nend\t");
        if (end < 0 || !text.endsWith("\n")) {
            throw new IllegalStateException(file + " is incomplete (no end line): it was cut short, so the ACLs and"
                    + " SCRAM credentials it held cannot be trusted; restore it from a copy or remove it to start"
                    + " without any");
        }
        String body = text.substring(0, end + 1);
        String[] trailer = text.substring(end + 1, text.length() - 1).split("\t", -1);
        List<String> lines = body.lines().toList();
        int entries = (int) lines.stream().skip(1).filter(l -> !l.isBlank() && !l.startsWith("#")).count();
        String crc = crc(body);
        if (trailer.length != 3 || !trailer[1].equals(Integer.toString(entries)) || !trailer[2].equals(crc)) {
            throw new IllegalStateException(file + " is corrupt: its end line '" + String.join(" ", trailer)
                    + "' does not match its content (" + entries + " entries, checksum " + crc + "); restore it from"
                    + " a copy or remove it to start without any ACLs and SCRAM credentials");
        }
        List<AclBinding> acls = new ArrayList<>();
        Map<String, Map<ScramMechanism, ScramCredential>> scram = new TreeMap<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            try {
                String[] f = line.split("\t", -1);
                if (f[0].equals("acl") && f.length == 8) {
                    acls.add(new AclBinding(
                            new ResourcePattern(ResourceType.valueOf(f[1]), dec(f[3]), PatternType.valueOf(f[2])),
                            new AccessControlEntry(dec(f[4]), dec(f[5]), AclOperation.valueOf(f[6]),
                                    AclPermissionType.valueOf(f[7]))));
                } else if (f[0].equals("scram") && f.length == 7) {
                    ScramMechanism mechanism = ScramMechanism.forMechanismName(f[2]);
                    if (mechanism == null) {
                        throw new IllegalArgumentException("unknown SCRAM mechanism " + f[2]);
                    }
                    Base64.Decoder b64 = Base64.getDecoder();
                    scram.computeIfAbsent(dec(f[1]), u -> new EnumMap<>(ScramMechanism.class)).put(mechanism,
                            new ScramCredential(b64.decode(f[4]), b64.decode(f[5]), b64.decode(f[6]),
                                    Integer.parseInt(f[3])));
                } else {
                    throw new IllegalArgumentException("unknown entry kind '" + f[0] + "' or wrong field count "
                            + f.length);
                }
            } catch (RuntimeException e) {
                // The line itself may hold credential material: name the line, never print it.
                throw new IllegalStateException(file + " line " + (i + 1) + " is malformed: " + e.getMessage(), e);
            }
        }
        return new SecurityMetadata(acls, scram);
    }

    public void save(SecurityMetadata metadata) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        int entries = 0;
        for (AclBinding b : metadata.acls()) {
            ResourcePattern p = b.pattern();
            AccessControlEntry e = b.entry();
            sb.append("acl\t").append(p.type().name()).append('\t').append(p.patternType().name()).append('\t')
                    .append(enc(p.name())).append('\t').append(enc(e.principal())).append('\t').append(enc(e.host()))
                    .append('\t').append(e.operation().name()).append('\t').append(e.permission().name()).append('\n');
            entries++;
        }
        Base64.Encoder b64 = Base64.getEncoder();
        for (Map.Entry<String, Map<ScramMechanism, ScramCredential>> user : metadata.scram().entrySet()) {
            for (Map.Entry<ScramMechanism, ScramCredential> c : user.getValue().entrySet()) {
                ScramCredential cred = c.getValue();
                sb.append("scram\t").append(enc(user.getKey())).append('\t').append(c.getKey().mechanismName)
                        .append('\t').append(cred.iterations()).append('\t').append(b64.encodeToString(cred.salt()))
                        .append('\t').append(b64.encodeToString(cred.storedKey())).append('\t')
                        .append(b64.encodeToString(cred.serverKey())).append('\n');
                entries++;
            }
        }
        String body = sb.toString();
        String content = body + "end\t" + entries + "\t" + crc(body) + "\n";
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            AtomicFile.writeOwnerOnly(file, content); // SCRAM keys: rw------- from the temp file's creation on
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the ACLs and SCRAM credentials to " + file, e);
        }
    }

    private static String crc(String body) {
        CRC32C crc = new CRC32C();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        return String.format("%08x", crc.getValue());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String dec(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
