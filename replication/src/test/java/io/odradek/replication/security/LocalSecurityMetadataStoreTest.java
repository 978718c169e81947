package io.odradek.replication.security;

import static io.odradek.replication.security.SecurityTestData.ALICE_READS_BILLING;
import static io.odradek.replication.security.SecurityTestData.ALICE_WRITES_ORDERS;
import static io.odradek.replication.security.SecurityTestData.BOB_DENIED_ORDERS;
import static io.odradek.replication.security.SecurityTestData.BOB_READS_ORD_PREFIX;
import static io.odradek.replication.security.SecurityTestData.byPrincipal;
import static io.odradek.replication.security.SecurityTestData.credential;
import static io.odradek.replication.security.SecurityTestData.delete;
import static io.odradek.replication.security.SecurityTestData.filter;
import static io.odradek.replication.security.SecurityTestData.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.replication.metadata.MetadataException;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.PatternType;
import io.odradek.security.acl.ResourceType;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramMechanism;
import io.odradek.wire.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalSecurityMetadataStoreTest {
    @TempDir
    Path dir;

    private static AclBinding odd(String name) {
        return SecurityTestData.allow("User:we\u00efrd\tname\n", ResourceType.GROUP, name, PatternType.PREFIXED,
                AclOperation.DESCRIBE);
    }

    @Test
    void aclsAndScramCredentialsSurviveAReopen() throws Exception {
        LocalSecurityMetadataStore store = new LocalSecurityMetadataStore(dir);
        ScramCredential alice256 = credential(ScramMechanism.SCRAM_SHA_256, "alice-secret");
        ScramCredential alice512 = credential(ScramMechanism.SCRAM_SHA_512, "alice-secret");
        ScramCredential bob = credential(ScramMechanism.SCRAM_SHA_256, "bob-secret");
        AclBinding oddOne = odd("g&r=p %0A\u00e9");
        store.createAcls(List.of(ALICE_WRITES_ORDERS, ALICE_READS_BILLING, oddOne, BOB_DENIED_ORDERS)).get();
        store.alterScramCredentials(List.of(set("alice", ScramMechanism.SCRAM_SHA_256, alice256),
                set("alice", ScramMechanism.SCRAM_SHA_512, alice512), set("b\u00f6b\t", ScramMechanism.SCRAM_SHA_256, bob)))
                .get();

        LocalSecurityMetadataStore reopened = new LocalSecurityMetadataStore(dir);

        assertThat(reopened.acls()).containsExactly(ALICE_WRITES_ORDERS, ALICE_READS_BILLING, oddOne, BOB_DENIED_ORDERS);
        assertThat(reopened.scramCredentials()).containsOnlyKeys("alice", "b\u00f6b\t");
        assertThat(reopened.snapshot()).isEqualTo(store.snapshot());
        ScramCredential read = reopened.scramCredentials().get("alice").get(ScramMechanism.SCRAM_SHA_512);
        assertThat(read.salt()).isEqualTo(alice512.salt());
        assertThat(read.storedKey()).isEqualTo(alice512.storedKey());
        assertThat(read.serverKey()).isEqualTo(alice512.serverKey());
        assertThat(read.iterations()).isEqualTo(4096);
        Path file = dir.resolve("security");
        assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).startsWith("# odradek security metadata v1",
                "acl\tTOPIC\tLITERAL\torders\tUser%3Aalice\t*\tWRITE\tALLOW")
                .noneMatch(line -> line.contains("secret"));
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void deleteAnswersPerFilterTheRemovedAclsAndTheRemovalSurvivesAReopen() throws Exception {
        LocalSecurityMetadataStore store = new LocalSecurityMetadataStore(dir);
        store.createAcls(List.of(ALICE_WRITES_ORDERS, ALICE_READS_BILLING, BOB_READS_ORD_PREFIX, BOB_DENIED_ORDERS)).get();

        List<List<AclBinding>> removed = store.deleteAcls(List.of(filter(ResourceType.TOPIC, "orders",
                PatternType.MATCH), byPrincipal("User:nobody"), byPrincipal("User:bob"))).get();

        assertThat(removed).containsExactly(List.of(ALICE_WRITES_ORDERS, BOB_READS_ORD_PREFIX, BOB_DENIED_ORDERS),
                List.of(), List.of(BOB_READS_ORD_PREFIX, BOB_DENIED_ORDERS));
        assertThat(store.acls()).containsExactly(ALICE_READS_BILLING);
        assertThat(new LocalSecurityMetadataStore(dir).acls()).containsExactly(ALICE_READS_BILLING);
    }

    @Test
    void concurrentDeletesByOverlappingFiltersRemoveEachAclExactlyOnce() throws Exception {
        LocalSecurityMetadataStore store = new LocalSecurityMetadataStore(dir);
        List<AclBinding> acls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            acls.add(SecurityTestData.allow("User:u" + (i % 5), ResourceType.TOPIC, "t" + i, PatternType.LITERAL,
                    AclOperation.READ));
        }
        store.createAcls(acls).get();

        List<CompletableFuture<List<List<AclBinding>>>> deletes = new ArrayList<>();
        for (int u = 0; u < 5; u++) {
            deletes.add(store.deleteAcls(List.of(byPrincipal("User:u" + u))));
            deletes.add(store.deleteAcls(List.of(filter(ResourceType.TOPIC, null, PatternType.LITERAL))));
        }
        List<AclBinding> removed = new ArrayList<>();
        for (CompletableFuture<List<List<AclBinding>>> d : deletes) {
            d.get().forEach(removed::addAll);
        }

        assertThat(removed).hasSize(50).containsExactlyInAnyOrderElementsOf(acls);
        assertThat(store.acls()).isEmpty();
    }

    @Test
    void aRefusedChangeChangesNothingAndFailsWithKafkasError() throws Exception {
        LocalSecurityMetadataStore store = new LocalSecurityMetadataStore(dir);
        ScramCredential c = credential(ScramMechanism.SCRAM_SHA_256, "pw");
        store.alterScramCredentials(List.of(set("alice", ScramMechanism.SCRAM_SHA_256, c))).get();

        assertThatThrownBy(() -> store.alterScramCredentials(List.of(delete("alice", ScramMechanism.SCRAM_SHA_256),
                delete("alice", ScramMechanism.SCRAM_SHA_512))).get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(MetadataException.class)
                .hasMessage("Attempt to delete a user credential that does not exist")
                .satisfies(e -> assertThat(((MetadataException) e).error()).isEqualTo(ErrorCode.RESOURCE_NOT_FOUND));

        assertThat(store.scramCredentials().get("alice")).containsOnlyKeys(ScramMechanism.SCRAM_SHA_256);
        assertThat(new LocalSecurityMetadataStore(dir).scramCredentials()).containsOnlyKeys("alice");
    }

    @Test
    void writesAndListenersRunOnTheSecurityThreadAndOnlyForRealChanges() throws Exception {
        LocalSecurityMetadataStore store = new LocalSecurityMetadataStore(dir);
        List<String> threads = new CopyOnWriteArrayList<>();
        AtomicInteger changes = new AtomicInteger();
        store.addListener(() -> threads.add(Thread.currentThread().getName()));
        store.addListener(changes::incrementAndGet);

        store.createAcls(List.of(ALICE_WRITES_ORDERS)).get();
        store.createAcls(List.of(ALICE_WRITES_ORDERS)).get();                  // already there
        store.deleteAcls(List.of(byPrincipal("User:nobody"))).get();           // matches nothing
        store.deleteAcls(List.of(byPrincipal("User:alice"))).get();

        assertThat(changes).hasValue(2);
        assertThat(threads).containsExactly(LocalSecurityMetadataStore.THREAD_NAME, LocalSecurityMetadataStore.THREAD_NAME);
    }

    @Test
    void aFileCutShortIsRefusedNamingItRatherThanReadAsFewerAcls() throws Exception {
        LocalSecurityMetadataStore store = new LocalSecurityMetadataStore(dir);
        store.createAcls(List.of(ALICE_WRITES_ORDERS, BOB_DENIED_ORDERS)).get();
        Path file = dir.resolve("security");
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        Files.writeString(file, lines.get(0) + "\n" + lines.get(1) + "\n", StandardCharsets.UTF_8);

        assertThatThrownBy(() -> new LocalSecurityMetadataStore(dir)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(file + " is incomplete (no end line)");
    }

    @Test
    void aFileWithALostOrAlteredLineIsRefusedAsCorrupt() throws Exception {
        LocalSecurityMetadataStore store = new LocalSecurityMetadataStore(dir);
        store.createAcls(List.of(ALICE_WRITES_ORDERS, BOB_DENIED_ORDERS)).get();
        Path file = dir.resolve("security");
        List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));

        List<String> lost = new ArrayList<>(lines);
        lost.remove(2);
        Files.write(file, lost, StandardCharsets.UTF_8);
        assertThatThrownBy(() -> new LocalSecurityMetadataStore(dir)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(file + " is corrupt: its end line 'end 2 ")
                .hasMessageContaining("(1 entries, checksum ");

        List<String> altered = new ArrayList<>(lines);
        altered.set(1, altered.get(1).replace("ALLOW", "DENY"));
        Files.write(file, altered, StandardCharsets.UTF_8);
        assertThatThrownBy(() -> new LocalSecurityMetadataStore(dir)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(file + " is corrupt");

        Files.writeString(file, "garbage\n", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> new LocalSecurityMetadataStore(dir)).isInstanceOf(IllegalStateException.class)
                .hasMessage(file + " is not an Odradek security metadata file (expected '# odradek security metadata v1'"
                        + " first)");
    }

    @Test
    void noFileMeansNoAclsAndNoCredentials() {
        LocalSecurityMetadataStore store = new LocalSecurityMetadataStore(dir.resolve("fresh"));
        assertThat(store.acls()).isEmpty();
        assertThat(store.scramCredentials()).isEmpty();
        assertThat(dir.resolve("fresh")).doesNotExist();
    }
}
