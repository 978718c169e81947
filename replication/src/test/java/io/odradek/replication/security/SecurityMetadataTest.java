package io.odradek.replication.security;

import static io.odradek.replication.security.SecurityTestData.ALICE_READS_BILLING;
import static io.odradek.replication.security.SecurityTestData.ALICE_WRITES_ORDERS;
import static io.odradek.replication.security.SecurityTestData.ANYONE_DESCRIBES_TOPICS;
import static io.odradek.replication.security.SecurityTestData.BOB_DENIED_ORDERS;
import static io.odradek.replication.security.SecurityTestData.BOB_READS_ORD_PREFIX;
import static io.odradek.replication.security.SecurityTestData.EVERYTHING;
import static io.odradek.replication.security.SecurityTestData.allow;
import static io.odradek.replication.security.SecurityTestData.byPrincipal;
import static io.odradek.replication.security.SecurityTestData.credential;
import static io.odradek.replication.security.SecurityTestData.delete;
import static io.odradek.replication.security.SecurityTestData.filter;
import static io.odradek.replication.security.SecurityTestData.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.replication.metadata.MetadataException;
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
import io.odradek.wire.ErrorCode;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** The pure changes the controller and the single-node store share: Kafka's checks, filters and deletion results. */
class SecurityMetadataTest {
    private static final SecurityMetadata FIVE = SecurityMetadata.EMPTY.withAcls(List.of(ALICE_WRITES_ORDERS,
            ALICE_READS_BILLING, BOB_READS_ORD_PREFIX, ANYONE_DESCRIBES_TOPICS, BOB_DENIED_ORDERS));

    private static void refused(ThrowingCallable change, ErrorCode error, String message) {
        assertThatThrownBy(change).isInstanceOf(MetadataException.class).hasMessage(message)
                .satisfies(e -> assertThat(((MetadataException) e).error()).isEqualTo(error));
    }

    @Test
    void aclsKeepCreationOrderAndADuplicateIsStoredOnce() {
        SecurityMetadata again = FIVE.withAcls(List.of(BOB_DENIED_ORDERS, ALICE_WRITES_ORDERS));

        assertThat(again.acls()).containsExactly(ALICE_WRITES_ORDERS, ALICE_READS_BILLING, BOB_READS_ORD_PREFIX,
                ANYONE_DESCRIBES_TOPICS, BOB_DENIED_ORDERS);
        assertThat(again).isSameAs(FIVE);
    }

