package io.odradek.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import io.odradek.replication.security.SecurityMetadataStore;
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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACLs and SCRAM credentials in a three-node cluster on the real Ratis quorum: changed through any broker, seen by
 * all, kept across the loss of the active controller and a node's restart; deletes by filter are atomic.
 */
class ClusterSecurityMetadataTest {
    private static final long TIMEOUT_S = 60;

    @TempDir
    Path root;

    private final List<Broker> brokers = new ArrayList<>();
    private List<BrokerConfig> configs = List.of();

    @AfterEach
    void tearDown() {
        brokers.forEach(Broker::close);
    }

    private void startThree() throws Exception {
        configs = ThreeNodeCluster.configs(root);
        ThreeNodeCluster.start(configs, brokers);
    }

    private static AclBinding allow(String principal, ResourceType type, String name, AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
                new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
    }

    private static AclBindingFilter byPrincipal(String principal) {
        return new AclBindingFilter(ResourceType.ANY, null, PatternType.ANY, principal, null, AclOperation.ANY,
                AclPermissionType.ANY);
    }

    private static <T> T get(CompletableFuture<T> future) throws Exception {
        return future.get(TIMEOUT_S, TimeUnit.SECONDS);
    }

    /** Polls until the broker's store satisfies {@code condition} (images reach the other brokers asynchronously). */
    private static void awaitStore(Broker broker, Predicate<SecurityMetadataStore> condition, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (!condition.test(broker.security())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("broker " + broker.config().nodeId() + " never saw " + what + ": ACLs "
                        + broker.security().acls() + ", SCRAM users " + broker.security().scramCredentials().keySet());
            }
            Thread.sleep(20);
        }
    }

    private static boolean sameCredential(ScramCredential a, ScramCredential b) {
        return a != null && a.iterations() == b.iterations() && java.util.Arrays.equals(a.salt(), b.salt())
                && java.util.Arrays.equals(a.storedKey(), b.storedKey())
                && java.util.Arrays.equals(a.serverKey(), b.serverKey());
    }

    private Broker activeController() throws Exception {
        int leader = get(brokers.get(0).cluster().controller().orElseThrow().describeQuorum()).leaderId();
        return brokers.stream().filter(b -> b.config().nodeId() == leader).findFirst().orElseThrow();
    }

    @Test
    void aclsAndCredentialsCreatedThroughOneBrokerAreSeenByAllAndSurviveAControllerFailoverAndARestart()
            throws Exception {
        startThree();
        AclBinding aliceWrites = allow("User:alice", ResourceType.TOPIC, "orders", AclOperation.WRITE);
        AclBinding aliceReads = allow("User:alice", ResourceType.GROUP, "billing", AclOperation.READ);
        AclBinding bobReads = allow("User:bob", ResourceType.TOPIC, "orders", AclOperation.READ);
        ScramCredential alice = new ScramFormatter(ScramMechanism.SCRAM_SHA_256).credential("alice-pw", 4096);

        // Through broker 1 and broker 2: the caller reads its change back at once on the broker it used.
        get(brokers.get(0).security().createAcls(List.of(aliceWrites, aliceReads, bobReads)));
        assertThat(brokers.get(0).security().acls()).containsExactly(aliceWrites, aliceReads, bobReads);
        get(brokers.get(1).security().alterScramCredentials(List.of(
                new ScramChange("alice", ScramMechanism.SCRAM_SHA_256, alice))));
        assertThat(brokers.get(1).security().scramCredentials()).containsOnlyKeys("alice");
        for (Broker b : brokers) {
            awaitStore(b, s -> s.acls().equals(List.of(aliceWrites, aliceReads, bobReads))
                    && sameCredential(s.scramCredentials().getOrDefault("alice", Map.of())
                            .get(ScramMechanism.SCRAM_SHA_256), alice), "the ACLs and alice's credential");
        }

        // The active controller goes; the other two elect a new one and still have everything.
        Broker controller = activeController();
        int stoppedId = controller.config().nodeId();
        brokers.remove(controller);
        controller.close();
        for (Broker b : brokers) {
            assertThat(b.security().acls()).containsExactly(aliceWrites, aliceReads, bobReads);
        }
        // Changes go on through the new controller.
        AclBinding carolDescribes = allow("User:carol", ResourceType.CLUSTER, "kafka-cluster", AclOperation.DESCRIBE);
        get(brokers.get(0).security().createAcls(List.of(carolDescribes)));
        List<List<AclBinding>> removed = get(brokers.get(1).security().deleteAcls(List.of(byPrincipal("User:bob"))));
        assertThat(removed).containsExactly(List.of(bobReads));
        for (Broker b : brokers) {
            awaitStore(b, s -> s.acls().equals(List.of(aliceWrites, aliceReads, carolDescribes)),
                    "the ACLs changed after the failover");
        }

        // The stopped node comes back with its own log dir and catches up on what changed while it was away.
        Broker back = Broker.start(configs.get(stoppedId - 1));
        brokers.add(back);
        awaitStore(back, s -> s.acls().equals(List.of(aliceWrites, aliceReads, carolDescribes))
                && sameCredential(s.scramCredentials().getOrDefault("alice", Map.of())
                        .get(ScramMechanism.SCRAM_SHA_256), alice), "everything after its restart");
    }

    @Test
    void concurrentDeletesThroughDifferentBrokersRemoveEachAclExactlyOnce() throws Exception {
        startThree();
        List<AclBinding> acls = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            acls.add(allow("User:u" + (i % 3), ResourceType.TOPIC, "t" + i, AclOperation.READ));
        }
        get(brokers.get(0).security().createAcls(acls));
        for (Broker b : brokers) {
            awaitStore(b, s -> s.acls().size() == 30, "30 ACLs");
        }

        // Overlapping filters from all three brokers at once: every ACL is reported removed by exactly one.
        List<CompletableFuture<List<List<AclBinding>>>> deletes = new ArrayList<>();
        for (int u = 0; u < 3; u++) {
            deletes.add(brokers.get(u).security().deleteAcls(List.of(byPrincipal("User:u" + u))));
            deletes.add(brokers.get((u + 1) % 3).security().deleteAcls(List.of(new AclBindingFilter(ResourceType.TOPIC,
                    null, PatternType.LITERAL, null, null, AclOperation.READ, AclPermissionType.ALLOW))));
        }
        List<AclBinding> removed = new ArrayList<>();
        for (CompletableFuture<List<List<AclBinding>>> d : deletes) {
            get(d).forEach(removed::addAll);
        }

        assertThat(removed).hasSize(30).containsExactlyInAnyOrderElementsOf(acls);
        for (Broker b : brokers) {
            awaitStore(b, s -> s.acls().isEmpty(), "no ACLs left");
        }
    }
}
