package io.odradek.replication.cluster;

import static io.odradek.replication.security.SecurityTestData.ALICE_READS_BILLING;
import static io.odradek.replication.security.SecurityTestData.ALICE_WRITES_ORDERS;
import static io.odradek.replication.security.SecurityTestData.ANYONE_DESCRIBES_TOPICS;
import static io.odradek.replication.security.SecurityTestData.BOB_DENIED_ORDERS;
import static io.odradek.replication.security.SecurityTestData.BOB_READS_ORD_PREFIX;
import static io.odradek.replication.security.SecurityTestData.EVERYTHING;
import static io.odradek.replication.security.SecurityTestData.byPrincipal;
import static io.odradek.replication.security.SecurityTestData.credential;
import static io.odradek.replication.security.SecurityTestData.delete;
import static io.odradek.replication.security.SecurityTestData.filter;
import static io.odradek.replication.security.SecurityTestData.set;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.cluster.ControllerCommand.AlterScramCredentials;
import io.odradek.replication.cluster.ControllerCommand.CreateAcls;
import io.odradek.replication.cluster.ControllerCommand.DeleteAcls;
import io.odradek.replication.security.SecurityMetadata;
import io.odradek.replication.security.SecurityMetadataStore.ScramChange;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.AclPermissionType;
import io.odradek.security.acl.PatternType;
import io.odradek.security.acl.ResourcePattern;
import io.odradek.security.acl.ResourceType;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramMechanism;
import io.odradek.wire.ErrorCode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ACLs and SCRAM credentials in cluster mode: the commands, their application and the image section. */
class SecurityCommandsTest {
    private static final ScramCredential ALICE = credential(ScramMechanism.SCRAM_SHA_256, "alice-pw");
    private static final ScramCredential BOB = credential(ScramMechanism.SCRAM_SHA_512, "bob-pw");

    private static Cluster withAcls() {
        Cluster c = new Cluster().withBrokers(1);
        Cluster.expectOk(c.run(new CreateAcls(List.of(ALICE_WRITES_ORDERS, ALICE_READS_BILLING, BOB_READS_ORD_PREFIX,
                ANYONE_DESCRIBES_TOPICS, BOB_DENIED_ORDERS))));
        return c;
    }

    @Test
    void theThreeCommandsSurviveTheCodecWithAppendedTypeBytes() {
        AclBindingFilter withNulls = new AclBindingFilter(ResourceType.ANY, null, PatternType.MATCH, null, null,
                AclOperation.ANY, AclPermissionType.ANY);
        AclBindingFilter full = new AclBindingFilter(ResourceType.TRANSACTIONAL_ID, "tx-\u00e9", PatternType.PREFIXED,
                "User:alice", "10.0.0.1", AclOperation.WRITE, AclPermissionType.DENY);
        CreateAcls create = new CreateAcls(List.of(ALICE_WRITES_ORDERS, BOB_DENIED_ORDERS, BOB_READS_ORD_PREFIX));
        DeleteAcls deleteAcls = new DeleteAcls(List.of(withNulls, full));

        byte[] createBytes = CommandCodec.encode(create);
        byte[] deleteBytes = CommandCodec.encode(deleteAcls);
        assertThat(createBytes[1]).isEqualTo((byte) 15);
        assertThat(deleteBytes[1]).isEqualTo((byte) 16);
        assertThat(CommandCodec.decode(createBytes)).isEqualTo(create);
        assertThat(CommandCodec.decode(deleteBytes)).isEqualTo(deleteAcls);

        AlterScramCredentials alter = new AlterScramCredentials(List.of(set("alice", ScramMechanism.SCRAM_SHA_256,
                ALICE), delete("bob", ScramMechanism.SCRAM_SHA_512)));
        byte[] alterBytes = CommandCodec.encode(alter);
        assertThat(alterBytes[1]).isEqualTo((byte) 17);
        List<ScramChange> decoded = ((AlterScramCredentials) CommandCodec.decode(alterBytes)).changes();
        assertThat(decoded).hasSize(2);
        assertThat(decoded.get(0).user()).isEqualTo("alice");
        assertThat(decoded.get(0).mechanism()).isEqualTo(ScramMechanism.SCRAM_SHA_256);
        assertThat(SecurityMetadata.sameCredential(decoded.get(0).credential(), ALICE)).isTrue();
        assertThat(decoded.get(1)).isEqualTo(delete("bob", ScramMechanism.SCRAM_SHA_512));
    }

    @Test
    void aDeleteResultCarriesTheRemovedAclsPerFilterAndAnOlderResultWithoutThemStillDecodes() {
        CommandResult result = new CommandResult(41, ErrorCode.NONE, null, List.of(), -1,
                List.of(List.of(ALICE_WRITES_ORDERS, BOB_DENIED_ORDERS), List.of(), List.of(BOB_READS_ORD_PREFIX)));
        assertThat(CommandCodec.decodeResult(CommandCodec.encodeResult(result))).isEqualTo(result);

        CommandResult plain = CommandResult.ok(42, List.of(ItemResult.ok("t")), 7);
        assertThat(CommandCodec.decodeResult(CommandCodec.encodeResult(plain))).isEqualTo(plain);
        assertThat(plain.deletedAcls()).isEmpty();
    }

    @Test
    void createdAclsAndCredentialsLandInTheImage() {
        Cluster c = withAcls();
        Cluster.expectOk(c.run(new AlterScramCredentials(List.of(set("alice", ScramMechanism.SCRAM_SHA_256, ALICE),
                set("bob", ScramMechanism.SCRAM_SHA_512, BOB)))));

        assertThat(c.image.security().acls()).containsExactly(ALICE_WRITES_ORDERS, ALICE_READS_BILLING,
                BOB_READS_ORD_PREFIX, ANYONE_DESCRIBES_TOPICS, BOB_DENIED_ORDERS);
        assertThat(c.image.security().scram()).containsOnlyKeys("alice", "bob");
        assertThat(c.image.security().scram().get("bob")).containsOnlyKeys(ScramMechanism.SCRAM_SHA_512);
        assertThat(c.image.offset()).isEqualTo(c.offset);
    }