    @Test
    void aclsKafkasControllerRefusesAreRefusedWithItsMessagesAndNothingIsAdded() {
        AclBinding anyType = allow("User:a", ResourceType.ANY, "x", PatternType.LITERAL, AclOperation.READ);
        AclBinding matchPattern = allow("User:a", ResourceType.TOPIC, "x", PatternType.MATCH, AclOperation.READ);
        AclBinding anyOperation = allow("User:a", ResourceType.TOPIC, "x", PatternType.LITERAL, AclOperation.ANY);
        AclBinding emptyName = allow("User:a", ResourceType.TOPIC, "", PatternType.LITERAL, AclOperation.READ);
        AclBinding anyPermission = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "x", PatternType.LITERAL),
                new AccessControlEntry("User:a", "*", AclOperation.READ, AclPermissionType.ANY));

        refused(() -> FIVE.withAcls(List.of(ALICE_WRITES_ORDERS, anyType)), ErrorCode.INVALID_REQUEST,
                "Invalid resourceType ANY");
        refused(() -> FIVE.withAcls(List.of(matchPattern)), ErrorCode.INVALID_REQUEST, "Invalid patternType MATCH");
        refused(() -> FIVE.withAcls(List.of(anyOperation)), ErrorCode.INVALID_REQUEST, "Invalid operation ANY");
        refused(() -> FIVE.withAcls(List.of(anyPermission)), ErrorCode.INVALID_REQUEST, "Invalid permissionType ANY");
        refused(() -> FIVE.withAcls(List.of(emptyName)), ErrorCode.INVALID_REQUEST, "Resource name should not be empty");
        assertThat(FIVE.acls()).hasSize(5);
    }

    @Test
    void aLiteralFilterMatchesOnlyTheSameLiteralPattern() {
        SecurityMetadata.Deletion d = FIVE.withoutMatching(List.of(filter(ResourceType.TOPIC, "orders",
                PatternType.LITERAL)));

        assertThat(d.removed()).containsExactly(List.of(ALICE_WRITES_ORDERS, BOB_DENIED_ORDERS));
        assertThat(d.next().acls()).containsExactly(ALICE_READS_BILLING, BOB_READS_ORD_PREFIX, ANYONE_DESCRIBES_TOPICS);
    }

    @Test
    void aMatchFilterSelectsEveryPatternThatAppliesToTheResourceIncludingWildcardAndPrefix() {
        SecurityMetadata.Deletion d = FIVE.withoutMatching(List.of(filter(ResourceType.TOPIC, "orders",
                PatternType.MATCH)));

        assertThat(d.removed()).containsExactly(List.of(ALICE_WRITES_ORDERS, BOB_READS_ORD_PREFIX,
                ANYONE_DESCRIBES_TOPICS, BOB_DENIED_ORDERS));
        assertThat(d.next().acls()).containsExactly(ALICE_READS_BILLING);
    }

    @Test
    void anAnyPatternFilterWithANameMatchesThatExactNameWhateverThePatternType() {
        assertThat(FIVE.withoutMatching(List.of(filter(ResourceType.ANY, "ord", PatternType.ANY))).removed())
                .containsExactly(List.of(BOB_READS_ORD_PREFIX));
        assertThat(FIVE.withoutMatching(List.of(filter(ResourceType.TOPIC, "ord", PatternType.LITERAL))).removed())
                .containsExactly(List.of());
        assertThat(FIVE.withoutMatching(List.of(filter(ResourceType.TOPIC, null, PatternType.PREFIXED))).removed())
                .containsExactly(List.of(BOB_READS_ORD_PREFIX));
    }

    @Test
    void entryFiltersSelectByPrincipalHostOperationAndPermission() {
        AclBindingFilter bobFrom = new AclBindingFilter(ResourceType.ANY, null, PatternType.ANY, "User:bob",
                "10.0.0.1", AclOperation.ANY, AclPermissionType.ANY);
        AclBindingFilter reads = new AclBindingFilter(ResourceType.ANY, null, PatternType.ANY, null, null,
                AclOperation.READ, AclPermissionType.ALLOW);
        AclBindingFilter denies = new AclBindingFilter(ResourceType.ANY, null, PatternType.ANY, null, null,
                AclOperation.ANY, AclPermissionType.DENY);

        assertThat(FIVE.withoutMatching(List.of(bobFrom, reads, denies, byPrincipal("User:alice"))).removed())
                .containsExactly(List.of(BOB_DENIED_ORDERS), List.of(ALICE_READS_BILLING, BOB_READS_ORD_PREFIX),
                        List.of(BOB_DENIED_ORDERS), List.of(ALICE_WRITES_ORDERS, ALICE_READS_BILLING));
    }

    @Test
    void anAclTwoFiltersMatchIsListedUnderBothAndRemovedOnce() {
        SecurityMetadata.Deletion d = FIVE.withoutMatching(List.of(byPrincipal("User:bob"), EVERYTHING));

        assertThat(d.removed().get(0)).containsExactly(BOB_READS_ORD_PREFIX, BOB_DENIED_ORDERS);
        assertThat(d.removed().get(1)).containsExactlyElementsOf(FIVE.acls());
        assertThat(d.next().acls()).isEmpty();
    }

    @Test
    void aFilterWithAnUnknownPartIsRefusedAsKafkaRefusesIt() {
        AclBindingFilter unknownType = filter(ResourceType.UNKNOWN, null, PatternType.ANY);
        AclBindingFilter unknownOp = new AclBindingFilter(ResourceType.ANY, null, PatternType.ANY, null, null,
                AclOperation.UNKNOWN, AclPermissionType.ANY);

        refused(() -> FIVE.withoutMatching(List.of(EVERYTHING, unknownType)), ErrorCode.INVALID_REQUEST,
                "Unknown patternFilter.");
        refused(() -> FIVE.withoutMatching(List.of(unknownOp)), ErrorCode.INVALID_REQUEST, "Unknown entryFilter.");
    }

    @Test
    void scramChangesSetReplaceAndDeleteCredentialsPerUserAndMechanism() {
        ScramCredential first = credential(ScramMechanism.SCRAM_SHA_256, "alice-secret");
        ScramCredential second = credential(ScramMechanism.SCRAM_SHA_256, "alice-new");
        ScramCredential sha512 = credential(ScramMechanism.SCRAM_SHA_512, "bob-secret");

        SecurityMetadata s = SecurityMetadata.EMPTY.withScramChanges(List.of(
                set("alice", ScramMechanism.SCRAM_SHA_256, first), set("bob", ScramMechanism.SCRAM_SHA_512, sha512)));
        s = s.withScramChanges(List.of(set("alice", ScramMechanism.SCRAM_SHA_256, second),
                delete("bob", ScramMechanism.SCRAM_SHA_512)));

        assertThat(s.scram()).containsOnlyKeys("alice");
        assertThat(s.scram().get("alice")).containsOnlyKeys(ScramMechanism.SCRAM_SHA_256);
        assertThat(s.scram().get("alice").get(ScramMechanism.SCRAM_SHA_256)).isSameAs(second);
    }

    @Test
    void scramChangesKafkasControllerRefusesAreRefusedWithItsErrorsAndMessages() {
        ScramCredential good = credential(ScramMechanism.SCRAM_SHA_256, "pw");
        ScramCredential tooFew = new ScramCredential(good.salt(), good.storedKey(), good.serverKey(), 4095);
        ScramCredential tooMany = new ScramCredential(good.salt(), good.storedKey(), good.serverKey(), 16385);

        refused(() -> SecurityMetadata.EMPTY.withScramChanges(List.of(set("", ScramMechanism.SCRAM_SHA_256, good))),
                ErrorCode.UNACCEPTABLE_CREDENTIAL, "Username must not be empty");
        refused(() -> SecurityMetadata.EMPTY.withScramChanges(List.of(set("a", null, good))),
                ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
        refused(() -> SecurityMetadata.EMPTY.withScramChanges(List.of(set("a", ScramMechanism.SCRAM_SHA_256, tooFew))),
                ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too few iterations");
        refused(() -> SecurityMetadata.EMPTY.withScramChanges(List.of(set("a", ScramMechanism.SCRAM_SHA_256, tooMany))),
                ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too many iterations");
        refused(() -> SecurityMetadata.EMPTY.withScramChanges(List.of(set("a", ScramMechanism.SCRAM_SHA_256, good),
                delete("a", ScramMechanism.SCRAM_SHA_512))), ErrorCode.RESOURCE_NOT_FOUND,
                "Attempt to delete a user credential that does not exist");
    }

    @Test
    void equalityComparesCredentialsByContentAndPrintsNoKeyMaterial() {
        ScramCredential c = credential(ScramMechanism.SCRAM_SHA_512, "pw");
        ScramCredential copy = new ScramCredential(c.salt().clone(), c.storedKey().clone(), c.serverKey().clone(),
                c.iterations());
        SecurityMetadata a = SecurityMetadata.EMPTY.withScramChanges(List.of(set("u", ScramMechanism.SCRAM_SHA_512, c)));
        SecurityMetadata b = SecurityMetadata.EMPTY.withScramChanges(List.of(set("u", ScramMechanism.SCRAM_SHA_512, copy)));
        SecurityMetadata other = SecurityMetadata.EMPTY.withScramChanges(List.of(set("u", ScramMechanism.SCRAM_SHA_512,
                credential(ScramMechanism.SCRAM_SHA_512, "pw"))));   // another salt

        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b).isNotEqualTo(other);
        assertThat(a).hasToString("SecurityMetadata(0 ACL(s), SCRAM credentials of 1 user(s))");
    }
}
