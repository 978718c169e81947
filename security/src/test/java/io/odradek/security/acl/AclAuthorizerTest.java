package io.odradek.security.acl;

import static io.odradek.security.acl.AclOperation.ALL;
import static io.odradek.security.acl.AclOperation.ALTER;
import static io.odradek.security.acl.AclOperation.ALTER_CONFIGS;
import static io.odradek.security.acl.AclOperation.CREATE;
import static io.odradek.security.acl.AclOperation.DELETE;
import static io.odradek.security.acl.AclOperation.DESCRIBE;
import static io.odradek.security.acl.AclOperation.DESCRIBE_CONFIGS;
import static io.odradek.security.acl.AclOperation.IDEMPOTENT_WRITE;
import static io.odradek.security.acl.AclOperation.READ;
import static io.odradek.security.acl.AclOperation.WRITE;
import static io.odradek.security.acl.AclPermissionType.ALLOW;
import static io.odradek.security.acl.AclPermissionType.DENY;
import static io.odradek.security.acl.PatternType.LITERAL;
import static io.odradek.security.acl.PatternType.PREFIXED;
import static io.odradek.security.acl.ResourceType.CLUSTER;
import static io.odradek.security.acl.ResourceType.GROUP;
import static io.odradek.security.acl.ResourceType.TOPIC;
import static io.odradek.security.acl.ResourceType.TRANSACTIONAL_ID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.security.KafkaPrincipal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The decisions of Kafka 4.4's StandardAuthorizer, case by case after its StandardAuthorizerTest and AuthorizerTest. */
class AclAuthorizerTest {
    private static final String LOCAL = "127.0.0.1";
    private final List<AclBinding> acls = new ArrayList<>();
    private AclAuthorizer authorizer = new AclAuthorizer(Set.of(KafkaPrincipal.user("superman")), false);