    @Test
    void deleteAclsEvaluatesItsFiltersAgainstTheImageAndAnswersTheRemovedAclsPerFilter() {
        Cluster c = withAcls();

        CommandResult r = c.run(new DeleteAcls(List.of(filter(ResourceType.TOPIC, "orders", PatternType.MATCH),
                byPrincipal("User:bob"))));

        Cluster.expectOk(r);
        assertThat(r.deletedAcls()).containsExactly(
                List.of(ALICE_WRITES_ORDERS, BOB_READS_ORD_PREFIX, ANYONE_DESCRIBES_TOPICS, BOB_DENIED_ORDERS),
                List.of(BOB_READS_ORD_PREFIX, BOB_DENIED_ORDERS));
        assertThat(c.image.security().acls()).containsExactly(ALICE_READS_BILLING);
    }

    @Test
    void twoDeletesInTheLogNeverBothClaimAnAcl() {
        Cluster c = withAcls();

        CommandResult first = c.run(new DeleteAcls(List.of(byPrincipal("User:bob"))));
        CommandResult second = c.run(new DeleteAcls(List.of(EVERYTHING)));

        assertThat(first.deletedAcls()).containsExactly(List.of(BOB_READS_ORD_PREFIX, BOB_DENIED_ORDERS));
        assertThat(second.deletedAcls()).containsExactly(List.of(ALICE_WRITES_ORDERS, ALICE_READS_BILLING,
                ANYONE_DESCRIBES_TOPICS));
        assertThat(c.image.security().acls()).isEmpty();
    }

    @Test
    void aRefusedCommandLeavesTheSectionAsItWasButMovesTheOffset() {
        Cluster c = withAcls();
        Cluster.expectOk(c.run(new AlterScramCredentials(List.of(set("alice", ScramMechanism.SCRAM_SHA_256, ALICE)))));
        SecurityMetadata before = c.image.security();

        CommandResult badAcl = c.run(new CreateAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "x",
                PatternType.ANY), ALICE_WRITES_ORDERS.entry()))));
        CommandResult badDelete = c.run(new AlterScramCredentials(List.of(set("bob", ScramMechanism.SCRAM_SHA_512, BOB),
                delete("carol", ScramMechanism.SCRAM_SHA_256))));

        assertThat(badAcl.error()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(badAcl.message()).isEqualTo("Invalid patternType ANY");
        assertThat(badDelete.error()).isEqualTo(ErrorCode.RESOURCE_NOT_FOUND);
        assertThat(badDelete.message()).isEqualTo("Attempt to delete a user credential that does not exist");
        assertThat(c.image.security()).isEqualTo(before);
        assertThat(c.image.offset()).isEqualTo(c.offset);
    }

    @Test
    void anImageWithAclsAndCredentialsSurvivesTheCodecAndReplayGivesTheSameImageElsewhere() {
        List<ControllerCommand> log = List.of(Cluster.register(1, null),
                new CreateAcls(List.of(ALICE_WRITES_ORDERS, BOB_READS_ORD_PREFIX, BOB_DENIED_ORDERS)),
                new AlterScramCredentials(List.of(set("alice", ScramMechanism.SCRAM_SHA_256, ALICE),
                        set("bob", ScramMechanism.SCRAM_SHA_512, BOB))),
                new DeleteAcls(List.of(filter(ResourceType.TOPIC, "orders", PatternType.LITERAL))));
        ControllerLogic leader = new ControllerLogic(ControllerSettings.DEFAULTS);
        ControllerLogic follower = new ControllerLogic(ControllerSettings.DEFAULTS);
        ClusterImage a = ClusterImage.EMPTY;
        ClusterImage b = ClusterImage.EMPTY;
        for (int i = 0; i < log.size(); i++) {
            a = leader.apply(a, log.get(i), i).image();
            b = follower.apply(b, CommandCodec.decode(CommandCodec.encode(log.get(i))), i).image();
        }
        assertThat(b).isEqualTo(a);
        assertThat(a.security().acls()).containsExactly(BOB_READS_ORD_PREFIX);

        byte[] bytes = ImageCodec.encode(a);
        assertThat(bytes[0]).isEqualTo(ImageCodec.FORMAT);
        ClusterImage decoded = ImageCodec.decode(bytes);
        assertThat(decoded).isEqualTo(a);
        assertThat(decoded.security().scram().get("alice").get(ScramMechanism.SCRAM_SHA_256).storedKey())
                .isEqualTo(ALICE.storedKey());
        assertThat(ImageCodec.encode(decoded)).isEqualTo(bytes);
    }

    @Test
    void aFormat3SnapshotWrittenBeforeAclsIsStillReadWithNone() {
        Cluster c = new Cluster().withBrokers(2);
        Cluster.expectOk(c.run(new ControllerCommand.AlterDynamicConfigs(Map.of("", Map.of("log.retention.ms", "1")),
                Map.of())));
        byte[] current = ImageCodec.encode(c.image);
        // Format 3 is format 5 without the trailing security section (two empty counts) and group configs (one).
        byte[] old = Arrays.copyOf(current, current.length - 12);
        old[0] = 3;

        ClusterImage decoded = ImageCodec.decode(old);

        assertThat(decoded).isEqualTo(c.image);
        assertThat(decoded.dynamicConfigs().broker("")).containsEntry("log.retention.ms", "1");
        assertThat(decoded.security().acls()).isEmpty();
    }
}
