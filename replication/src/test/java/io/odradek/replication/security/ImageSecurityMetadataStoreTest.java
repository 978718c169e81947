package io.odradek.replication.security;

import static io.odradek.replication.security.SecurityTestData.ALICE_READS_BILLING;
import static io.odradek.replication.security.SecurityTestData.ALICE_WRITES_ORDERS;
import static io.odradek.replication.security.SecurityTestData.BOB_DENIED_ORDERS;
import static io.odradek.replication.security.SecurityTestData.byPrincipal;
import static io.odradek.replication.security.SecurityTestData.credential;
import static io.odradek.replication.security.SecurityTestData.delete;
import static io.odradek.replication.security.SecurityTestData.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerLogic;
import io.odradek.replication.cluster.LogicQuorum;
import io.odradek.replication.cluster.ImageCodec;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramMechanism;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The cluster-mode store against a one-node "quorum" that applies commands with the real ControllerLogic. */
class ImageSecurityMetadataStoreTest {
    private final LogicQuorum quorum = new LogicQuorum();
    private final List<Long> awaited = new ArrayList<>();
    private ImageSecurityMetadataStore store;

    /** A store whose wait for an offset is satisfied by applying the quorum's image to it (as the image thread). */
    private ImageSecurityMetadataStore store() {
        store = new ImageSecurityMetadataStore(quorum, offset -> {
            awaited.add(offset);
            store.apply(quorum.image);
            return CompletableFuture.completedFuture(quorum.image);
        });
        return store;
    }

    @Test
    void changesGoThroughTheQuorumAndAreReadBackFromTheAppliedImage() throws Exception {
        ImageSecurityMetadataStore s = store();
        AtomicInteger changes = new AtomicInteger();
        s.addListener(changes::incrementAndGet);
        ScramCredential alice = credential(ScramMechanism.SCRAM_SHA_256, "alice-pw");

        s.createAcls(List.of(ALICE_WRITES_ORDERS, ALICE_READS_BILLING, BOB_DENIED_ORDERS)).get();
        s.alterScramCredentials(List.of(set("alice", ScramMechanism.SCRAM_SHA_256, alice))).get();
        List<List<AclBinding>> removed = s.deleteAcls(List.of(byPrincipal("User:bob"), byPrincipal("User:carol"))).get();

        assertThat(quorum.submitted).extracting(c -> c.getClass().getSimpleName())
                .containsExactly("CreateAcls", "AlterScramCredentials", "DeleteAcls");
        assertThat(awaited).containsExactly(0L, 1L, 2L);
        assertThat(removed).containsExactly(List.of(BOB_DENIED_ORDERS), List.of());
        assertThat(s.acls()).containsExactly(ALICE_WRITES_ORDERS, ALICE_READS_BILLING);
        assertThat(s.scramCredentials().get("alice").get(ScramMechanism.SCRAM_SHA_256)).isSameAs(alice);
        assertThat(changes).hasValue(3);
    }

    @Test
    void anImageThatLeavesTheSectionAloneWakesNoListener() {
        ImageSecurityMetadataStore s = store();
        AtomicInteger changes = new AtomicInteger();
        s.addListener(changes::incrementAndGet);
        ClusterImage withAcl = quorum.logic.apply(ClusterImage.EMPTY,
                new ControllerCommand.CreateAcls(List.of(ALICE_WRITES_ORDERS)), 0).image();
        ClusterImage withCredential = quorum.logic.apply(withAcl, new ControllerCommand.AlterScramCredentials(
                List.of(set("alice", ScramMechanism.SCRAM_SHA_256, credential(ScramMechanism.SCRAM_SHA_256, "pw")))),
                1).image();
        ClusterImage later = ControllerLogic.withOffset(withCredential, 2);

        s.apply(withAcl);
        s.apply(withCredential);
        s.apply(later);
        s.apply(ImageCodec.decode(ImageCodec.encode(later)));   // as another node gets it: fresh credential arrays

        assertThat(changes).hasValue(2);
        assertThat(s.acls()).containsExactly(ALICE_WRITES_ORDERS);
        assertThat(s.scramCredentials()).containsOnlyKeys("alice");
    }

    @Test
    void aRefusalFailsTheChangeWithTheControllersErrorAndNothingChanges() throws Exception {
        ImageSecurityMetadataStore s = store();
        s.alterScramCredentials(List.of(set("alice", ScramMechanism.SCRAM_SHA_256,
                credential(ScramMechanism.SCRAM_SHA_256, "pw")))).get();

        assertThatThrownBy(() -> s.alterScramCredentials(List.of(delete("bob", ScramMechanism.SCRAM_SHA_256))).get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(MetadataException.class)
                .hasMessage("Attempt to delete a user credential that does not exist")
                .satisfies(e -> assertThat(((MetadataException) e).error()).isEqualTo(ErrorCode.RESOURCE_NOT_FOUND));
        assertThat(awaited).containsExactly(0L);
        assertThat(s.scramCredentials()).containsOnlyKeys("alice");
    }
}