    private static AclBinding acl(ResourceType type, String name, PatternType pattern, String principal, String host,
            AclOperation op, AclPermissionType permission) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal, host, op, permission));
    }

    private void add(AclBinding... bindings) {
        acls.addAll(Arrays.asList(bindings));
        List<AclBinding> snapshot = List.copyOf(acls);
        authorizer.refresh(() -> snapshot);
    }

    private void remove(AclBinding... bindings) {
        acls.removeAll(Arrays.asList(bindings));
        List<AclBinding> snapshot = List.copyOf(acls);
        authorizer.refresh(() -> snapshot);
    }

    private boolean may(String user, AclOperation op, ResourceType type, String name) {
        return may(user, LOCAL, op, type, name);
    }

    private boolean may(String user, String host, AclOperation op, ResourceType type, String name) {
        return authorizer.authorize(KafkaPrincipal.user(user), host, op, type, name);
    }

    private boolean mayAny(String user, String host, AclOperation op, ResourceType type) {
        return authorizer.authorizeAny(KafkaPrincipal.user(user), host, op, type);
    }

    private static AclBinding fooAcl(AclOperation op, AclPermissionType permission) {
        return acl(TOPIC, "foo_", PREFIXED, "User:bob", "*", op, permission);
    }

    @Test
    void superUsersAreReadAsKafkaDoesSemicolonSeparatedAndTrimmed() {
        assertThat(AclAuthorizer.parseSuperUsers("User:alice; User:chris ;;"))
                .containsExactlyInAnyOrder(KafkaPrincipal.user("alice"), KafkaPrincipal.user("chris"));
        assertThat(AclAuthorizer.parseSuperUsers(null)).isEmpty();
        assertThat(AclAuthorizer.parseSuperUsers("")).isEmpty();
        assertThatThrownBy(() -> AclAuthorizer.parseSuperUsers("User:alice;bob"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bob");
    }

    @Test
    void principalsWithAnEmptyTypeAreReadAsKafkaDoes() {
        assertThat(KafkaPrincipal.parse(":alice")).isEqualTo(new KafkaPrincipal("", "alice"));
        assertThat(KafkaPrincipal.parse("User:")).isEqualTo(new KafkaPrincipal("User", ""));
        assertThat(KafkaPrincipal.parse(":")).isEqualTo(new KafkaPrincipal("", ""));
        assertThatThrownBy(() -> KafkaPrincipal.parse("alice")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected a string in format principalType:principalName but got alice");
        assertThat(AclAuthorizer.parseSuperUsers(" :admin ;User:chris"))
                .containsExactlyInAnyOrder(new KafkaPrincipal("", "admin"), KafkaPrincipal.user("chris"));
    }

    @Test
    void anAclWhosePrincipalHasAnEmptyTypeStillCountsAsAnAclOnTheResource() {
        authorizer = new AclAuthorizer(Set.of(), true);
        add(acl(TOPIC, "orders", LITERAL, ":alice", "*", READ, ALLOW));
        assertThat(may("bob", READ, TOPIC, "orders")).as("orders has an ACL, not for User:bob").isFalse();
        assertThat(may("alice", READ, TOPIC, "orders")).as("User:alice is not :alice").isFalse();
        assertThat(authorizer.authorize(new KafkaPrincipal("", "alice"), LOCAL, READ, TOPIC, "orders")).isTrue();
        assertThat(may("bob", READ, TOPIC, "payments")).isTrue();
    }

    @Test
    void withAllowEveryoneOnlyResourcesWithoutAnyAclAreOpen() {
        authorizer = new AclAuthorizer(Set.of(KafkaPrincipal.user("alice")), true);
        add(acl(TOPIC, "topic1", LITERAL, "User:Alice", "*", READ, ALLOW));
        assertThat(may("Bob", READ, TOPIC, "topic1")).isFalse(); // topic1 has an ACL, not for Bob
        assertThat(may("Bob", READ, TOPIC, "topic2")).isTrue();
        assertThat(may("Bob", WRITE, GROUP, "any-group")).isTrue();
    }

    @Test
    void withoutAllowEveryoneAResourceWithoutAclIsClosed() {
        add(acl(TOPIC, "topic1", LITERAL, "User:Alice", "*", READ, ALLOW));
        assertThat(may("Bob", READ, TOPIC, "topic1")).isFalse();
        assertThat(may("Bob", READ, TOPIC, "topic2")).isFalse();
        assertThat(may("Alice", READ, TOPIC, "topic1")).isTrue();
    }

    @Test
    void allowEveryoneCountsAclsOfOtherPrincipalsOperationsAndHostsAsAclsOnTheResource() {
        authorizer = new AclAuthorizer(Set.of(), true);
        add(acl(TOPIC, "orders", PREFIXED, "User:alice", "10.0.0.1", CREATE, ALLOW));
        assertThat(may("bob", READ, TOPIC, "orders-eu")).isFalse(); // a prefixed ACL of someone else applies
        assertThat(may("bob", READ, TOPIC, "payments")).isTrue();
        add(acl(GROUP, "*", LITERAL, "User:carol", "*", DELETE, DENY));
        assertThat(may("bob", READ, GROUP, "g")).isFalse(); // the wildcard ACL is an ACL on every group
    }

    @Test
    void superUserMayDoAnythingEvenAgainstDenyAcls() {
        add(acl(TOPIC, "*", LITERAL, "User:*", "*", ALL, DENY),
                acl(CLUSTER, "kafka-cluster", LITERAL, "User:superman", "*", ALL, DENY));
        assertThat(may("superman", WRITE, TOPIC, "t")).isTrue();
        assertThat(may("superman", ALTER, CLUSTER, "kafka-cluster")).isTrue();
        assertThat(mayAny("superman", LOCAL, WRITE, TOPIC)).isTrue();
        assertThat(may("bob", WRITE, TOPIC, "t")).isFalse();
    }

    @Test
    void readWriteDeleteAndAlterImplyDescribeButCreateDoesNot() {
        for (AclOperation op : List.of(DESCRIBE, READ, WRITE, DELETE, ALTER)) {
            acls.clear();
            add(fooAcl(op, ALLOW));
            assertThat(may("bob", DESCRIBE, TOPIC, "foo_bar")).as(op + " implies DESCRIBE").isTrue();
        }
        acls.clear();
        add(fooAcl(CREATE, ALLOW));
        assertThat(may("bob", DESCRIBE, TOPIC, "foo_bar")).isFalse();
    }

    @Test
    void alterConfigsImpliesDescribeConfigs() {
        add(fooAcl(ALTER_CONFIGS, ALLOW));
        assertThat(may("bob", DESCRIBE_CONFIGS, TOPIC, "foo_bar")).isTrue();
        assertThat(may("bob", DESCRIBE, TOPIC, "foo_bar")).isFalse();
        assertThat(may("bob", ALTER, TOPIC, "foo_bar")).isFalse();
    }

    @Test
    void denyImpliesNothingButDeniesItsOwnOperation() {
        add(fooAcl(DESCRIBE, ALLOW), fooAcl(READ, DENY), fooAcl(ALTER_CONFIGS, DENY));
        assertThat(may("bob", DESCRIBE, TOPIC, "foo_bar")).isTrue(); // a READ deny does not deny DESCRIBE
        assertThat(may("bob", READ, TOPIC, "foo_bar")).isFalse();
        assertThat(may("bob", DESCRIBE_CONFIGS, TOPIC, "foo_bar")).isFalse(); // no allow for it
        assertThat(may("bob", ALTER_CONFIGS, TOPIC, "foo_bar")).isFalse();
        add(fooAcl(DESCRIBE, DENY));
        assertThat(may("bob", DESCRIBE, TOPIC, "foo_bar")).isFalse();
    }

    @Test
    void aclOfOnePrincipalDoesNotApplyToAnotherButUserWildcardAppliesToAll() {
        add(fooAcl(READ, ALLOW), acl(GROUP, "bar", LITERAL, "User:*", "*", READ, DENY));
        assertThat(may("bob", READ, TOPIC, "foo_bar")).isTrue();
        assertThat(may("alice", READ, TOPIC, "foo_bar")).isFalse();
        assertThat(may("alice", READ, GROUP, "bar")).isFalse();
        add(acl(GROUP, "bar", LITERAL, "User:alice", "*", READ, ALLOW));
        assertThat(may("alice", READ, GROUP, "bar")).isFalse(); // the User:* deny still wins
    }

    @Test
    void simpleAllowsOfPrefixedAndWildcardPrincipalAcls() {
        add(fooAcl(READ, ALLOW), fooAcl(WRITE, ALLOW),
                acl(GROUP, "bar", LITERAL, "User:*", "*", DESCRIBE_CONFIGS, ALLOW),
                acl(GROUP, "bar", LITERAL, "User:*", "*", ALTER_CONFIGS, ALLOW));
        assertThat(may("bob", READ, TOPIC, "foo_")).isTrue();
        assertThat(may("fred", ALTER_CONFIGS, GROUP, "bar")).isTrue();
        assertThat(may("fred", READ, TOPIC, "foo_")).isFalse();
    }

    @Test
    void denyOfAllOperationsTakesPrecedenceOverAllows() {
        add(acl(TOPIC, "foo", LITERAL, "User:alice", "*", ALL, DENY),
                acl(TOPIC, "foo", PREFIXED, "User:alice", "*", READ, ALLOW),
                acl(TOPIC, "foo", LITERAL, "User:*", "*", ALL, DENY),
                acl(TOPIC, "foo", PREFIXED, "User:*", "*", DESCRIBE, ALLOW));
        assertThat(List.of(may("alice", WRITE, TOPIC, "foo"), may("alice", READ, TOPIC, "foo"),
                may("alice", DESCRIBE, TOPIC, "foo"), may("alice", READ, TOPIC, "foobar")))
                .containsExactly(false, false, false, true);
        assertThat(List.of(may("bob", DESCRIBE, TOPIC, "foo"), may("bob", READ, TOPIC, "foo"),
                may("bob", WRITE, TOPIC, "foo"), may("bob", DESCRIBE, TOPIC, "foobaz"),
                may("bob", READ, TOPIC, "foobaz")))
                .containsExactly(false, false, false, true, false);
    }

    @Test
    void allowOfAllOperations() {
        add(acl(TOPIC, "foo", LITERAL, "User:*", "*", ALL, ALLOW),
                acl(TOPIC, "bar", PREFIXED, "User:alice", "*", ALL, ALLOW),
                acl(TOPIC, "baz", LITERAL, "User:bob", "*", ALL, ALLOW));
        assertThat(List.of(may("alice", WRITE, TOPIC, "foo"), may("alice", DESCRIBE_CONFIGS, TOPIC, "bar"),
                may("alice", DESCRIBE, TOPIC, "baz"))).containsExactly(true, true, false);
        assertThat(List.of(may("bob", WRITE, TOPIC, "foo"), may("bob", READ, TOPIC, "bar"),
                may("bob", DESCRIBE, TOPIC, "baz"))).containsExactly(true, false, true);
        assertThat(List.of(may("malory", DESCRIBE, TOPIC, "foo"), may("malory", WRITE, TOPIC, "bar"),
                may("malory", READ, TOPIC, "baz"))).containsExactly(true, false, false);
    }

    @Test
    void hostOfAnAclMustBeTheClientsAddressOrWildcard() {
        String host1 = "192.168.1.1";
        String host2 = "192.168.1.2";
        add(acl(TOPIC, "foo", LITERAL, "User:alice", host1, READ, DENY),
                acl(TOPIC, "foo", LITERAL, "User:alice", "*", READ, ALLOW),
                acl(TOPIC, "bar", LITERAL, "User:bob", host2, READ, ALLOW),
                acl(TOPIC, "bar", LITERAL, "User:*", LOCAL, DESCRIBE, ALLOW));
        record Case(String user, String host, boolean readFoo, boolean readBar, boolean describeBar) {
        }
        for (Case c : List.of(new Case("alice", LOCAL, true, false, true), new Case("alice", host1, false, false, false),
                new Case("alice", host2, true, false, false), new Case("bob", LOCAL, false, false, true),
                new Case("bob", host1, false, false, false), new Case("bob", host2, false, true, true))) {
            assertThat(List.of(may(c.user(), c.host(), READ, TOPIC, "foo"), may(c.user(), c.host(), READ, TOPIC, "bar"),
                    may(c.user(), c.host(), DESCRIBE, TOPIC, "bar")))
                    .as(c.toString()).containsExactly(c.readFoo(), c.readBar(), c.describeBar());
        }
    }

    @Test
    void cidrHostBlocksMatchEveryAddressInside() {
        add(acl(TOPIC, "t", LITERAL, "User:alice", "10.1.0.0/16", READ, ALLOW),
                acl(TOPIC, "t", LITERAL, "User:alice", "10.1.2.0/24", READ, DENY),
                acl(TOPIC, "v6", LITERAL, "User:alice", "fd00::/8", WRITE, ALLOW));
        assertThat(may("alice", "10.1.0.0", READ, TOPIC, "t")).isTrue();
        assertThat(may("alice", "10.1.255.255", READ, TOPIC, "t")).isTrue();
        assertThat(may("alice", "10.1.2.9", READ, TOPIC, "t")).isFalse();
        assertThat(may("alice", "10.2.0.1", READ, TOPIC, "t")).isFalse();
        assertThat(may("alice", "fd12:3456::1", WRITE, TOPIC, "v6")).isTrue();
        assertThat(may("alice", "fe80::1", WRITE, TOPIC, "v6")).isFalse();
        assertThat(may("alice", "10.1.0.1", WRITE, TOPIC, "v6")).isFalse();
    }

    @Test
    void manyAclsOfMixedPatterns() {
        add(acl(TOPIC, "green2", LITERAL, "User:*", "*", READ, ALLOW),
                acl(TOPIC, "green", PREFIXED, "User:bob", "*", READ, ALLOW),
                acl(TOPIC, "betamax4", LITERAL, "User:bob", "*", READ, ALLOW),
                acl(TOPIC, "betamax", LITERAL, "User:bob", "*", READ, ALLOW),
                acl(TOPIC, "beta", PREFIXED, "User:*", "*", READ, ALLOW),
                acl(TOPIC, "alpha", PREFIXED, "User:*", "*", READ, ALLOW),
                acl(TOPIC, "alp", PREFIXED, "User:bob", "*", READ, DENY),
                acl(GROUP, "*", LITERAL, "User:bob", "*", WRITE, ALLOW),
                acl(GROUP, "wheel", LITERAL, "User:*", "*", WRITE, DENY));
        assertThat(may("bob", READ, TOPIC, "green1")).isTrue();
        assertThat(may("bob", WRITE, GROUP, "wheel")).isFalse();
        assertThat(may("bob", READ, TOPIC, "alpha")).isFalse();
        assertThat(may("bob", WRITE, GROUP, "arbitrary")).isTrue();
        assertThat(may("bob", READ, TOPIC, "ala")).isFalse();
        assertThat(may("alice", READ, TOPIC, "alphabet")).isTrue();
        assertThat(may("alice", READ, TOPIC, "betamax")).isTrue(); // prefix beta for User:*
        assertThat(may("alice", READ, TOPIC, "green1")).isFalse();
    }

    @Test
    void prefixedAclsApplyToNamesStartingWithThemAndLiteralOnlyToTheExactName() {
        add(acl(TOPIC, "fooa", PREFIXED, "User:alice", "*", ALL, ALLOW),
                acl(TOPIC, "foobar", LITERAL, "User:bob", "*", ALL, ALLOW),
                acl(TOPIC, "f", PREFIXED, "User:bob", "*", ALL, ALLOW));
        assertThat(List.of(may("bob", WRITE, TOPIC, "foobarr"), may("bob", READ, TOPIC, "goobar"),
                may("bob", READ, TOPIC, "fooa"))).containsExactly(true, false, true);
        assertThat(List.of(may("alice", DESCRIBE, TOPIC, "fooa"), may("alice", WRITE, TOPIC, "bar"),
                may("alice", READ, TOPIC, "baz"), may("alice", READ, TOPIC, "foob"))).containsExactly(true, false, false, false);
    }

    @Test
    void literalAclIsNotAPrefix() {
        add(acl(TOPIC, "foo", LITERAL, "User:bob", "*", READ, ALLOW));
        assertThat(may("bob", READ, TOPIC, "foo")).isTrue();
        assertThat(may("bob", READ, TOPIC, "foobar")).isFalse();
        assertThat(may("bob", READ, TOPIC, "fo")).isFalse();
    }

    @Test
    void prefixedStarIsAPrefixNotTheWildcard() {
        add(acl(TOPIC, "*", PREFIXED, "User:bob", "*", READ, ALLOW));
        assertThat(may("bob", READ, TOPIC, "orders")).isFalse();
        assertThat(may("bob", READ, TOPIC, "*orders")).isTrue();
    }

    @Test
    void aclsOfOneResourceTypeDoNotApplyToAnother() {
        add(acl(TOPIC, "*", LITERAL, "User:bob", "*", ALL, ALLOW));
        assertThat(may("bob", READ, TOPIC, "x")).isTrue();
        assertThat(may("bob", READ, GROUP, "x")).isFalse();
        assertThat(may("bob", WRITE, TRANSACTIONAL_ID, "x")).isFalse();
    }

    @Test
    void refreshSwapsTheWholeSetAndKeepsTheSnapshotWhenTheListIsUnchanged() {
        AclBinding readFoo = acl(TOPIC, "foo", LITERAL, "User:bob", "*", READ, ALLOW);
        add(readFoo);
        assertThat(authorizer.aclCount()).isEqualTo(1);
        assertThat(may("bob", READ, TOPIC, "foo")).isTrue();
        remove(readFoo);
        assertThat(authorizer.aclCount()).isZero();
        assertThat(may("bob", READ, TOPIC, "foo")).isFalse();
    }

    @Test
    void decisionsStayFastAndRightWithManyPatterns() {
        List<AclBinding> many = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            many.add(acl(TOPIC, "t" + i, i % 2 == 0 ? LITERAL : PREFIXED, "User:u" + (i % 100), "*", READ, ALLOW));
        }
        many.add(acl(TOPIC, "t1", PREFIXED, "User:u7", "*", READ, DENY));
        authorizer.refresh(() -> many);
        assertThat(authorizer.aclCount()).isEqualTo(20_001);
        assertThat(may("u0", READ, TOPIC, "t0")).isTrue(); // literal t0 for u0
        assertThat(may("u0", READ, TOPIC, "t00")).isFalse(); // literal only
        assertThat(may("u1", READ, TOPIC, "t1-anything")).isTrue(); // prefixed t1 for u1
        assertThat(may("u7", READ, TOPIC, "t17")).isFalse(); // prefixed t17 allows u17... and t1 denies u7
        assertThat(may("u17", READ, TOPIC, "t17x")).isTrue();
    }

    // ---- authorizeByResourceType (KIP-679), after Kafka's BaseAuthorizerTest

    @Test
    void byResourceTypeFollowsAddsAndRemoves() {
        String host1 = "192.168.1.1";
        AclBinding allowRead = acl(TOPIC, "sb1", LITERAL, "User:user1", host1, READ, ALLOW);
        AclBinding denyRead = acl(TOPIC, "sb1", LITERAL, "User:user1", host1, READ, DENY);
        for (int i = 0; i < 3; i++) {
            assertThat(mayAny("user1", host1, READ, TOPIC)).isFalse();
            add(allowRead);
            assertThat(mayAny("user1", host1, READ, TOPIC)).isTrue();
            add(denyRead);
            assertThat(mayAny("user1", host1, READ, TOPIC)).isFalse();
            remove(denyRead);
            assertThat(mayAny("user1", host1, READ, TOPIC)).isTrue();
            remove(allowRead);
        }
    }

    @Test
    void byResourceTypeUnrelatedDenyDoesNotDominateAllow() {
        String host1 = "192.168.1.1";
        String host2 = "192.168.1.2";
        add(acl(TOPIC, "sb1", LITERAL, "User:user1", host1, READ, DENY),
                acl(TOPIC, "sb1", LITERAL, "User:user2", host1, READ, DENY),
                acl(TOPIC, "sb1", LITERAL, "User:user1", host2, WRITE, DENY),
                acl(TOPIC, "sb1", LITERAL, "User:user2", host2, READ, DENY),
                acl(TOPIC, "sb1", LITERAL, "User:user1", host2, READ, ALLOW),
                acl(TOPIC, "sb2", LITERAL, "User:user1", host2, READ, DENY),
                acl(GROUP, "s", PREFIXED, "User:user1", host2, READ, DENY));
        assertThat(mayAny("user1", host1, READ, TOPIC)).isFalse();
        assertThat(mayAny("user1", host1, READ, GROUP)).isFalse();
        assertThat(mayAny("user1", host1, READ, TRANSACTIONAL_ID)).isFalse();
        assertThat(mayAny("user1", host1, READ, CLUSTER)).isFalse();
        assertThat(mayAny("user1", host2, READ, TOPIC)).isTrue();
    }

    @Test
    void byResourceTypeDenyOfTheSameLiteralTakesPrecedence() {
        add(acl(TOPIC, "sb1", LITERAL, "User:user1", "*", WRITE, ALLOW));
        assertThat(mayAny("user1", LOCAL, WRITE, TOPIC)).isTrue();
        add(acl(TOPIC, "sb1", LITERAL, "User:user1", "*", WRITE, DENY));
        assertThat(mayAny("user1", LOCAL, WRITE, TOPIC)).isFalse();
    }

    @Test
    void byResourceTypePrefixDenyDominatesLongerAllows() {
        AclBinding allowAbcde = acl(GROUP, "abcde", PREFIXED, "User:user1", "*", READ, ALLOW);
        add(allowAbcde);
        assertThat(mayAny("user1", LOCAL, READ, GROUP)).isTrue();
        add(acl(GROUP, "abcd", PREFIXED, "User:user1", "*", READ, DENY));
        assertThat(mayAny("user1", LOCAL, READ, GROUP)).isFalse();
        add(acl(GROUP, "abc", PREFIXED, "User:user1", "*", READ, ALLOW));
        assertThat(mayAny("user1", LOCAL, READ, GROUP)).isTrue();
        add(acl(GROUP, "a", PREFIXED, "User:user1", "*", READ, DENY));
        assertThat(mayAny("user1", LOCAL, READ, GROUP)).isFalse();
        add(acl(GROUP, "ab", PREFIXED, "User:user1", "*", READ, ALLOW));
        assertThat(mayAny("user1", LOCAL, READ, GROUP)).isFalse();
    }

    @Test
    void byResourceTypeWildcardDenyDominatesEverything() {
        add(acl(GROUP, "hello", PREFIXED, "User:user1", "*", WRITE, ALLOW));
        assertThat(mayAny("user1", LOCAL, WRITE, GROUP)).isTrue();
        add(acl(GROUP, "*", LITERAL, "User:user1", "*", WRITE, DENY));
        assertThat(mayAny("user1", LOCAL, WRITE, GROUP)).isFalse();
        add(acl(GROUP, "*", LITERAL, "User:user1", "*", WRITE, ALLOW));
        assertThat(mayAny("user1", LOCAL, WRITE, GROUP)).isFalse();
        add(acl(GROUP, "aloha", LITERAL, "User:user1", "*", WRITE, ALLOW));
        assertThat(mayAny("user1", LOCAL, WRITE, GROUP)).isFalse();
    }

    @Test
    void byResourceTypeCountsAllButNotImpliedOperations() {
        AclBinding allowAll = acl(TOPIC, "sb1", LITERAL, "User:user1", "*", ALL, ALLOW);
        add(acl(TOPIC, "sb1", LITERAL, "User:user1", "*", WRITE, DENY), allowAll);
        assertThat(mayAny("user1", LOCAL, READ, TOPIC)).isTrue();
        add(acl(TOPIC, "sb1", LITERAL, "User:user1", "*", ALL, DENY));
        assertThat(mayAny("user1", LOCAL, READ, TOPIC)).isFalse();
        acls.clear();
        add(acl(TOPIC, "sb1", LITERAL, "User:user1", "*", WRITE, ALLOW));
        assertThat(mayAny("user1", LOCAL, DESCRIBE, TOPIC)).isFalse(); // WRITE implies DESCRIBE only per resource
    }

    @Test
    void byResourceTypeHostsAndWildcardPrincipal() {
        String host1 = "192.168.1.1";
        String host2 = "192.168.1.2";
        add(acl(TOPIC, "sb1", LITERAL, "User:user1", host1, READ, ALLOW));
        assertThat(mayAny("user1", host1, READ, TOPIC)).isTrue();
        assertThat(mayAny("user1", host2, READ, TOPIC)).isFalse();
        add(acl(TOPIC, "sb1", LITERAL, "User:*", host1, READ, DENY));
        assertThat(mayAny("user1", host1, READ, TOPIC)).isFalse();
        add(acl(TOPIC, "sb2", LITERAL, "User:*", "*", READ, ALLOW));
        assertThat(mayAny("user2", host2, READ, TOPIC)).isTrue();
        assertThat(mayAny("user1", host1, READ, TOPIC)).isTrue(); // sb2 is allowed and not denied
    }

    @Test
    void byResourceTypeWithAllowEveryoneAndNoAclsAllows() {
        authorizer = new AclAuthorizer(Set.of(), true);
        assertThat(mayAny("anyone", LOCAL, IDEMPOTENT_WRITE, CLUSTER)).isTrue();
        add(acl(TOPIC, "hard", PREFIXED, "User:other", "*", READ, ALLOW)); // applies to "hardcode"
        assertThat(mayAny("anyone", LOCAL, WRITE, TOPIC)).isFalse();
    }

    @Test
    void byResourceTypeRefusesFilterTypes() {
        assertThatThrownBy(() -> mayAny("u", LOCAL, READ, ResourceType.ANY))
                .hasMessage("Must specify a non-filter resource type for authorizeByResourceType");
        assertThatThrownBy(() -> mayAny("u", LOCAL, AclOperation.ANY, TOPIC))
                .hasMessage("Must specify a non-filter operation type for authorizeByResourceType");
    }
}
