package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import io.odradek.security.scram.ScramFormatter;
import io.odradek.security.scram.ScramMechanism;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A single node keeps its ACLs and SCRAM credentials in __cluster_metadata/security across restarts. */
class SecurityMetadataRestartTest {
    private static final AclBinding ALICE_WRITES_ORDERS = new AclBinding(
            new ResourcePattern(ResourceType.TOPIC, "orders", PatternType.LITERAL),
            new AccessControlEntry("User:alice", "*", AclOperation.WRITE, AclPermissionType.ALLOW));
    private static final AclBinding ALICE_READS_GROUPS = new AclBinding(
            new ResourcePattern(ResourceType.GROUP, "billing-", PatternType.PREFIXED),
            new AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW));
    private static final AclBinding BOB_DENIED = new AclBinding(
            new ResourcePattern(ResourceType.TOPIC, "orders", PatternType.LITERAL),
            new AccessControlEntry("User:bob", "10.0.0.9", AclOperation.READ, AclPermissionType.DENY));

    @TempDir
    Path dir;

    private BrokerConfig config() {
        Map<String, String> props = new HashMap<>();
        props.put("log.dirs", dir.toString());
        props.put("listeners", "PLAINTEXT://127.0.0.1:0");
        return BrokerConfig.of(props);
    }

    @Test
    void aclsAndScramCredentialsSurviveABrokerRestart() throws Exception {
        ScramCredential alice = new ScramFormatter(ScramMechanism.SCRAM_SHA_512).credential("alice-pw", 4096);
        try (Broker broker = Broker.start(config())) {
            broker.security().createAcls(List.of(ALICE_WRITES_ORDERS, ALICE_READS_GROUPS, BOB_DENIED)).get();
            broker.security().alterScramCredentials(List.of(
                    new ScramChange("alice", ScramMechanism.SCRAM_SHA_512, alice))).get();
            List<List<AclBinding>> removed = broker.security().deleteAcls(List.of(new AclBindingFilter(
                    ResourceType.ANY, null, PatternType.ANY, "User:bob", null, AclOperation.ANY,
                    AclPermissionType.ANY))).get();
            assertThat(removed).containsExactly(List.of(BOB_DENIED));
        }

        try (Broker restarted = Broker.start(config())) {
            assertThat(restarted.security().acls()).containsExactly(ALICE_WRITES_ORDERS, ALICE_READS_GROUPS);
            ScramCredential read = restarted.security().scramCredentials().get("alice").get(ScramMechanism.SCRAM_SHA_512);
            assertThat(read.salt()).isEqualTo(alice.salt());
            assertThat(read.storedKey()).isEqualTo(alice.storedKey());
            assertThat(read.serverKey()).isEqualTo(alice.serverKey());
            assertThat(read.iterations()).isEqualTo(4096);
        }
        assertThat(dir.resolve("__cluster_metadata").resolve("security")).isRegularFile();
    }

    @Test
    void aBrokerWithACorruptSecurityFileRefusesToStartNamingTheFile() throws Exception {
        try (Broker broker = Broker.start(config())) {
            broker.security().createAcls(List.of(ALICE_WRITES_ORDERS, BOB_DENIED)).get();
        }
        Path file = dir.resolve("__cluster_metadata").resolve("security");
        String content = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(file, content.replace("User%3Abob", "User%3Abot"), StandardCharsets.UTF_8);

        assertThatThrownBy(() -> Broker.start(config())).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(file + " is corrupt");
    }
}
